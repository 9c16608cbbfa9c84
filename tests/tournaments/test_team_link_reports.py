"""A team reports its match's result from the page behind its personal link
(``web.players.reports``): where it is offered and where not, the result in words for the
other side with who reported it, the engine's refusals in es/ca/en with what was typed
kept and nothing stored, a second different report made a dispute, a table of three's
third side answering, a revoked link reporting nothing. Through the test client."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.entries.services import link_issue, link_revoke
from tournaments.models import (
    Championship,
    Entry,
    HandRevision,
    Match,
    MatchConfirmation,
    Scorekeeping,
    TeamAct,
)
from tournaments.stages import services as stage_services

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def _championship(scorekeeping: str = Scorekeeping.RESULTS, **kwargs) -> Championship:
    return ChampionshipFactory(
        scorekeeping=scorekeeping,
        status=Championship.Status.RUNNING,
        time_zone="Europe/Madrid",
        rules=kwargs.pop("rules", {"preset": "argentine"}),
        **kwargs,
    )


def _match(scorekeeping: str = Scorekeeping.RESULTS, teams: int = 2) -> Match:
    championship = _championship(scorekeeping)
    for seed in range(1, teams + 1):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    return stage_services.round_generate(stage=stage)[0]


def _url(team) -> str:
    token = link_issue(team=team, via="organiser")
    return reverse("tournaments:team_link", args=[team.championship.slug, token])


def _report(match, scores, winner: str | None = None) -> dict[str, object]:
    """The report form's POST: ``scores`` a list of (A, B) per chico."""
    data: dict[str, object] = {"action": "report", "match": match.pk}
    for number, (a, b) in enumerate(scores, start=1):
        data[f"m{match.pk}-c{number}_A"] = a
        data[f"m{match.pk}-c{number}_B"] = b
    if winner:
        data[f"m{match.pk}-winner"] = winner
    return data


def _reported() -> bool:
    return TeamAct.objects.filter(action=TeamAct.Action.REPORTED).exists()


WON_2_1 = [(30, 25), (18, 30), (30, 12)]


@pytest.fixture
def match(db) -> Match:
    return _match()


