"""No referee at the table, in a real browser on phones (390×844): team A reports its
match's result from its personal link (an impossible score first, refused with the
engine's sentence and what was typed kept), team B confirms it from its own link, and
the public match page says who reported and who confirmed it while the standings count
it.

Headless Debian Chromium through Playwright (skipped without it). Screenshots at phone,
tablet and desktop sizes (390×844, 820×1180, 1440×900) go to ``$TANTEO_SCREENSHOT_DIR`` when
it is set; on none of them does the page scroll sideways.
"""

from __future__ import annotations

from pathlib import Path

from django.urls import reverse

from tests.browsers import PHONE, TABLET, watch_csp
from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.entries.services import link_issue
from tournaments.models import Championship, Match, MatchConfirmation, Scorekeeping, TeamAct
from tournaments.stages import services as stage_services

WIDE = {"width": 1440, "height": 900}


def shoot(page, shots: Path, name: str) -> None:
    """``page`` at phone, tablet and wide desktop sizes; never wider than the screen."""
    size = page.viewport_size
    for label, viewport in (("phone", PHONE), ("tablet", TABLET), ("desktop", WIDE)):
        page.set_viewport_size(viewport)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"{name} at {label}: {width}px wide"
        page.screenshot(path=str(shots / f"{name}-{label}.png"), full_page=True)
    page.set_viewport_size(size)


def _phone(browser, csp_violations):
    context = browser.new_context(viewport=PHONE, extra_http_headers={"Accept-Language": "en"})
    watch_csp(context, csp_violations)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def _wins_and_losses(page, team: str) -> tuple[str, str]:
    row = page.locator("table.standings tbody tr", has_text=team)
    cells = row.locator("td")
    return cells.nth(1).inner_text(), cells.nth(2).inner_text()


def test_a_team_reports_on_its_phone_the_other_confirms_and_everyone_sees_it(
    browser, live_server, shots, csp_violations
):
    championship = ChampionshipFactory(
        name="Abierto de Sants",
        slug="abierto-sants",
        status=Championship.Status.RUNNING,
        scorekeeping=Scorekeeping.RESULTS,
        rules={"preset": "argentine"},
        time_zone="Europe/Madrid",
    )
    names = ["Los Anchos", "Las Siete de Oro", "El Mazo", "Flor y Contraflor"]
    for seed, name in enumerate(names, start=1):
        TeamFactory(championship=championship, seed=seed, name=name)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    match = stage_services.round_generate(stage=stage)[0]
    team_a, team_b = match.team_a, match.team_b
    links = {
        team.pk: live_server.url
        + reverse(
            "tournaments:team_link",
            args=[championship.slug, link_issue(team=team, via="organiser")],
        )
        for team in (team_a, team_b)
    }
    field = f"#id_m{match.pk}"

    # Team A, at the end of the match: its page leads to the report.
    page = _phone(browser, csp_violations)
    page.goto(links[team_a.pk])
    assert page.is_visible(f"#report-{match.pk}")
    for name in ("c1_A", "c1_B", "c2_A"):
        assert page.get_attribute(f"{field}-{name}", "inputmode") == "numeric"
    shoot(page, shots, "report-a-before")
    page.click("#next-match-report")

    # A 31 typed by mistake: the engine's sentence, what was typed kept, nothing stored.
    for name, value in (("c1_A", 31), ("c1_B", 25), ("c2_A", 18), ("c2_B", 30)):
        page.fill(f"{field}-{name}", str(value))
    page.fill(f"{field}-c3_A", "30")
    page.fill(f"{field}-c3_B", "12")
    page.check(f"#report-{match.pk} label:has-text('{team_a.name}') input")
    page.click(f"#report-{match.pk} button:has-text('Send the result')")
    alert = page.locator(f"#report-{match.pk} .form-error")
    alert.wait_for()
    assert f"{team_a.name} has 31 in chico 1" in alert.inner_text()
    assert page.input_value(f"{field}-c1_A") == "31"
    # The chico at fault is marked, the others not.
    assert page.get_attribute(f"{field}-c1_A", "aria-invalid") == "true"
    assert page.get_attribute(f"{field}-c2_A", "aria-invalid") is None
    assert page.input_value(f"{field}-c3_B") == "12"
    assert page.is_checked(f"#report-{match.pk} label:has-text('{team_a.name}') input")
    assert Match.objects.get(pk=match.pk).status == Match.Status.SCHEDULED
    shoot(page, shots, "report-a-refused")

    page.fill(f"{field}-c1_A", "30")
    page.click(f"#report-{match.pk} button:has-text('Send the result')")
    page.wait_for_selector(".message:has-text('Result reported')")
    assert f"Waiting for {team_b.name} to confirm it." in page.inner_text(".messages")
    assert not page.is_visible(f"#report-{match.pk}")
    mine = page.inner_text(f"#answered-{match.pk}")
    assert "Reported by your team: 2–1 (30–25, 18–30, 30–12)" in mine
    assert f"Your report is waiting for {team_b.name} to confirm it." in mine
    shoot(page, shots, "report-a-sent")

    # Team B, on its own phone: the result in words, who reported it; it confirms.
    other = _phone(browser, csp_violations)
    other.goto(links[team_b.pk])
    assert not other.is_visible(f"#report-{match.pk}")
    words = other.inner_text(f"#result-words-{match.pk}")
    assert words == f"Reported by {team_a.name}: 2–1 (30–25, 18–30, 30–12)"
    shoot(other, shots, "report-b-to-confirm")
    other.click(f"#result-{match.pk} button:has-text('Confirm the result')")
    other.wait_for_selector(".message:has-text('Result confirmed.')")
    assert other.inner_text(f"#answer-{match.pk}") == "Confirmed."
    shoot(other, shots, "report-b-confirmed")
    assert sorted(MatchConfirmation.objects.filter(match=match).values_list("side", "status")) == [
        ("A", "confirmed"),
        ("B", "confirmed"),
    ]
    acts = TeamAct.objects.filter(via="link", match=match)
    assert sorted(acts.values_list("team__name", "action")) == sorted(
        [(team_a.name, "reported"), (team_b.name, "confirmed")]
    )

    # The public: the result, who reported it and who confirmed it; the standings follow.
    other.goto(f"{live_server.url}/c/{championship.slug}/matches/{match.pk}/")
    said = other.inner_text("#match-reported")
    assert f"Result reported by {team_a.name}" in said
    assert f"{team_a.name}: confirmed" in said and f"{team_b.name}: confirmed" in said
    shoot(other, shots, "report-public-match")
    other.goto(f"{live_server.url}/c/{championship.slug}/stages/{stage.pk}/standings/")
    assert _wins_and_losses(other, team_a.name) == ("1", "0")
    assert _wins_and_losses(other, team_b.name) == ("0", "1")
    shoot(other, shots, "report-public-standings")
    assert csp_violations == []


