"""A championship day from the site alone, in one browser run: the organiser invites a
referee (who follows the link and makes his account), checks teams in (one by its QR
link), generates a round with a team absent (its opponent wins by walkover), gives the
round to the new referee, who records the match on his tablet and has both sides confirm
it; the organiser corrects hand 2 of 5 with a reason, sees the standings change and the
revision listed, and prints the round's sheets (the PDF names every table).

The pieces are tested one by one in test_browser_championship_day.py and
test_browser_results.py; this run chains them as the day does, on one championship.
Headless Debian Chromium through Playwright; skipped without it.
"""

from __future__ import annotations

import io
import re

import pytest
from django.contrib.auth import get_user_model

from tests.tournaments.conftest import chico_hand
from tests.tournaments.factories import ChampionshipFactory
from tests.tournaments.test_browser_results import POINT_A, POINT_B, TEAMS, wins
from tournaments.championships import services as championship_services
from tournaments.models import Championship, HandRevision, Match
from tournaments.results import records
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services
from tournaments.web.organiser import printing

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}
DESKTOP = {"width": 1280, "height": 800}
PASSWORD = "envido-real-33"


def test_a_whole_championship_day_from_the_site(
    browser, logged_in_page, live_server, shots, csp_violations
):
    pypdf = pytest.importorskip("pypdf")
    if printing.pdf_unavailable_reason() is not None:
        pytest.skip(printing.pdf_unavailable_reason())
    marta = get_user_model().objects.create_user(username="marta", password=PASSWORD)
    championship = ChampionshipFactory(
        name="Torneo del Casal", slug="torneo-casal", status=Championship.Status.RUNNING
    )
    championship.organisers.add(marta)
    teams = [
        championship_services.team_create(
            championship=championship, name=name, seed=seed, players=players
        )
        for seed, (name, players) in enumerate(TEAMS, start=1)
    ]
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    base = "/organiser/torneo-casal"
    stage_url = f"{live_server.url}{base}/stages/{stage.pk}/"
    page = logged_in_page(f"{base}/referees/", "marta", PASSWORD, viewport=DESKTOP)

    # 1. A referee invited by a one-time link makes his account on his own phone.
    page.fill("#id_invite-name", "Jordi")
    page.click("button:has-text('Make the invitation link')")
    link = page.input_value("#invitation-link-text")
    assert re.fullmatch(r"http\S+/organiser/invitation/\S+/", link)
    phone = browser.new_context(viewport=PHONE, extra_http_headers={"Accept-Language": "en"})
    tablet = phone.new_page()
    tablet.set_default_timeout(15_000)
    tablet.goto(link)
    assert tablet.input_value("#id_first_name") == "Jordi"  # as the organiser typed it
    tablet.fill("#id_last_name", "Puig")
    tablet.fill("#id_username", "jordi")
    tablet.fill("#id_password1", PASSWORD)
    tablet.fill("#id_password2", PASSWORD)
    tablet.click("button:has-text('Make my account')")
    tablet.wait_for_url("**/referee/")
    jordi = get_user_model().objects.get(username="jordi")

    # 2. Check-in: two teams from the list, one by its QR link; Los Anchos never comes.
    page.goto(stage_url)
    page.click("text=Check teams in")
    for team in teams[1:3]:
        page.locator("tr", has_text=team.name).locator("button:has-text('Check in')").click()
        page.wait_for_selector(f"text={team.name} is checked in.")
    page.click("text=QR codes to print")
    scan = page.locator(".qr-card", has_text=teams[3].name).locator("a").get_attribute("href")
    page.goto(scan)
    page.click("button:has-text('Check this team in')")
    page.wait_for_selector(f"text={teams[3].name} is checked in.")

    # 3. The round: Los Anchos' opponent wins by walkover; the other match is played.
    page.goto(stage_url)
    page.click("button:has-text('Generate the next round')")
    page.wait_for_selector("text=1 match decided by walkover")
    walkover = Match.objects.get(status=Match.Status.WALKOVER)
    assert teams[0].pk in (walkover.team_a_id, walkover.team_b_id)
    assert walkover.winner_id != teams[0].pk
    matches = list(Match.objects.filter(stage=stage).order_by("pk"))
    for table, match in enumerate(matches, start=1):
        result_services.match_assign(match=match, table=str(table))
    page.goto(stage_url)
    page.click("text=Tables, times and referees")
    page.select_option("#id_round-referee", label="Jordi Puig (jordi)")
    page.click("button:has-text('Assign to every match of the round')")
    page.wait_for_selector("text=Jordi Puig (jordi) referees")
    match = Match.objects.exclude(status=Match.Status.WALKOVER).get(stage=stage)
    assert match.referee == jordi

    # 4. Hands 1 to 4 are on the sheet already; hand 5, a falta envido accepted, ends the
    # match on Jordi's tablet, and each side confirms the result there.
    result_services.match_start(match=match, by=jordi)
    for record in (POINT_A, chico_hand(match, "A"), POINT_B, POINT_A):
        result_services.hand_record(match=match, record=record, recorded_by=jordi)
    hands = [h.record for h in match.hands.order_by("number")]
    upcoming = records.score(match, hands).next
    names = records.names(result_selectors.match_detail(pk=match.pk))
    side_a = records.lineup(match)["A"]
    mano = upcoming.order[0]
    other = next(p for p in upcoming.order if (p in side_a) != (mano in side_a))
    tablet.set_viewport_size(TABLET)
    tablet.goto(f"{live_server.url}/referee/matches/{match.pk}/")
    for label in (f"{names[mano]} calls falta envido", f"{names[other]}: quiero"):
        tablet.get_by_role("button", name=label, exact=True).click()
        tablet.wait_for_selector(f".hand-summary li:has-text('{label}')")
    envido_to_a = f"Envido to {names[side_a[0]]} and {names[side_a[1]]}"
    tablet.get_by_role("button", name=envido_to_a, exact=True).click()
    tablet.get_by_role("button", name="Save hand").click()
    tablet.wait_for_selector("text=Hand 5 saved")
    for team in (match.team_a.name, match.team_b.name):
        tablet.get_by_role("button", name=f"{team} confirms").click()
        tablet.wait_for_selector(f"text={team} confirms the result.")
    tablet.wait_for_selector("text=Both sides have confirmed the result.")
    tablet.screenshot(path=str(shots / "day-whole-confirmed.png"), full_page=True)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and not match.is_provisional
    winner = match.team_a.name

    # 5. The organiser corrects hand 2 (its envido was the other side's) with a reason:
    # the standings change and the revision is listed, in the match and the audit log.
    standings = f"{live_server.url}/c/torneo-casal/stages/{stage.pk}/standings/"
    page.goto(standings)
    assert wins(page, winner) == "1"
    page.goto(stage_url)
    page.locator("tr.match-row", has_text=winner).get_by_role("link", name="Result").click()
    page.locator("#hand-2").get_by_role("link", name="Correct").click()
    # The hand editor, with the referee's buttons: the envido given to the other side,
    # whose falta envido ends the chico.
    page.wait_for_selector(".hand-summary li:has-text('Envido to')")
    assert page.get_by_role("button", name="Save the correction").count() == 1
    page.get_by_role("button", name="Undo the last event").click()
    page.wait_for_load_state("domcontentloaded")
    assert page.get_by_role("button", name="Save the correction").count() == 0
    side_b = records.lineup(match)["B"]
    to_b = f"Envido to {names[side_b[0]]} and {names[side_b[1]]}"
    page.get_by_role("button", name=to_b, exact=True).click()
    page.wait_for_selector(f".hand-summary li:has-text('{to_b}')")
    page.screenshot(path=str(shots / "day-whole-hand-editor.png"), full_page=True)
    page.fill("#id_reason", "The envido of hand 2 was theirs")
    page.get_by_role("button", name="Save the correction").click()
    page.wait_for_selector("text=Hand 2 corrected.")
    assert "The envido of hand 2 was theirs" in page.locator("table.revisions").inner_text()
    assert HandRevision.objects.get(action="corrected").by == marta
    page.goto(standings)
    assert wins(page, winner) == "0"
    page.goto(f"{live_server.url}{base}/audit/")
    assert page.locator("tr.revision--corrected").count() == 1

    # 6. The round's sheets: the page, then the PDF, which names every table.
    page.goto(stage_url)
    page.get_by_role("link", name="Print the round").first.click()
    page.wait_for_selector(".sheet--pairings")
    pdf_url = page.get_by_role("link", name="PDF").get_attribute("href")
    response = page.request.get(f"{live_server.url}{pdf_url}")
    assert response.ok and response.headers["content-type"] == "application/pdf"
    text = "\n".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(response.body())).pages)
    for table in range(1, len(matches) + 1):
        assert f"Table {table}" in text
    assert csp_violations == []
    phone.close()
    page.context.close()
