"""A circuit's page and a person's circuits in a real browser: at a phone's, a tablet's
and a desktop's width nothing scrolls sideways but the rankings inside their boxes, whose
names stay in view; the policy blocks nothing. Screenshots: ``$TANTEO_SCREENSHOT_DIR``
(tests/conftest.py), named ``circuit-pages-<page>-<size>.png``."""

from __future__ import annotations

import datetime

import pytest

from tests.browsers import watch_csp
from tests.tournaments.circuits.circuit_data import circuit_played
from tests.tournaments.factories import ChampionshipFactory
from tournaments.models import Championship, CircuitEvent

SIZES = {
    "phone": {"width": 390, "height": 844},
    "tablet": {"width": 820, "height": 1180},
    "desktop": {"width": 1280, "height": 800},
}
# The qualifiers still to come: a season of the Open Truc Mallorca is sixteen of them.
TOWNS = ["Alcúdia", "Sóller", "Felanitx", "Llucmajor", "Pollença", "Sineu", "Artà", "Santanyí"]


@pytest.fixture
def season(transactional_db):
    played = circuit_played()
    for number, town in enumerate(TOWNS):
        CircuitEvent.objects.create(
            circuit=played.circuit,
            championship=ChampionshipFactory(
                name=f"Truc {town} 2026",
                status=Championship.Status.REGISTRATION,
                start_date=datetime.date(2026, 5, 20) + datetime.timedelta(days=number),
            ),
            place=town,
        )
    return played


def _box(page, selector: str) -> dict:
    return page.evaluate(
        """(selector) => {
            const box = document.querySelector(selector);
            const name = box.querySelector("tbody th a");
            const rect = name.getBoundingClientRect();
            return {scrolls: box.scrollWidth > box.clientWidth, boxWidth: box.clientWidth,
                    nameLeft: rect.left, nameRight: rect.right,
                    nameText: name.innerText, width: window.innerWidth};
        }""",
        selector,
    )


def test_the_circuit_page_and_a_persons_circuits_fit_every_screen(
    browser, live_server, shots, csp_violations, season
):
    ana = season.persons["Ana Ruiz Soler"]
    pages = {"circuit": "/circuits/open-truc/", "person": f"/people/{ana.pk}/"}
    for size, viewport in SIZES.items():
        context = browser.new_context(
            viewport=viewport, extra_http_headers={"Accept-Language": "en"}
        )
        watch_csp(context, csp_violations)
        page = context.new_page()
        for name, path in pages.items():
            page.goto(f"{live_server.url}{path}")
            page.screenshot(path=str(shots / f"circuit-pages-{name}-{size}.png"), full_page=True)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= viewport["width"], f"{name} is {width}px wide at {size}"
        page.goto(f"{live_server.url}{pages['circuit']}")
        for kind in ("persons", "teams"):
            box = _box(page, f"#circuit-ranking-{kind} ~ .table-scroll")
            # The name is readable: whole, inside the screen, and stays there as the
            # events' columns scroll.
            assert box["nameText"] == "Ana Ruiz Soler"
            assert 0 <= box["nameLeft"] < box["nameRight"] <= box["width"], (size, kind, box)
            if size == "phone":
                assert box["scrolls"], "the ranking scrolls inside its box on a phone"
                page.eval_on_selector(
                    f"#circuit-ranking-{kind} ~ .table-scroll", "(box) => { box.scrollLeft = 400; }"
                )
                moved = _box(page, f"#circuit-ranking-{kind} ~ .table-scroll")
                assert moved["nameLeft"] >= 0, "the name column stays in view"
        person = page.goto(f"{live_server.url}{pages['person']}")
        assert person.ok
        assert page.locator("#person-circuits").is_visible()
        context.close()
    assert csp_violations == []
