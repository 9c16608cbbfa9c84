"""The result pages through the test client: corrections with their history, the sides'
confirmation on the tablet, the organiser's queue, the audit log, the provisional mark on
public pages, exports and the API, and the printed sheets (HTML and PDF)."""

from __future__ import annotations

import csv
import datetime
import io
import json
import re
from html import unescape

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.tournaments.factories import ChampionshipFactory, RefereeFactory, TeamFactory
from tests.tournaments.test_result_revisions import five_hands, to_b
from tournaments.io import exports
from tournaments.models import Championship, Hand, HandRevision, Match, MatchConfirmation
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services
from tournaments.web.organiser import printing

PASSWORD = "truco-y-retruco-2026"


def html(response) -> str:
    return unescape(response.content.decode())


@pytest.fixture
def organiser(db):
    return get_user_model().objects.create_user(username="organiser", password=PASSWORD)


@pytest.fixture
def day(organiser):
    """A running round robin of four teams: two matches at tables 1 and 2, each with its
    referee; the first played to its end (five hands, A wins 2-0)."""
    championship = ChampionshipFactory(status=Championship.Status.RUNNING)
    championship.organisers.add(organiser)
    for seed in range(1, 5):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    matches = stage_services.round_generate(stage=stage)
    referees = [RefereeFactory(championships=[championship]) for _ in range(2)]
    for table, (match, referee) in enumerate(zip(matches, referees, strict=True), start=1):
        result_services.match_assign(match=match, table=str(table), referee=referee)
    played = matches[0]
    result_services.match_start(match=played)
    hands = five_hands(played, referees[0])
    return {
        "championship": championship,
        "stage": stage,
        "matches": matches,
        "match": played,
        "hands": hands,
        "referee": referees[0],
        "other_referee": referees[1],
    }


def results_url(day, name="match_results", **extra) -> str:
    kwargs = {"slug": day["championship"].slug, "match_id": day["match"].pk, **extra}
    return reverse(f"organiser:{name}", kwargs=kwargs)


