"""In a real browser: a match is recorded and confirmed at the table, the organiser
corrects hand 2 of 5 with a reason and sees the standings change and the revision listed,
then prints the round's sheets (the PDF names every table).

Headless Chromium from Debian driven by Playwright against ``live_server``; skips without
the browser. Screenshots go to ``$TANTEO_SCREENSHOT_DIR`` to look at them.
"""

from __future__ import annotations

import io

import pytest

from tests.tournaments.conftest import chico_hand
from tests.tournaments.factories import ChampionshipFactory
from tournaments.championships import services as championship_services
from tournaments.models import HandRevision, Match
from tournaments.results import records
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services
from tournaments.web.organiser import printing

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}
TABLET_LANDSCAPE = {"width": 1180, "height": 820}
DESKTOP = {"width": 1280, "height": 800}
POINT_A = {"events": [{"trick": "A"}, {"trick": "A"}]}
POINT_B = {"events": [{"trick": "B"}, {"trick": "B"}]}
TEAMS = [
    ("Los Anchos", ["Ana", "Alba"]),
    ("Las Flores", ["Beto", "Bruno"]),
    ("Los Toros", ["Tito", "Toni"]),
    ("Las Sotas", ["Sara", "Sol"]),
]


def shoot(page, shots, name: str, sizes=(PHONE, TABLET, TABLET_LANDSCAPE, DESKTOP)) -> None:
    for size in sizes:
        page.set_viewport_size(size)
        page.screenshot(path=str(shots / f"{name}-{size['width']}.png"), full_page=True)
        # Wide tables scroll inside their box: the page itself never scrolls sideways.
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"], name


def wins(page, team: str) -> str:
    row = page.locator("table.standings tbody tr", has_text=team)
    return row.locator("td").nth(3).inner_text()