def test_a_table_of_three_and_a_catalan_joc_fit_a_phone(
    browser, live_server, shots, csp_violations
):
    """The report of a gallo table (three scores and a chico's winner per row) and of a
    Catalan match (jocs, in Catalan) on a phone: every box reachable, nothing sideways."""
    gallo = ChampionshipFactory(
        name="Gallo de la Barceloneta",
        status=Championship.Status.RUNNING,
        scorekeeping=Scorekeeping.RESULTS,
        rules={"preset": "argentine", "gallo": "por_turno", "target": 15},
        team_size=1,
    )
    for seed, name in enumerate(["Maximiliano Etchegaray", "Rosa", "Juan Ignacio"], 1):
        TeamFactory(championship=gallo, seed=seed, name=name)
    stage = stage_services.stage_create(championship=gallo, format="tables_round_robin")
    (table,) = stage_services.round_generate(stage=stage)
    catalan = ChampionshipFactory(
        name="Truc de Sant Andreu",
        status=Championship.Status.RUNNING,
        scorekeeping=Scorekeeping.PLAYERS,
        rules={"preset": "catalan"},
    )
    for seed, name in enumerate(["Els de la Colla Vella de Sant Andreu", "Les Manilles"], 1):
        TeamFactory(championship=catalan, seed=seed, name=name)
    stage = stage_services.stage_create(championship=catalan, format="round_robin")
    match = stage_services.round_generate(stage=stage)[0]

    page = _phone(browser, csp_violations)
    for found, team, language, name in (
        (table, table.team_c, "es", "report-gallo"),
        (match, match.team_a, "ca", "report-catalan"),
    ):
        token = link_issue(team=team, via="organiser")
        page.set_extra_http_headers({"Accept-Language": language})
        url = reverse("tournaments:team_link", args=[found.stage.championship.slug, token])
        page.goto(live_server.url + url)
        form = page.locator(f"#report-{found.pk} form")
        form.wait_for()
        for box in form.locator("input.score-input, select").all():
            box.scroll_into_view_if_needed()
            shape = box.bounding_box()
            assert shape["x"] >= 0 and shape["x"] + shape["width"] <= PHONE["width"], name
            assert shape["height"] >= 40, name  # big enough for a thumb
        shoot(page, shots, name)
    assert csp_violations == []