def test_the_organiser_corrects_hand_2_and_the_standings_and_history_follow(client, day, organiser):
    client.force_login(organiser)
    page = client.get(results_url(day, "hand_correct", number=2), HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    shown = json.loads(page.context["form"].initial["record"])
    assert shown == day["hands"][1].record
    # The keys of the record are named on the page.
    captain = day["match"].team_a.memberships.first().player
    assert f"<code>{captain.record_key}</code> {captain.name}" in html(page)
    standings = reverse("tournaments:standings", args=[day["championship"].slug, day["stage"].pk])
    assert client.get(standings).context["tables"][0].lines[0]["line"].wins == 1

    response = client.post(
        results_url(day, "hand_correct", number=2),
        {
            "record": json.dumps(to_b(day["hands"][1])),
            "reason": "The envido was B's",
            "revision": page.context["form"].initial["revision"],
        },
        HTTP_ACCEPT_LANGUAGE="en",
        follow=True,
    )
    assert "Hand 2 corrected." in html(response)
    assert "The envido was B&#x27;s" in response.content.decode() or "envido was B" in html(
        response
    )
    lines = client.get(standings).context["tables"][0].lines
    assert all(row["line"].wins == 0 for row in lines)
    revision = HandRevision.objects.get(action="corrected")
    assert (revision.number, revision.by, revision.reason) == (2, organiser, "The envido was B's")
    # The public match page marks the corrected hand.
    public = client.get(
        reverse("tournaments:match", args=[day["championship"].slug, day["match"].pk]),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert html(public).count("badge--corrected") == 1


@pytest.mark.parametrize(
    ("post", "error"),
    [
        ({"record": "{not json", "reason": "x"}, "This is not a valid hand record"),
        # Python's parser raised a RecursionError (a 500) on this one.
        ({"record": "[" * 1000 + "]" * 1000, "reason": "x"}, "This is not a valid hand record"),
        ({"record": "[1, 2]", "reason": "x"}, "A hand record is an object"),
        ({"record": None, "reason": ""}, "This field is required."),
        (
            {"record": '{"events": [{"by": "p999999", "call": "truco"}]}', "reason": "x"},
            "is not a player of this hand",
        ),
    ],
)
def test_a_bad_correction_is_explained_and_changes_nothing(client, day, organiser, post, error):
    client.force_login(organiser)
    data = {
        "record": post["record"] or json.dumps(to_b(day["hands"][1])),
        "reason": post["reason"],
        "revision": result_selectors.last_revision(match=day["match"]),
    }
    response = client.post(
        results_url(day, "hand_correct", number=2), data, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 400
    assert error in html(response)
    assert not HandRevision.objects.filter(action="corrected").exists()
    assert Hand.objects.get(pk=day["hands"][1].pk).record == day["hands"][1].record


def test_a_page_older_than_the_last_change_is_refused(client, day, organiser):
    client.force_login(organiser)
    seen = result_selectors.last_revision(match=day["match"])
    result_services.hand_correct(
        hand=day["hands"][0],
        record={"events": [{"trick": "B"}, {"trick": "B"}]},
        corrected_by=organiser,
        reason="First",
    )
    response = client.post(
        results_url(day, "hand_remove", number=3),
        {"reason": "Second", "revision": seen},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert "has changed since this page was shown" in html(response)
    assert day["match"].hands.count() == 5


def test_the_organiser_removes_a_hand_with_its_reason(client, day, organiser):
    client.force_login(organiser)
    response = client.post(
        results_url(day, "hand_remove", number=1),
        {
            "reason": "Dealt by mistake",
            "revision": result_selectors.last_revision(match=day["match"]),
        },
        HTTP_ACCEPT_LANGUAGE="en",
        follow=True,
    )
    assert "Hand 1 removed." in html(response)
    assert day["match"].hands.count() == 4
    assert "Dealt by mistake" in html(response)  # the history on the match's page


def test_who_reaches_the_result_page(client, day):
    url = results_url(day)
    client.force_login(day["other_referee"])
    assert client.get(url).status_code == 404
    assert (
        client.post(results_url(day, "hand_remove", number=1), {"reason": "x"}).status_code == 404
    )
    client.force_login(day["referee"])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200 and "Correct" in html(page)
    # The organiser-only action is not his.
    assert client.post(results_url(day, "match_confirm"), {"side": "both"}).status_code == 404
    # Once a side confirmed, the referee reads why he may no longer correct, and cannot.
    result_services.match_confirm(match=day["match"], side="A", by=day["referee"])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert "only the organiser may correct it now" in html(page)
    response = client.post(
        results_url(day, "hand_remove", number=1),
        {"reason": "x", "revision": result_selectors.last_revision(match=day["match"])},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert day["match"].hands.count() == 5


def test_the_sides_confirm_or_dispute_on_the_tablet(client, day, organiser):
    match = day["match"]
    client.force_login(day["referee"])
    sheet = reverse("referees:sheet", args=[match.pk])
    page = client.get(sheet, HTTP_ACCEPT_LANGUAGE="en")
    assert "Confirm the result" in html(page)
    captain = match.team_a.memberships.order_by("order").first().player
    response = client.post(
        reverse("referees:confirm", args=[match.pk]),
        {"side": "A", "op": "confirm", "sideA-player": captain.pk},
        HTTP_ACCEPT_LANGUAGE="en",
        follow=True,
    )
    assert f"{match.team_a.name} confirms the result." in html(response)
    # A dispute needs its comment.
    player_b = match.team_b.memberships.first().player
    response = client.post(
        reverse("referees:confirm", args=[match.pk]),
        {"side": "B", "op": "dispute", "sideB-player": player_b.pk, "sideB-comment": ""},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert "Say what is wrong with the result" in html(response)
    # A player of the other side cannot answer for this one.
    response = client.post(
        reverse("referees:confirm", args=[match.pk]),
        {"side": "B", "op": "confirm", "sideB-player": captain.pk},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    client.post(
        reverse("referees:confirm", args=[match.pk]),
        {"side": "B", "op": "dispute", "sideB-player": player_b.pk, "sideB-comment": "Hand 2"},
    )
    answers = result_selectors.match_confirmations(match=match)
    assert (answers["A"].status, answers["A"].player) == ("confirmed", captain)
    assert (answers["B"].status, answers["B"].comment) == ("disputed", "Hand 2")

    # The organiser's queue shows it; he keeps the result for side B.
    client.force_login(organiser)
    queue = reverse("organiser:disputes", args=[day["championship"].slug])
    assert "Hand 2" in html(client.get(queue, HTTP_ACCEPT_LANGUAGE="en"))
    client.post(results_url(day, "match_confirm"), {"side": "B", "next": "disputes"})
    page = html(client.get(queue, HTTP_ACCEPT_LANGUAGE="en"))
    assert "No disputed result." in page and "Every played result is confirmed." in page
    match.refresh_from_db()
    assert match.confirmed_at is not None


def test_provisional_on_public_pages_exports_and_the_api(client, day, organiser):
    match = day["match"]
    slug = day["championship"].slug
    match_page = reverse("tournaments:match", args=[slug, match.pk])
    round_page = reverse("tournaments:round", args=[slug, day["stage"].pk, 1])
    assert "Provisional" in html(client.get(match_page, HTTP_ACCEPT_LANGUAGE="en"))
    assert html(client.get(round_page, HTTP_ACCEPT_LANGUAGE="en")).count("badge--provisional") == 1
    rows = list(
        csv.DictReader(io.StringIO("".join(exports.export_matches(day["championship"]))[1:]))
    )
    assert [r["provisional"] for r in rows] == ["1", "0"]
    client.force_login(organiser)
    api = client.get(f"/api/v1/matches/{match.pk}/").json()
    assert api["provisional"] is True and api["confirmed_at"] is None

    result_services.match_confirm(match=match, side="A", by=organiser)
    result_services.match_confirm(match=match, side="B", by=organiser)
    assert "badge--provisional" not in html(client.get(match_page))
    assert client.get(f"/api/v1/matches/{match.pk}/").json()["provisional"] is False
    rows = list(
        csv.DictReader(io.StringIO("".join(exports.export_matches(day["championship"]))[1:]))
    )
    assert rows[0]["provisional"] == "0" and rows[0]["confirmed_at"]


def test_the_audit_log_lists_every_change_and_exports_it(client, day, organiser):
    other = day["matches"][1]
    result_services.match_walkover(
        match=other, winner=other.team_b, reason="No se presentó", recorded_by=organiser
    )
    result_services.match_confirm(match=day["match"], side="A", by=organiser)
    client.force_login(organiser)
    url = reverse("organiser:audit", args=[day["championship"].slug])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    actions = [row["revision"].action for row in page.context["rows"]]
    assert actions == ["confirmed", "walkover"] + ["recorded"] * 5
    only = client.get(url, {"match": other.pk}, HTTP_ACCEPT_LANGUAGE="en")
    assert [row["revision"].action for row in only.context["rows"]] == ["walkover"]
    assert "No se presentó" in html(only)

    response = client.get(
        reverse("organiser:audit_csv", args=[day["championship"].slug]), {"action": "walkover"}
    )
    text = b"".join(response.streaming_content).decode()
    assert text.startswith("\ufeff")
    (row,) = list(csv.DictReader(io.StringIO(text[1:])))
    assert (row["action"], row["reason"], row["match"]) == (
        "walkover",
        "No se presentó",
        str(other.pk),
    )
    assert json.loads(row["after"])["winner"] == other.team_b.name
    # Strangers see nothing.
    client.force_login(day["referee"])
    assert client.get(url).status_code == 404


def test_the_audit_csv_speaks_the_championships_time_and_names_the_players(client, day, organiser):
    """As the page and the other exports: times in the championship's time zone (with its
    offset), players by name as in the hands export (their ``p<id>`` keys stored)."""
    championship = day["championship"]
    Championship.objects.filter(pk=championship.pk).update(
        time_zone="America/Argentina/Buenos_Aires"
    )
    hand = day["hands"][1]  # the falta envido: its events name two players
    result_services.hand_correct(
        hand=hand, record=to_b(hand), corrected_by=organiser, reason="El envido era de B"
    )
    client.force_login(organiser)
    response = client.get(
        reverse("organiser:audit_csv", args=[championship.slug]), {"action": "corrected"}
    )
    text = b"".join(response.streaming_content).decode()
    (row,) = list(csv.DictReader(io.StringIO(text[1:])))
    stored = HandRevision.objects.get(action="corrected")
    assert row["at"].endswith("-03:00")
    assert datetime.datetime.fromisoformat(row["at"]) == stored.at
    names = exports.record_names(result_selectors.match_detail(pk=day["match"].pk))
    before, after = json.loads(row["before"]), json.loads(row["after"])
    assert stored.before["record"]["events"][0]["by"] in names  # stored by key
    for change in (before, after):
        by = [event["by"] for event in change["record"]["events"] if "by" in event]
        assert by and set(by) <= set(names.values())
    assert not re.search(r'"p\d+"', row["before"] + row["after"])
    assert after["record"]["events"][-1] == {"envido_winner": "B"}


def test_the_round_sheets_name_every_table_and_carry_the_tablet_qr(client, day, organiser):
    client.force_login(organiser)
    slug, stage = day["championship"].slug, day["stage"].pk
    url = reverse("organiser:print_round", args=[slug, stage, 1])
    page = html(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
    for match in day["matches"]:
        assert match.team_a.name in page and match.team_b.name in page
    assert page.count('class="sheet sheet--scoresheet"') == 2
    assert page.count('src="data:image/svg+xml') == 2
    assert "<script" not in page and "style=" not in page
    assert "Table 1" in page and "Table 2" in page
    scoresheet = html(client.get(results_url(day, "print_scoresheet"), HTTP_ACCEPT_LANGUAGE="en"))
    assert scoresheet.count('<tr><td class="num">') == printing.SCORESHEET_ROWS
    standings = html(
        client.get(
            reverse("organiser:print_standings", args=[slug, stage]), HTTP_ACCEPT_LANGUAGE="en"
        )
    )
    assert "1 result is still provisional" in standings
    client.force_login(day["referee"])
    assert client.get(url).status_code == 404


def test_the_qr_code_is_the_tablet_page_of_the_match(rf):
    import segno

    qr = printing.qr_data_uri("http://testserver/referee/matches/7/")
    assert qr.startswith("data:image/svg+xml")
    assert (
        segno.make("http://testserver/referee/matches/7/", error="m").svg_data_uri(
            scale=3, border=2
        )
        == qr
    )


def pdf_text(content: bytes) -> str:
    pypdf = pytest.importorskip("pypdf")
    reader = pypdf.PdfReader(io.BytesIO(content))
    return "\n".join(page.extract_text() for page in reader.pages)


@pytest.mark.skipif(printing.pdf_unavailable_reason() is not None, reason="WeasyPrint cannot load")
def test_the_round_pdf_opens_and_names_every_table(client, day, organiser):
    client.force_login(organiser)
    slug, stage = day["championship"].slug, day["stage"].pk
    response = client.get(
        reverse("organiser:print_round_pdf", args=[slug, stage, 1]), HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response["Content-Type"] == "application/pdf"
    text = pdf_text(response.content)
    assert "Table 1" in text and "Table 2" in text
    for match in day["matches"]:
        assert match.team_a.name in text and match.team_b.name in text
    standings = client.get(reverse("organiser:print_standings_pdf", args=[slug, stage]))
    assert day["match"].team_a.name in pdf_text(standings.content)


def test_a_walkover_needs_no_confirmation(day, organiser):
    other = day["matches"][1]
    result_services.match_walkover(match=other, winner=other.team_a, reason="No show")
    other.refresh_from_db()
    assert not other.is_provisional
    with pytest.raises(Exception) as refused:
        result_services.match_confirm(match=other, side="A", by=organiser)
    assert refused.value.code == "not_finished"
    assert not MatchConfirmation.objects.filter(match=other).exists()
    assert Match.objects.get(pk=other.pk).confirmed_at is None


def test_the_table_list_prints_alone(client, day, organiser):
    client.force_login(organiser)
    url = reverse("organiser:print_round", args=[day["championship"].slug, day["stage"].pk, 1])
    page = html(client.get(url, {"sheets": "0"}, HTTP_ACCEPT_LANGUAGE="en"))
    assert "sheet--pairings" in page and "sheet--scoresheet" not in page
    assert "print.pdf?sheets=0" in page
    if printing.pdf_unavailable_reason() is None:
        pdf = client.get(
            url.replace("print/", "print.pdf"), {"sheets": "0"}, HTTP_ACCEPT_LANGUAGE="en"
        )
        text = pdf_text(pdf.content)
        assert "Table" in text and day["match"].team_a.name in text
        assert "Scoresheet" not in text


def test_a_status_and_its_provisional_badge_read_as_two_words(client, day, organiser):
    """The round's and the organiser's tables read "FinishedPROVISIONAL": no space between."""
    slug = day["championship"].slug
    round_page = reverse("tournaments:round", args=[slug, day["stage"].pk, 1])
    client.force_login(organiser)
    stage_page = reverse("organiser:stage", args=[slug, day["stage"].pk])
    for url in (round_page, stage_page):
        page = html(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
        text = re.sub(r"<[^>]+>", "", page)
        assert "Finished Provisional" in re.sub(r"\s+", " ", text), url
        assert "FinishedProvisional" not in text


def test_a_confirmed_result_offers_the_referee_no_hand_to_delete(client, day, organiser):
    """After both sides confirmed, "Delete the last hand" led to a page, then to "only the
    organiser may correct it now. Nothing was saved."."""
    match = day["match"]
    client.force_login(day["referee"])
    sheet = reverse("referees:sheet", args=[match.pk])
    assert "Delete the last hand" in html(client.get(sheet, HTTP_ACCEPT_LANGUAGE="en"))
    result_services.match_confirm(match=match, side="A", by=day["referee"])
    result_services.match_confirm(match=match, side="B", by=day["referee"])
    assert "Delete the last hand" not in html(client.get(sheet, HTTP_ACCEPT_LANGUAGE="en"))
    # The organiser still may: his correction pages are his way.
    client.force_login(organiser)
    assert "Delete the last hand" in html(client.get(sheet, HTTP_ACCEPT_LANGUAGE="en"))


def test_a_knockout_round_has_one_name_on_every_page(client, organiser):
    """Public pages said "Semi-finals", the referee's breadcrumb and the printed scoresheet
    "Knockout round 1"."""
    championship = ChampionshipFactory(status=Championship.Status.RUNNING)
    championship.organisers.add(organiser)
    for seed in range(1, 5):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="single_elimination")
    referee = RefereeFactory(championships=[championship])
    match = stage_services.round_generate(stage=stage)[0]
    result_services.match_assign(match=match, table="1", referee=referee)
    public = reverse("tournaments:match", args=[championship.slug, match.pk])
    assert "Semi-finals" in html(client.get(public, HTTP_ACCEPT_LANGUAGE="en"))
    client.force_login(referee)
    for_referee = [reverse("referees:sheet", args=[match.pk]), reverse("referees:matches")]
    client.force_login(organiser)
    for_organiser = [
        reverse("organiser:print_scoresheet", args=[championship.slug, match.pk]),
        reverse("organiser:match_results", args=[championship.slug, match.pk]),
    ]
    for user, urls in ((referee, for_referee), (organiser, for_organiser)):
        client.force_login(user)
        for url in urls:
            page = html(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
            assert "Semi-finals" in page, url
            assert "Knockout round" not in page, url
