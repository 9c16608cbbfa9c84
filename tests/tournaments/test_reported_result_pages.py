"""The organiser's pages of "No referee at the table": who keeps the score, a result typed
or corrected on a match's page, changing how a match is recorded, the results to settle."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.conftest import chico_hand
from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.models import Championship, HandRevision, Match, Scorekeeping
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services

PASSWORD = "truco-y-retruco-2026"


@pytest.fixture
def organiser(db, client):
    user = get_user_model().objects.create_user(username="org", password=PASSWORD)
    client.force_login(user)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return user


@pytest.fixture
def match(organiser) -> Match:
    championship = ChampionshipFactory(
        slug="sin-arbitros", scorekeeping=Scorekeeping.RESULTS, rules={"preset": "argentine"}
    )
    championship.organisers.add(organiser)
    for seed in (1, 2):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    return stage_services.round_generate(stage=stage)[0]


def _chicos(*pairs) -> dict:
    data = {}
    for number, (a, b) in enumerate(pairs, start=1):
        data[f"c{number}_A"], data[f"c{number}_B"] = a, b
    return data


def test_the_organiser_chooses_who_keeps_the_score(client, organiser, match):
    url = reverse("organiser:scorekeeping", args=["sin-arbitros"])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Un jugador de la mesa, mano a mano en su móvil" in page
    answer = client.post(url, {"scorekeeping": "players", "confirm_within": "45"})
    assert answer.status_code == 302
    championship = Championship.objects.get(slug="sin-arbitros")
    assert (championship.scorekeeping, championship.confirm_within) == ("players", 45)
    stage = championship.stages.get()
    client.post(
        reverse("organiser:stage_scorekeeping", args=["sin-arbitros", stage.pk]),
        {"scorekeeping": "referees"},
    )
    stage.refresh_from_db()
    assert stage.scorekeeping_in_force == "referees"
    overview = client.get(
        reverse("organiser:championship", args=["sin-arbitros"]), HTTP_ACCEPT_LANGUAGE="en"
    )
    assert "A player of the table" in overview.content.decode()


def test_a_bad_time_to_confirm_is_refused_beside_its_field(client, organiser, match):
    url = reverse("organiser:scorekeeping", args=["sin-arbitros"])
    page = client.post(url, {"scorekeeping": "results", "confirm_within": "0"})
    assert page.status_code == 200 and "field--error" in page.content.decode()
    assert Championship.objects.get(slug="sin-arbitros").confirm_within == 30


def test_the_organiser_types_a_result_on_the_matchs_page(client, organiser, match):
    url = reverse("organiser:match_result", args=["sin-arbitros", match.pk])
    assert "c3_B" in client.get(url).content.decode()
    answer = client.post(url, _chicos((30, 25), (18, 30), (30, 12)))
    assert answer.status_code == 302
    match.refresh_from_db()
    assert match.recorded == "result" and match.confirmed_at is not None
    page = client.get(reverse("organiser:match_results", args=["sin-arbitros", match.pk]))
    assert "2–1 (30–25, 18–30, 30–12)" in page.content.decode()
    assert "typed at the desk" in page.content.decode()


@pytest.mark.parametrize(
    ("data", "sentence"),
    [
        (_chicos((30, 30)), "reached 30"),
        (_chicos((31, 12), (30, 2)), "31"),
        (_chicos((30, 2), (30, 5), (12, 30)), "chico 3"),
        ({"c1_A": "30"}, "Give every side"),
        ({}, "Type the score"),
    ],
)
def test_an_impossible_result_stays_on_the_page_with_its_sentence(
    client, organiser, match, data, sentence
):
    url = reverse("organiser:match_result", args=["sin-arbitros", match.pk])
    page = client.post(url, data, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200 and sentence in page.content.decode()
    assert not Match.objects.get(pk=match.pk).games.exists()


def test_the_organiser_corrects_a_reported_result_with_a_reason(client, organiser, match):
    result_services.match_result_report(
        match=match, side="A", games=[{"score": {"A": 30, "B": 25}}, {"score": {"A": 30, "B": 2}}]
    )
    url = reverse("organiser:match_result", args=["sin-arbitros", match.pk])
    page = client.get(url).content.decode()
    assert 'value="25"' in page and "Reason" in page  # the stored result, to correct
    refused = client.post(url, _chicos((25, 30), (2, 30)))
    assert refused.status_code == 200
    client.post(url, {**_chicos((25, 30), (2, 30)), "reason": "The sheet says B."})
    match.refresh_from_db()
    assert match.winner_id == match.team_b_id
    assert match.revisions.filter(action=HandRevision.Action.RESULT_CORRECTED).exists()


def test_a_match_kept_by_hands_is_converted_with_a_reason(client, organiser, match, referee):
    match.stage.championship.scorekeeping = Scorekeeping.PLAYERS
    match.stage.championship.save()
    result_services.match_start(match=match)
    result_services.hand_record(match=match, record=chico_hand(match, "A"), recorded_by=referee)
    page = client.get(reverse("organiser:match_result", args=["sin-arbitros", match.pk]))
    assert "kept hand by hand" in page.content.decode()
    url = reverse("organiser:match_recording", args=["sin-arbitros", match.pk])
    client.post(url, {"to": "result", "reason": ""})
    assert Match.objects.get(pk=match.pk).hands.count() == 1
    answer = client.post(url, {"to": "result", "reason": "The phone died."})
    assert answer.url == reverse("organiser:match_result", args=["sin-arbitros", match.pk])
    assert not Match.objects.get(pk=match.pk).hands.exists()


def test_a_report_nobody_answered_in_time_waits_on_the_results_to_settle(client, organiser, match):
    url = reverse("organiser:disputes", args=["sin-arbitros"])
    assert "Nothing needs you" in client.get(url).content.decode()
    result_services.match_result_report(
        match=match, side="A", games=[{"score": {"A": 30, "B": 25}}, {"score": {"A": 30, "B": 2}}]
    )
    assert 'id="overdue"' in client.get(url).content.decode()
    page = client.get(url).content.decode()
    overdue = page[page.index('id="overdue"') : page.index("Disputed results")]
    assert str(match) not in overdue  # within the 30 minutes to answer
    Match.objects.filter(pk=match.pk).update(
        reported_at=timezone.now() - datetime.timedelta(minutes=31)
    )
    page = client.get(url).content.decode()
    overdue = page[page.index('id="overdue"') : page.index("Disputed results")]
    assert str(match) in overdue and "no answer within 30 minutes" in overdue
    client.post(
        reverse("organiser:match_confirm", args=["sin-arbitros", match.pk]),
        {"side": "both", "next": "disputes"},
    )
    assert "Nothing needs you" in client.get(url).content.decode()


def _section(page: str, start: str, end: str | None = None) -> str:
    rest = page[page.index(start) :]
    return rest[: rest.index(end)] if end else rest


def test_a_disputed_or_overdue_result_is_listed_once_where_it_is_settled(client, organiser, match):
    """Not also among the provisional results, whose "confirm for both sides" beside the
    dispute would keep a result the other team says is wrong without a word."""
    url = reverse("organiser:disputes", args=["sin-arbitros"])
    games = [{"score": {"A": 30, "B": 25}}, {"score": {"A": 30, "B": 2}}]
    result_services.match_result_report(match=match, side="A", games=games)
    page = client.get(url).content.decode()
    assert str(match) in _section(page, "Provisional results")  # waiting for team B
    Match.objects.filter(pk=match.pk).update(
        reported_at=timezone.now() - datetime.timedelta(minutes=31)
    )
    page = client.get(url).content.decode()
    assert str(match) in _section(page, 'id="overdue"', "Disputed results")
    assert str(match) not in _section(page, "Provisional results")
    result_services.match_dispute(match=match, side="B", comment="We won the first.", by=None)
    page = client.get(url).content.decode()
    assert str(match) in _section(page, "Disputed results", "Provisional results")
    assert str(match) not in _section(page, 'id="overdue"', "Disputed results")
    assert str(match) not in _section(page, "Provisional results")
    # Nothing else is provisional, but that one is not confirmed: not "every result is".
    assert "Every played result is confirmed." not in page


def test_the_result_to_settle_is_shown_with_who_reported_it(client, organiser, match):
    """The organiser judges an overdue or disputed result from the queue: its score and
    who reported it are there, not only behind the match's link."""
    url = reverse("organiser:disputes", args=["sin-arbitros"])
    games = [{"score": {"A": 30, "B": 25}}, {"score": {"A": 30, "B": 2}}]
    result_services.match_result_report(match=match, side="A", games=games)
    Match.objects.filter(pk=match.pk).update(
        reported_at=timezone.now() - datetime.timedelta(minutes=31)
    )
    said = f"Reported by {match.team_a.name}: 2–0 (30–25, 30–2)"
    assert said in _section(client.get(url).content.decode(), 'id="overdue"', "Disputed")
    result_services.match_dispute(match=match, side="B", comment="We won the first.", by=None)
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert f"Comunicado por {match.team_a.name}: 2–0 (30–25, 30–2)" in page


