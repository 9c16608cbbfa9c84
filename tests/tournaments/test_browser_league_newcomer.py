"""A league as a newcomer meets it in Chromium, in Spanish and Catalan, on a phone and a
desktop: the dates a form opens with are filled in, a match postponed with no new date
reads so on its page, a matchday moved lists the match its home club's night kept behind
and moves it on, the fixtures say which days are skipped (screenshots to look at)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.browsers import watch_csp
from tests.tournaments.test_league import make_league
from tournaments.stages import league

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "truco-y-retruco-2026"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}
SIZES = {"phone": PHONE, "desktop": DESKTOP}


def _log_in(browser, live_server, language: str, viewport: dict, violations: list[str]):
    # The browser's own locale too: its date pickers show the day as a reader there reads it.
    context = browser.new_context(
        viewport=viewport,
        locale={"es": "es-ES", "ca": "ca-ES"}[language],
        extra_http_headers={"Accept-Language": language},
    )
    watch_csp(context, violations)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}{reverse('login')}")
    page.fill("#id_username", "liga")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_load_state()
    return page


def _fits(page, name: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{name} is {width}px wide"


@pytest.fixture
def run(db):
    # Club 1 plays at home on Tuesdays (matchday 1 is on Wednesday 4 March).
    championship, stage, teams = make_league(4, weekday_of={1: 1})
    user = get_user_model().objects.create_user(username="liga", password=PASSWORD)
    championship.organisers.add(user)
    return {"championship": championship, "stage": stage, "teams": teams}


@pytest.mark.parametrize("language", ["es", "ca"])
def test_the_date_fields_open_filled_in(browser, live_server, shots, csp_violations, run, language):
    championship = run["championship"]
    match = run["stage"].matches.exclude(team_b=None).order_by("round__number", "pk").first()
    pages = {
        "details": reverse("organiser:championship_details", args=[championship.slug]),
        "schedule": reverse("organiser:league_match_schedule", args=[championship.slug, match.pk]),
    }
    page = _log_in(browser, live_server, language, PHONE, csp_violations)
    for name, path in pages.items():
        page.goto(f"{live_server.url}{path}")
        # The browser read the value: a date it can show (not an empty field).
        assert page.eval_on_selector("input[type=date]", "e => e.valueAsDate !== null"), name
        page.screenshot(path=str(shots / f"newcomer-{name}-{language}-phone.png"), full_page=True)
        _fits(page, name)
    page.goto(f"{live_server.url}{pages['details']}")
    assert page.input_value("#id_end_date") == "2026-12-20"
    with page.expect_navigation():
        page.click("form.form button[type=submit]")
    championship.refresh_from_db()
    assert championship.end_date == dt.date(2026, 12, 20)  # a save keeps it
    page.context.close()
    assert csp_violations == []


@pytest.mark.parametrize("language", ["es", "ca"])
def test_a_match_postponed_without_a_date_and_a_matchday_moved(
    browser, live_server, shots, csp_violations, run, language
):
    championship, stage = run["championship"], run["stage"]
    first = list(stage.matches.filter(round__number=1).exclude(team_b=None).order_by("pk"))
    tuesday = next(m for m in first if m.team_a_id == run["teams"][0].pk)
    other = next(m for m in first if m.pk != tuesday.pk)
    page = _log_in(browser, live_server, language, PHONE, csp_violations)

    postpone = reverse("organiser:league_match_postpone", args=[championship.slug, other.pk])
    page.goto(f"{live_server.url}{postpone}")
    page.fill("#id_date", "")
    page.fill("#id_reason", "Sede inundada")
    page.screenshot(path=str(shots / f"newcomer-postpone-{language}-phone.png"), full_page=True)
    page.click("form.form button[type=submit]")
    page.wait_for_url("**/matchdays/**")
    other.refresh_from_db()
    assert other.date_to_be_fixed
    to_be_fixed = {"es": "Aplazado, fecha por fijar", "ca": "Ajornada, data per fixar"}[language]
    assert page.locator(f"#match-{other.pk}").get_by_text(to_be_fixed).is_visible()

    days = reverse("organiser:league_matchdays", args=[championship.slug, stage.pk])
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}{days}")
    page.fill("#id_day1_date", "2026-03-05")
    page.locator("#matchday-1 form.matchday-date button[type=submit]").click()
    page.wait_for_url("**left=*")
    left = page.locator("#left-1")
    assert left.is_visible()
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.screenshot(path=str(shots / f"newcomer-moved-{language}-{size}.png"), full_page=True)
        _fits(page, "the matchdays page")
    assert page.input_value(f"#id_left1_date_{tuesday.pk}") == "2026-03-05"
    assert not page.is_checked(f"#id_left1_move_{other.pk}")  # postponed on purpose
    with page.expect_navigation():
        left.locator("button[type=submit]").click()
    tuesday.refresh_from_db()
    assert tuesday.scheduled_at.astimezone(championship.zone).date() == dt.date(2026, 3, 5)

    match_page = reverse("tournaments:match", args=[championship.slug, other.pk])
    fixtures = reverse("tournaments:fixtures", args=[championship.slug])
    for name, path in (("match", match_page), ("fixtures", fixtures)):
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            page.goto(f"{live_server.url}{path}")
            page.screenshot(
                path=str(shots / f"newcomer-{name}-{language}-{size}.png"), full_page=True
            )
            _fits(page, name)
    page.goto(f"{live_server.url}{match_page}")
    assert page.locator("#match-postponed").get_by_text("Sede inundada").is_visible()
    page.context.close()
    assert csp_violations == []


def test_a_played_match_page_says_when_and_where(browser, live_server, shots, run):
    """The match page of a league's match still on its date, in Spanish on a phone."""
    stage = run["stage"]
    match = stage.matches.exclude(team_b=None).order_by("round__number", "pk").first()
    league.match_schedule(match=match, scheduled_at=match.scheduled_at)
    context = browser.new_context(viewport=PHONE, extra_http_headers={"Accept-Language": "es"})
    page = context.new_page()
    url = reverse("tournaments:match", args=[run["championship"].slug, match.pk])
    page.goto(f"{live_server.url}{url}")
    when = page.locator("#match-when")
    assert when.get_by_text(match.team_a.venue_name, exact=False).is_visible()
    assert "2026" in when.inner_text()
    page.screenshot(path=str(shots / "newcomer-match-when-es-phone.png"), full_page=True)
    _fits(page, "the match page")
    context.close()