def test_a_team_reports_and_the_other_sees_it_in_words_with_who_reported_it(client, match):
    team_a, team_b = match.team_a, match.team_b
    url_a, url_b = _url(team_a), _url(team_b)
    page = client.get(url_a, **EN).content.decode()
    assert f'id="report-{match.pk}"' in page and "Report the result" in page
    assert f'name="m{match.pk}-c1_A"' in page and 'inputmode="numeric"' in page
    assert 'id="next-match-report"' in page  # the next match leads to its report

    after = client.post(url_a, _report(match, WON_2_1, "A"), follow=True, **EN)
    text = after.content.decode()
    assert (
        f"Result reported: 2–1 (30–25, 18–30, 30–12). Waiting for {team_b.name} to confirm it."
        in text
    )
    match.refresh_from_db()
    assert (match.recorded, match.reported_side, match.winner_id) == ("result", "A", team_a.pk)
    act = TeamAct.objects.get(action=TeamAct.Action.REPORTED)
    assert (act.team, act.via, act.match, act.detail) == (
        team_a,
        "link",
        match,
        "2–1 (30–25, 18–30, 30–12)",
    )
    # The reporting team: no form any more, its report waiting for the other side.
    assert f'id="report-{match.pk}"' not in text
    assert "Reported by your team: 2–1 (30–25, 18–30, 30–12)" in text
    assert f"Your report is waiting for {team_b.name} to confirm it." in text

    # The other team: the result in words, who reported it, confirm or dispute.
    other = client.get(url_b, **EN).content.decode()
    assert f'id="report-{match.pk}"' not in other
    assert f'id="result-{match.pk}"' in other and "Confirm the result" in other
    assert f"Reported by {team_a.name}: 2–1 (30–25, 18–30, 30–12)" in other
    assert f'id="answer-by-{match.pk}"' in other  # its time to answer
    client.post(url_b, {"action": "confirm", "match": match.pk}, **EN)
    match.refresh_from_db()
    assert match.confirmed_at is not None
    assert client.get(url_a, **EN).content.decode().count("Confirmed.") == 1


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("en", "has 31 in chico 1: a chico ends the moment a side reaches 30"),
        ("es", "tiene 31 en el chico 1: un chico termina en"),
        ("ca", "té 31 al joc 1: un joc acaba en"),
    ],
)
def test_an_impossible_result_is_refused_with_the_engines_sentence_and_nothing_stored(
    client, db, language, sentence
):
    championship = _championship(rules={"preset": "catalan" if language == "ca" else "argentine"})
    if language == "ca":
        # The Catalan jocs: a joc of 12 is reached at 12, so 31 is past it too.
        sentence = "té 31 al joc 1"
    for seed in (1, 2):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    match = stage_services.round_generate(stage=stage)[0]
    url = _url(match.team_b)
    response = client.post(
        url, _report(match, [(31, 12), (30, 2)], "A"), HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 200  # the page again, not a redirect
    html = response.content.decode()
    assert sentence in html
    assert match.team_a.name in html.split(sentence)[0][-200:]  # the side named by its team
    # What was typed is kept, the form is open where it was refused.
    assert f'name="m{match.pk}-c1_A" value="31"' in html
    assert f'name="m{match.pk}-c2_B" value="2"' in html
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED and match.recorded == "hands"
    assert not _reported() and not match.revisions.exists()
    assert not MatchConfirmation.objects.exists()


def test_a_winner_the_chicos_contradict_and_a_missing_winner_are_refused(client, match):
    url = _url(match.team_a)
    html = client.post(url, _report(match, WON_2_1, "B"), **EN).content.decode()
    assert f"The chicos give the match to {match.team_a.name}, not {match.team_b.name}." in html
    html = client.post(url, _report(match, WON_2_1), **EN).content.decode()
    assert "Say who won the match." in html
    html = client.post(url, _report(match, [], "A"), **EN).content.decode()
    assert "Type the score of each chico played." in html
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED and not _reported()


def test_not_offered_where_the_referees_keep_the_score_and_refused_if_posted(client, db):
    match = _match(scorekeeping=Scorekeeping.REFEREES)
    url = _url(match.team_a)
    page = client.get(url, **EN).content.decode()
    assert f'id="report-{match.pk}"' not in page and "Report the result" not in page
    after = client.post(url, _report(match, WON_2_1, "A"), follow=True, **EN).content.decode()
    assert "In this championship the referees keep the score" in after
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED and not _reported()


def test_a_stage_of_its_own_decides_and_players_mode_offers_the_report(client, db):
    match = _match(scorekeeping=Scorekeeping.REFEREES)
    stage = match.stage
    stage.scorekeeping = Scorekeeping.PLAYERS  # a player of the table keeps the score here
    stage.save(update_fields=["scorekeeping"])
    assert f'id="report-{match.pk}"' in client.get(_url(match.team_a), **EN).content.decode()
    stage.championship.scorekeeping = Scorekeeping.RESULTS
    stage.championship.save(update_fields=["scorekeeping"])
    stage.scorekeeping = Scorekeeping.REFEREES
    stage.save(update_fields=["scorekeeping"])
    assert f'id="report-{match.pk}"' not in client.get(_url(match.team_a), **EN).content.decode()


def test_not_offered_to_a_team_outside_the_match_which_reports_nothing(client, db):
    match = _match(teams=4)
    stranger = (
        match.stage.championship.teams.exclude(pk__in=[match.team_a_id, match.team_b_id])
        .order_by("pk")
        .first()
    )
    url = _url(stranger)
    page = client.get(url, **EN).content.decode()
    assert f'id="report-{match.pk}"' not in page
    after = client.post(url, _report(match, WON_2_1, "A"), follow=True, **EN).content.decode()
    assert f"This match is not one of {stranger.name}" in after
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED and not _reported()


def test_a_match_already_recorded_is_offered_to_nobody(client, match):
    url_a, url_b = _url(match.team_a), _url(match.team_b)
    client.post(url_a, _report(match, WON_2_1, "A"), **EN)
    for url in (url_a, url_b):
        assert f'id="report-{match.pk}"' not in client.get(url, **EN).content.decode()
    # The reporting team posting another result again changes nothing.
    after = client.post(url_a, _report(match, [(20, 30), (11, 30)], "B"), follow=True, **EN)
    assert "has already answered this result" in after.content.decode()
    match.refresh_from_db()
    assert match.winner_id == match.team_a_id
    assert TeamAct.objects.filter(action="reported").count() == 1


def test_a_second_report_of_another_result_is_a_dispute_said_clearly(client, match):
    url_a, url_b = _url(match.team_a), _url(match.team_b)
    client.post(url_a, _report(match, WON_2_1, "A"), **EN)
    # Team B's page was opened before A reported: its form, sent now, says B won.
    after = client.post(url_b, _report(match, [(20, 30), (11, 30)], "B"), follow=True, **EN)
    text = after.content.decode()
    assert (
        f"{match.team_a.name} reported another result first: 2–1 (30–25, 18–30, 30–12). "
        "Yours is different, so it went to the organiser as a dispute" in text
    )
    assert "Disputed: waiting for the organiser to settle it." in text
    answer = MatchConfirmation.objects.get(match=match, side="B")
    assert answer.status == "disputed"
    match.refresh_from_db()
    assert match.winner_id == match.team_a_id  # never two results
    assert match.revisions.filter(action=HandRevision.Action.RESULT).count() == 1
    # The reporter sees the dispute too.
    mine = client.get(url_a, **EN).content.decode()
    assert f"Disputed by {match.team_b.name}: waiting for the organiser" in mine


def test_the_same_result_reported_second_confirms_it(client, match):
    url_a, url_b = _url(match.team_a), _url(match.team_b)
    client.post(url_a, _report(match, WON_2_1, "A"), **EN)
    after = client.post(url_b, _report(match, WON_2_1, "A"), follow=True, **EN).content.decode()
    assert f"{match.team_a.name} had reported the same result" in after
    match.refresh_from_db()
    assert match.confirmed_at is not None


def test_a_table_of_three_reports_and_its_third_side_confirms(client, db):
    championship = _championship(
        rules={"preset": "argentine", "gallo": "por_turno", "target": 15, "best_of": 1},
        team_size=1,
    )
    for seed in (1, 2, 3):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="tables_round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    url_a, url_c = _url(match.team_a), _url(match.team_c)
    page = client.get(url_c, **EN).content.decode()
    for side in "ABC":
        assert f'name="m{match.pk}-c1_{side}"' in page
    assert f'name="m{match.pk}-c1_winner"' in page
    data = {
        "action": "report",
        "match": match.pk,
        f"m{match.pk}-c1_A": 15,
        f"m{match.pk}-c1_B": 9,
        f"m{match.pk}-c1_C": 3,
        f"m{match.pk}-winner": "A",
    }
    after = client.post(url_a, data, follow=True, **EN).content.decode()
    assert f"Waiting for {match.team_b.name} and {match.team_c.name} to confirm it." in after
    third = client.get(url_c, **EN).content.decode()
    assert f"Reported by {match.team_a.name}: 1–0–0 (15–9–3)" in third
    client.post(url_c, {"action": "confirm", "match": match.pk}, **EN)
    answer = MatchConfirmation.objects.get(match=match, side="C")
    assert (answer.status, answer.on_behalf) == ("confirmed", False)
    assert TeamAct.objects.get(action="confirmed").team == match.team_c
    mine = client.get(url_a, **EN).content.decode()
    assert f"Your report is waiting for {match.team_b.name} to confirm it." in mine


def test_a_revoked_link_reports_nothing(client, match):
    url = _url(match.team_a)
    link_revoke(team=match.team_a)
    response = client.post(url, _report(match, WON_2_1, "A"), **EN)
    assert response.status_code == 403
    assert "This link was revoked" in response.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED
    assert not _reported()


def test_a_link_revoked_while_the_report_is_on_its_way_reports_nothing(client, match, monkeypatch):
    """The page acts with the link it opened, checked again under its lock: the organiser
    revoking it between the page's read and the report stops the report."""
    from tournaments.web.players import team_link

    opened = team_link.link_opened

    def opened_then_revoked(**kwargs):
        link = opened(**kwargs)
        link_revoke(team=link.team)
        return link

    monkeypatch.setattr(team_link, "link_opened", opened_then_revoked)
    after = client.post(_url(match.team_a), _report(match, WON_2_1, "A"), follow=True, **EN)
    assert "This link was revoked by the organiser" in after.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED
    assert not _reported()


def test_a_team_that_is_out_is_offered_no_report_and_reports_nothing(client, match):
    Entry.objects.create(
        championship=match.stage.championship,
        team=match.team_a,
        status=Entry.Status.WITHDRAWN,
        position=1,
    )
    url = _url(match.team_a)
    assert f'id="report-{match.pk}"' not in client.get(url, **EN).content.decode()
    client.post(url, _report(match, WON_2_1, "A"), **EN)
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED and not _reported()


def test_a_form_sent_incomplete_after_the_other_team_reported_says_why(client, match):
    url_a, url_b = _url(match.team_a), _url(match.team_b)
    client.post(url_a, _report(match, WON_2_1, "A"), **EN)
    # Team B's page was opened before: its form, sent without saying who won.
    after = client.post(url_b, _report(match, WON_2_1), follow=True, **EN).content.decode()
    assert "Say who won the match." in after
    assert f"Reported by {match.team_a.name}: 2–1 (30–25, 18–30, 30–12)" in after
    assert not MatchConfirmation.objects.filter(match=match, side="B").exists()