def test_the_public_pages_say_who_keeps_the_score_and_who_reported(client, organiser, match):
    result_services.match_result_report(
        match=match, side="B", games=[{"score": {"A": 25, "B": 30}}, {"score": {"A": 2, "B": 30}}]
    )
    result_services.match_dispute(match=match, side="A", comment="We won the first.", by=None)
    page = client.get(reverse("tournaments:championship", args=["sin-arbitros"])).content.decode()
    assert "Who keeps the score: Results only" in page
    page = client.get(reverse("tournaments:match", args=["sin-arbitros", match.pk])).content
    page = page.decode()
    assert f"Result reported by {match.team_b.name}" in page
    assert f"{match.team_a.name}: disputed, waiting for the organiser" in page
    assert "We won the first." not in page  # what a team writes to the organiser
    assert 'id="hands"' not in page


def test_a_result_only_match_page_lists_no_hands_and_says_when_in_the_championships_time(
    client, organiser, match
):
    championship = match.stage.championship
    championship.time_zone = "America/Argentina/Buenos_Aires"  # UTC−3 all year
    championship.save(update_fields=["time_zone"])
    result_services.match_result_report(
        match=match, side="A", games=[{"score": {"A": 30, "B": 12}}, {"score": {"A": 30, "B": 2}}]
    )
    Match.objects.filter(pk=match.pk).update(
        reported_at=datetime.datetime(2026, 5, 2, 23, 40, tzinfo=datetime.UTC)
    )
    page = client.get(reverse("tournaments:match", args=["sin-arbitros", match.pk])).content
    page = page.decode()
    assert "Hand by hand" not in page and "No hand recorded yet." not in page
    assert "(05/02/2026 8:40 p.m.)" in page and "11:40" not in page
