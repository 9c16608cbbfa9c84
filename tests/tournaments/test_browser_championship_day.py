"""A championship day in a real browser: invite a referee (he follows the link and sets his
name and password), check teams in (one by its QR link), generate a round with a team
absent and see its opponent win by walkover; the stage form shows one format's settings.

Headless Debian Chromium through Playwright (skipped without it), as in
test_browser_organiser_flow.py. Screenshots of every page this flow adds, at phone,
tablet (both ways) and desktop sizes, go to ``$TANTEO_SCREENSHOT_DIR`` or a temporary
folder.
"""

from __future__ import annotations

import re

from django.contrib.auth import get_user_model

from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.models import Championship, Match

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}
TABLET_LANDSCAPE = {"width": 1180, "height": 820}
DESKTOP = {"width": 1280, "height": 800}
PASSWORD = "envido-real-33"


def shoot(page, shots, name: str) -> None:
    """The page at the four sizes; nothing may widen it past the phone's screen."""
    for label, size in (
        ("phone", PHONE),
        ("tablet", TABLET),
        ("tablet-landscape", TABLET_LANDSCAPE),
        ("desktop", DESKTOP),
    ):
        page.set_viewport_size(size)
        if label == "phone":
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name
        page.screenshot(path=str(shots / f"day-{name}-{label}.png"), full_page=True)
    page.set_viewport_size(DESKTOP)


def test_invite_check_in_and_generate_with_an_absent_team(
    browser, logged_in_page, live_server, shots, csp_violations
):
    marta = get_user_model().objects.create_user(
        username="marta", password=PASSWORD, first_name="Marta", last_name="Soler"
    )
    championship = ChampionshipFactory(
        name="Torneo del Casal", slug="torneo-casal", status=Championship.Status.RUNNING
    )
    championship.organisers.add(marta)
    teams = [TeamFactory(championship=championship, seed=n) for n in range(1, 5)]
    base = "/organiser/torneo-casal"
    page = logged_in_page(f"{base}/referees/", "marta", PASSWORD, viewport=DESKTOP)

    # The organiser invites a referee and gets a one-time link, which he copies.
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page.fill("#id_invite-name", "Jordi Puig")
    page.click("button:has-text('Make the invitation link')")
    link = page.input_value("#invitation-link-text")
    assert re.fullmatch(r"http\S+/organiser/invitation/\S+/", link)
    page.click("button:has-text('Copy link')")
    page.wait_for_selector("#invitation-link [role=status]:has-text('Link copied.')")
    assert page.evaluate("navigator.clipboard.readText()") == link
    shoot(page, shots, "referees")

    # The referee follows it, on his phone: name, user name, password; he is logged in.
    phone = browser.new_context(viewport=PHONE, extra_http_headers={"Accept-Language": "en"})
    referee = phone.new_page()
    referee.goto(link)
    shoot(referee, shots, "invitation")
    # The name the organiser typed is there already.
    assert referee.input_value("#id_first_name") == "Jordi"
    assert referee.input_value("#id_last_name") == "Puig"
    referee.fill("#id_username", "jordi")
    referee.fill("#id_password1", PASSWORD)
    referee.fill("#id_password2", PASSWORD)
    referee.click("button:has-text('Make my account')")
    referee.wait_for_url("**/referee/")
    assert "Welcome, Jordi Puig" in referee.content()
    page.reload()
    assert "Jordi Puig" in page.locator("#referees").inner_text()

    # A stage: the form shows only the chosen format's settings.
    page.goto(f"{live_server.url}{base}/stages/new/")
    page.select_option("#id_format", "swiss")
    assert page.locator("#id_rounds").is_visible()
    assert not page.locator("#id_group_count").is_visible()
    page.select_option("#id_format", "round_robin")
    assert not page.locator("#id_rounds").is_visible()
    shoot(page, shots, "stage-form")
    page.click("button:has-text('Create the stage')")
    page.wait_for_selector("text=Stage Round robin created.")
    stage_url = page.url

    # Check-in: two teams from the list, one by the link of its QR code, one absent.
    page.click("text=Check teams in")
    for team in teams[1:3]:
        page.locator("tr", has_text=team.name).locator("button:has-text('Check in')").click()
        page.wait_for_selector(f"text={team.name} is checked in.")
    page.click("text=QR codes to print")
    # The click returns once the navigation starts: wait for the sheet, not only its address.
    page.wait_for_url("**/teams/qr/")
    page.wait_for_load_state()
    assert page.locator(".qr-card svg").count() == 4
    shoot(page, shots, "qr-sheet")
    scan = page.locator(".qr-card", has_text=teams[3].name).locator("a").get_attribute("href")
    page.goto(scan)
    shoot(page, shots, "check-in-scan")
    page.click("button:has-text('Check this team in')")
    page.wait_for_selector(f"text={teams[3].name} is checked in.")
    page.goto(stage_url)
    page.click("text=Check teams in")
    assert "3 of 4 teams checked in" in page.content()
    shoot(page, shots, "check-in")

    # The round: the absent team's opponent wins by walkover.
    page.goto(stage_url)
    page.click("button:has-text('Generate the next round')")
    page.wait_for_selector("text=1 match decided by walkover")
    walkover = Match.objects.get(status=Match.Status.WALKOVER)
    assert teams[0].pk in (walkover.team_a_id, walkover.team_b_id)
    assert walkover.winner_id != teams[0].pk
    assert page.locator("tr.match-row--walkover").count() == 1
    shoot(page, shots, "stage")

    # The round's matches to the new referee in one go.
    page.click("text=Tables, times and referees")
    page.select_option("#id_round-referee", label="Jordi Puig (jordi)")
    page.click("button:has-text('Assign to every match of the round')")
    page.wait_for_selector("text=Jordi Puig (jordi) referees")
    shoot(page, shots, "round-assign")
    referee.reload()
    assert referee.locator("table.referee-matches tbody tr").count() == 1

    # A team fixed after entry.
    page.goto(f"{live_server.url}{base}/teams/{teams[0].pk}/")
    shoot(page, shots, "team-edit")

    assert csp_violations == []
    phone.close()
    page.context.close()