def test_record_confirm_correct_and_print_a_round(
    logged_in_page, live_server, shots, django_user_model, csp_violations
):
    pypdf = pytest.importorskip("pypdf")
    if printing.pdf_unavailable_reason() is not None:
        pytest.skip(printing.pdf_unavailable_reason())
    organiser = django_user_model.objects.create_user(username="marta", password="envido-33")
    referee = django_user_model.objects.create_user(username="lucia", password="falta-30")
    championship = ChampionshipFactory(name="Copa del Casal", slug="copa-del-casal")
    championship.organisers.add(organiser)
    championship_services.referee_add(championship=championship, user=referee, added_by=None)
    for seed, (name, players) in enumerate(TEAMS, start=1):
        championship_services.team_create(
            championship=championship, name=name, seed=seed, players=players
        )
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    matches = stage_services.round_generate(stage=stage)
    for table, match in enumerate(matches, start=1):
        result_services.match_assign(match=match, table=str(table), referee=referee)
    match = next(m for m in matches if "Los Anchos" in (m.team_a.name, m.team_b.name))
    if match.team_a.name != "Los Anchos":
        pytest.skip("the pairing put Los Anchos second")  # the seeds make it first

    # Hands 1 to 4 were recorded earlier; hand 5 ends the match on the tablet.
    result_services.match_start(match=match)
    for record in (POINT_A, chico_hand(match, "A"), POINT_B, POINT_A):
        result_services.hand_record(match=match, record=record, recorded_by=referee)
    hands = list(match.hands.order_by("number"))
    upcoming = records.score(match, [h.record for h in hands]).next
    names = records.names(result_selectors.match_detail(pk=match.pk))
    mano = upcoming.order[0]
    side_a = set(records.team_keys(match.team_a))
    other = next(p for p in upcoming.order if (p in side_a) != (mano in side_a))

    tablet = logged_in_page(f"/referee/matches/{match.pk}/", "lucia", "falta-30", viewport=TABLET)
    for label in (f"{names[mano]} calls falta envido", f"{names[other]}: quiero"):
        tablet.get_by_role("button", name=label, exact=True).click()
        tablet.wait_for_selector(f".hand-summary li:has-text('{label}')")
    tablet.get_by_role("button", name="Envido to Ana and Alba", exact=True).click()
    tablet.get_by_role("button", name="Save hand").click()
    tablet.wait_for_selector("text=Hand 5 saved")
    tablet.wait_for_selector("text=Confirm the result")
    shoot(tablet, shots, "tablet-confirm")
    tablet.set_viewport_size(TABLET)
    # The referee hands the tablet to each side; its player confirms with a tap.
    tablet.get_by_role("button", name="Los Anchos confirms").click()
    tablet.wait_for_selector("text=Los Anchos confirms the result.")
    tablet.get_by_role("button", name=f"{match.team_b.name} confirms").click()
    tablet.wait_for_selector("text=Both sides have confirmed the result.")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and not match.is_provisional
    tablet.context.close()

    # The organiser: standings first, then the correction of hand 2.
    page = logged_in_page("/organiser/", "marta", "envido-33", viewport=DESKTOP)
    page.goto(f"{live_server.url}/c/copa-del-casal/stages/{stage.pk}/standings/")
    assert wins(page, "Los Anchos") == "1"
    page.goto(f"{live_server.url}/organiser/copa-del-casal/stages/{stage.pk}/")
    page.locator("tr.match-row", has_text="Los Anchos").get_by_role("link", name="Result").click()
    page.wait_for_selector("#hands")
    shoot(page, shots, "match-results")
    page.set_viewport_size(DESKTOP)
    page.locator("#hand-2").get_by_role("link", name="Correct").click()
    # The hand editor opens; the record as text is one link away.
    page.get_by_role("link", name="Edit the hand's record as text instead").click()
    record = page.input_value("#id_record")
    assert '"envido_winner": "A"' in record
    page.fill("#id_record", record.replace('"envido_winner": "A"', '"envido_winner": "B"'))
    page.fill("#id_reason", "The envido of hand 2 was theirs")
    shoot(page, shots, "hand-correct")
    page.set_viewport_size(DESKTOP)
    page.get_by_role("button", name="Save the correction").click()
    page.wait_for_selector("text=Hand 2 corrected.")
    history = page.locator("table.revisions tr.revision--corrected")
    assert history.count() == 1
    assert "The envido of hand 2 was theirs" in history.inner_text()
    revision = HandRevision.objects.get(action="corrected")
    assert (revision.number, revision.by) == (2, organiser)
    page.goto(f"{live_server.url}/c/copa-del-casal/stages/{stage.pk}/standings/")
    assert wins(page, "Los Anchos") == "0"
    page.goto(f"{live_server.url}/organiser/copa-del-casal/audit/")
    assert page.locator("tr.revision--corrected").count() == 1
    shoot(page, shots, "audit")
    page.goto(f"{live_server.url}/c/copa-del-casal/matches/{match.pk}/")
    assert page.locator(".badge--corrected").count() == 1
    shoot(page, shots, "public-match")

    # Print the round: the page, then its PDF, which names every table.
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/organiser/copa-del-casal/stages/{stage.pk}/")
    page.get_by_role("link", name="Print the round").first.click()
    page.wait_for_selector(".sheet--pairings")
    shoot(page, shots, "print-round", sizes=(DESKTOP,))
    pdf_url = page.get_by_role("link", name="PDF").get_attribute("href")
    response = page.request.get(f"{live_server.url}{pdf_url}")
    assert response.ok and response.headers["content-type"] == "application/pdf"
    reader = pypdf.PdfReader(io.BytesIO(response.body()))
    text = "\n".join(p.extract_text() for p in reader.pages)
    assert len(reader.pages) == 1 + len(matches)  # the table list, a scoresheet per match
    for table, printed in enumerate(matches, start=1):
        assert f"Table {table}" in text
        assert printed.team_a.name in text and printed.team_b.name in text
    assert csp_violations == []
    page.context.close()
