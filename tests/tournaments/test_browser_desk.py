"""In a real browser: the organiser types a round of six tables at the desk with the
keyboard alone (Tab between the boxes, Enter to save a row), sees an impossible row's
sentence appear as it is typed, fixes it, and sees the round's progress reach 6 of 6.

Headless Chromium from Debian driven by Playwright against ``live_server``; skips without
the browser. Screenshots go to ``$TANTEO_SCREENSHOT_DIR`` to look at them.
"""

from __future__ import annotations

from tests.tournaments.factories import ChampionshipFactory
from tournaments.championships import services as championship_services
from tournaments.models import Match, Scorekeeping
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services

LAPTOP = {"width": 1440, "height": 900}
SMALL_LAPTOP = {"width": 1180, "height": 820}
TABLET = {"width": 820, "height": 1180}

# Each table's paper sheet, chico by chico (side A, side B), as the desk reads it.
SHEETS = [
    [(30, 25), (18, 30), (30, 12)],
    [(30, 12), (30, 5)],
    [(14, 30), (30, 29), (27, 30)],
    [(30, 0), (30, 22)],
    [(22, 30), (30, 17), (30, 28)],
    [(9, 30), (11, 30)],
]


def shoot(page, shots, name: str) -> None:
    for size in (LAPTOP, SMALL_LAPTOP, TABLET):
        page.set_viewport_size(size)
        page.screenshot(path=str(shots / f"{name}-{size['width']}.png"), full_page=True)
        # The desk's table scrolls inside its box on a tablet; the page never sideways.
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"], name
    page.set_viewport_size(LAPTOP)


def focused(page) -> str:
    return page.evaluate("document.activeElement.name || document.activeElement.id")


def type_row(page, match: Match, chicos) -> None:
    """Type a row from its first box: each score then Tab, Enter after the last."""
    assert focused(page) == f"m{match.pk}-c1_A"
    flat = [points for chico in chicos for points in chico]
    for index, points in enumerate(flat):
        page.keyboard.type(str(points))
        page.keyboard.press("Enter" if index == len(flat) - 1 else "Tab")


