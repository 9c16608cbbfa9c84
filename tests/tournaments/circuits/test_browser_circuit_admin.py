"""In a real browser: an organiser creates a circuit, adds its qualifiers and the final,
sets a qualifier's towns and moves a team; screenshots of the form and the event list at
phone, tablet and desktop sizes (``$TANTEO_SCREENSHOT_DIR`` keeps them)."""

from __future__ import annotations

import datetime

from django.contrib.auth import get_user_model

from tests.browsers import DESKTOP, shoot_three_sizes
from tests.tournaments.circuits.conftest import make_qualifier
from tournaments.entries import services as entry_services
from tournaments.models import Circuit, CircuitEvent, Team
from tournaments.people.services import PersonDetails


def test_organiser_sets_up_a_circuit_and_moves_a_team(
    logged_in_page, live_server, shots, csp_violations
):
    marta = get_user_model().objects.create_user(username="marta", password="envido-real-33")
    for town in ("Inca", "Palma", "Manacor"):
        make_qualifier(marta, f"fase-{town.lower()}", name=f"Fase {town}")
    make_qualifier(marta, "final-open", name="Final Open", start_date=datetime.date(2026, 10, 3))
    page = logged_in_page("/organiser/circuits/", "marta", "envido-real-33", viewport=DESKTOP)

    page.click("text=New circuit")
    page.fill("#id_name", "Open Truc Mallorca")
    page.fill("#id_slug", "open-truc-mallorca")
    page.fill("#id_start_date", "2026-03-01")
    page.fill("#id_end_date", "2026-10-31")
    page.fill("#id_points", "100, 70, 80")
    page.fill("#id_best_of", "3")
    page.click("button:has-text('Create the circuit')")
    page.wait_for_selector("text=Place 3 scores more than the place above it")
    shoot_three_sizes(page, shots, "circuit-admin-form")
    page.fill("#id_points", "100, 70, 50, 40…")
    page.click("button:has-text('Create the circuit')")
    page.wait_for_selector("text=Circuit Open Truc Mallorca created.")
    assert Circuit.objects.get().points == [100, 70, 50, 40]

    for town in ("Inca", "Palma", "Manacor"):
        page.select_option("#id_championship", label=f"Fase {town}")
        page.select_option("#id_kind", "qualifier")
        page.fill("#id_place", town)
        page.fill("#id_towns", town)
        page.click("button:has-text('Add it to the circuit')")
        page.wait_for_selector(f"text=Fase {town} added to the circuit.")
    page.select_option("#id_championship", label="Final Open")
    page.select_option("#id_kind", "final")
    page.click("button:has-text('Add it to the circuit')")
    page.wait_for_selector("text=Final Open added to the circuit.")
    assert page.locator(".circuit-events tbody tr").count() == 4
    assert (
        page.locator("#final-entries a").get_attribute("href") == "/organiser/final-open/entries/"
    )
    shoot_three_sizes(page, shots, "circuit-admin-events")

    inca = CircuitEvent.objects.get(championship__slug="fase-inca")
    entry_services.entry_submit(
        championship=inca.championship,
        team_name="Los Pinos",
        players=[PersonDetails(name=f"Pino {n}") for n in (1, 2)],
        town="Inca",
    )
    page.click(f"#event-{inca.pk} >> text=Teams and settings")
    page.click("#event-teams >> text=Move")
    page.select_option("#id_event", label="Fase Palma (Palma)")
    shoot_three_sizes(page, shots, "circuit-admin-move")
    page.click("button:has-text('Yes, move the team')")
    page.wait_for_selector("text=Los Pinos moved to Fase Palma.")
    assert "/c/fase-palma/team/" in page.locator("#moved-link").inner_text()
    shoot_three_sizes(page, shots, "circuit-admin-moved")
    assert Team.objects.get(name="Los Pinos").championship.slug == "fase-palma"
    assert csp_violations == []