def test_a_round_typed_at_the_desk_with_the_keyboard_alone(
    logged_in_page, live_server, shots, django_user_model, csp_violations
):
    organiser = django_user_model.objects.create_user(username="marta", password="envido-33")
    championship = ChampionshipFactory(
        name="Clasificatorio de Chivilcoy",
        slug="clasificatorio",
        scorekeeping=Scorekeeping.RESULTS,
        rules={"preset": "argentine"},
    )
    championship.organisers.add(organiser)
    for seed in range(1, 13):
        championship_services.team_create(
            championship=championship,
            name=f"Pareja {seed}",
            seed=seed,
            players=[f"Jugador {seed}A", f"Jugador {seed}B"],
        )
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    matches = stage_services.round_generate(stage=stage)
    for table, match in enumerate(matches, start=1):
        result_services.match_assign(match=match, table=str(table))
    assert len(matches) == 6

    page = logged_in_page(
        f"/organiser/clasificatorio/stages/{stage.pk}/rounds/1/desk/",
        "marta",
        "envido-33",
        viewport=LAPTOP,
    )
    progress = page.locator("#desk-progress")
    assert "0 of 6 results in" in progress.inner_text()
    shoot(page, shots, "desk-empty")

    # Table 1: typed and saved with Enter; the focus moves on to table 2 by itself.
    type_row(page, matches[0], SHEETS[0])
    page.wait_for_selector(f"#row-{matches[0].pk}.desk-row--just-saved")
    assert "1 of 6 results in" in progress.inner_text()
    assert "2–1 (30–25, 18–30, 30–12)" in page.locator(f"#row-{matches[0].pk}").inner_text()
    # The round picker counts along, without a reload.
    picked = page.locator("#desk-round option:checked")
    assert "6 to decide" not in picked.text_content()
    assert "5 to decide" in picked.text_content()

    # Table 2: a 31 is impossible, and the engine says so as it is typed.
    second = page.locator(f"#row-{matches[1].pk}")
    assert focused(page) == f"m{matches[1].pk}-c1_A"
    page.keyboard.type("31")
    page.keyboard.press("Tab")
    page.keyboard.type("12")
    sentence = second.locator(".desk-check--refused")
    sentence.wait_for()
    assert "Pareja" in sentence.inner_text() and "has 31 in chico 1" in sentence.inner_text()
    shoot(page, shots, "desk-refused")
    # Back to the first box (Shift+Tab selects what it holds), the right score over it.
    page.keyboard.press("Shift+Tab")
    page.keyboard.type("30")
    second.locator(".desk-check--incomplete", has_text="The match is not over").wait_for()
    for key in ("Tab", "Tab"):
        page.keyboard.press(key)
    page.keyboard.type("30")
    page.keyboard.press("Tab")
    page.keyboard.type("5")
    second.locator(".desk-check--ok", has_text="2–0 (30–12, 30–5)").wait_for()
    page.keyboard.press("Enter")
    page.wait_for_selector(f"#row-{matches[1].pk}.desk-row--just-saved")
    assert "2 of 6 results in" in progress.inner_text()

    for match, sheet in zip(matches[2:], SHEETS[2:], strict=True):
        type_row(page, match, sheet)
        page.wait_for_selector(f"#row-{match.pk}.desk-row--saved")
    page.wait_for_function(
        "document.getElementById('desk-progress').innerText.includes('6 of 6 results in')"
    )
    assert "to decide" not in picked.text_content()
    shoot(page, shots, "desk-done")

    for match, sheet in zip(matches, SHEETS, strict=True):
        match.refresh_from_db()
        assert match.recorded == Match.Recorded.RESULT and match.confirmed_at is not None
        stored = [(g.score_a, g.score_b) for g in match.games.order_by("number")]
        assert stored == (sheet if match != matches[1] else [(30, 12), (30, 5)])
    assert csp_violations == []
    page.context.close()


def test_a_table_of_three_is_typed_with_its_chicos_winner(
    logged_in_page, live_server, shots, django_user_model, csp_violations
):
    organiser = django_user_model.objects.create_user(username="marta", password="envido-33")
    championship = ChampionshipFactory(
        slug="gallo",
        scorekeeping=Scorekeeping.RESULTS,
        rules={"preset": "argentine", "gallo": "por_turno", "target": 15},
        team_size=1,
    )
    championship.organisers.add(organiser)
    for seed in range(1, 7):
        championship_services.team_create(
            championship=championship, name=f"Jugador {seed}", seed=seed, players=[f"J{seed}"]
        )
    stage = stage_services.stage_create(championship=championship, format="tables_swiss")
    first, second = stage_services.round_generate(stage=stage)
    page = logged_in_page(
        f"/organiser/gallo/stages/{stage.pk}/rounds/1/desk/",
        "marta",
        "envido-33",
        viewport=LAPTOP,
    )
    assert focused(page) == f"m{first.pk}-c1_A"
    # Chico 1: A and B reached 15 in the same hand (the pair's points), B won it.
    for points in ("15", "15", "4"):
        page.keyboard.type(points)
        page.keyboard.press("Tab")
    assert focused(page) == f"m{first.pk}-c1_winner"
    row = page.locator(f"#row-{first.pk}")
    row.locator(".desk-check--refused", has_text="say which of them won it").wait_for()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")  # "—", A, then B
    page.keyboard.press("Tab")
    for index, points in enumerate(("7", "15", "11")):
        page.keyboard.type(points)
        page.keyboard.press("Enter" if index == 2 else "Tab")
    page.wait_for_selector(f"#row-{first.pk}.desk-row--just-saved")
    assert "1 of 2 results in" in page.locator("#desk-progress").inner_text()
    assert focused(page) == f"m{second.pk}-c1_A"
    shoot(page, shots, "desk-three")
    first.refresh_from_db()
    assert first.winner_id == first.team_b_id and first.confirmed_at is not None
    assert csp_violations == []
    page.context.close()
