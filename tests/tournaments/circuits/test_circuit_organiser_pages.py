"""The organiser's circuit pages (tournaments/web/organiser/circuits.py)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.circuits.conftest import make_qualifier
from tests.tournaments.factories import UserFactory
from tournaments.entries import services as entry_services
from tournaments.models import Circuit, CircuitEvent, Team, TeamAct
from tournaments.people.services import PersonDetails


@pytest.fixture(autouse=True)
def in_english(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"


@pytest.fixture
def signed_in(client, organiser):
    client.force_login(organiser)
    return client


def _circuit_data(**changes):
    data = {
        "name": "Open Truc Menorca",
        "slug": "open-menorca",
        "family": "argentine",
        "start_date": "2026-03-01",
        "end_date": "2026-10-31",
        "points": "100, 70, 50, 40…",
        "best_of": "3",
        "qualify_per_event": "1",
        "qualify_by_points": "2",
        "description": "",
    }
    return {**data, **changes}


@pytest.mark.parametrize("name", ["organiser:circuits", "organiser:circuit_create"])
def test_anonymous_is_sent_to_sign_in(client, db, name):
    response = client.get(reverse(name))
    assert response.status_code == 302
    assert "/login" in response["Location"] or "login" in response["Location"]


def test_anonymous_cannot_open_a_circuit(client, circuit):
    response = client.get(reverse("organiser:circuit", args=[circuit.slug]))
    assert response.status_code == 302 and "login" in response["Location"]


def test_the_list_shows_my_circuits_only(signed_in, circuit):
    from tests.tournaments.circuits.conftest import create_circuit

    create_circuit(UserFactory(username="other"), slug="ajeno", name="Circuito ajeno")
    page = signed_in.get(reverse("organiser:circuits")).content.decode()
    assert "Open Truc Mallorca" in page
    assert "Circuito ajeno" not in page


def test_a_circuit_is_created_from_the_typed_table(signed_in, organiser):
    response = signed_in.post(reverse("organiser:circuit_create"), _circuit_data())
    assert response.status_code == 302
    circuit = Circuit.objects.get(slug="open-menorca")
    assert circuit.points == [100, 70, 50, 40]
    assert (circuit.best_of, circuit.qualify_by_points) == (3, 2)
    assert list(circuit.organisers.all()) == [organiser]


def test_a_rising_table_is_refused_beside_its_field(signed_in):
    response = signed_in.post(
        reverse("organiser:circuit_create"), _circuit_data(points="100, 70, 80")
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "Place 3 scores more than the place above it (80 after 70)" in page
    assert not Circuit.objects.exists()


def test_the_circuit_is_edited_and_its_short_name_stays(signed_in, circuit):
    url = reverse("organiser:circuit_edit", args=[circuit.slug])
    page = signed_in.get(url).content.decode()
    assert 'value="100, 70, 50, 40"' in page
    assert 'name="slug"' not in page
    response = signed_in.post(url, _circuit_data(name="Open 2026", slug="other", best_of=""))
    assert response.status_code == 302
    circuit.refresh_from_db()
    assert (circuit.name, circuit.slug, circuit.best_of) == (
        "Open 2026",
        "open-truc-mallorca",
        None,
    )


def test_another_organiser_gets_404(client, circuit, qualifiers):
    client.force_login(UserFactory(username="other"))
    for url in (
        reverse("organiser:circuit", args=[circuit.slug]),
        reverse("organiser:circuit_edit", args=[circuit.slug]),
        reverse("organiser:circuit_event", args=[circuit.slug, qualifiers["Inca"].pk]),
        reverse("organiser:circuit_event_remove", args=[circuit.slug, qualifiers["Inca"].pk]),
    ):
        assert client.get(url).status_code == 404
        assert client.post(url, _circuit_data(name="Mine")).status_code == 404
    circuit.refresh_from_db()
    assert circuit.name == "Open Truc Mallorca"
    assert CircuitEvent.objects.filter(pk=qualifiers["Inca"].pk).exists()


def test_the_circuit_page_lists_its_events_and_the_finals_entries(
    signed_in, circuit, qualifiers, django_assert_num_queries
):
    url = reverse("organiser:circuit", args=[circuit.slug])
    make_qualifier(circuit.organisers.get(), "fase-extra", name="Extra")
    # session, user, circuit, events (with teams counted), the championships to add (the
    # choice's options, and whether there is any).
    with django_assert_num_queries(6):
        response = signed_in.get(url)
    page = response.content.decode()
    assert "Fase Inca" in page and "Fase Palma" in page
    assert "Only Inca" in page
    assert reverse("organiser:entries", args=["final-mallorca"]) in page
    for i in range(3):
        make_qualifier(circuit.organisers.get(), f"fase-extra-{i}", name=f"Extra {i}")
    with django_assert_num_queries(6):
        signed_in.get(url)


def test_a_championship_is_added_with_its_towns(signed_in, organiser, circuit):
    championship = make_qualifier(organiser, "fase-soller", name="Fase Sóller")
    response = signed_in.post(
        reverse("organiser:circuit", args=[circuit.slug]),
        {
            "championship": championship.pk,
            "kind": "qualifier",
            "weight": "1",
            "place": "Sóller",
            "towns": "Sóller, Fornalutx; Deià",
        },
    )
    assert response.status_code == 302
    event = CircuitEvent.objects.get(championship=championship)
    assert event.towns == ["Sóller", "Fornalutx", "Deià"]


def test_another_organisers_championship_is_not_offered(signed_in, circuit):
    his = make_qualifier(UserFactory(username="other"), "fase-ajena", name="Fase ajena")
    url = reverse("organiser:circuit", args=[circuit.slug])
    assert "Fase ajena" not in signed_in.get(url).content.decode()
    response = signed_in.post(url, {"championship": his.pk, "kind": "qualifier", "weight": "1"})
    assert response.status_code == 200
    assert not CircuitEvent.objects.filter(championship=his).exists()


def test_a_second_final_is_refused_on_the_page(signed_in, organiser, circuit, qualifiers):
    other = make_qualifier(organiser, "otra-final", name="Otra final")
    response = signed_in.post(
        reverse("organiser:circuit", args=[circuit.slug]),
        {"championship": other.pk, "kind": "final", "weight": "1"},
    )
    assert "This circuit already has a final: Final." in response.content.decode()


def test_an_event_is_set_and_removed_after_a_confirmation(signed_in, circuit, qualifiers):
    inca = qualifiers["Inca"]
    url = reverse("organiser:circuit_event", args=[circuit.slug, inca.pk])
    response = signed_in.post(
        url, {"kind": "qualifier", "weight": "2", "place": "Raiguer", "towns": "Inca, Lloseta"}
    )
    assert response.status_code == 302
    inca.refresh_from_db()
    assert (inca.weight, inca.place, inca.towns) == (2, "Raiguer", ["Inca", "Lloseta"])
    remove = reverse("organiser:circuit_event_remove", args=[circuit.slug, inca.pk])
    assert "Take Fase Inca out of Open Truc Mallorca?" in signed_in.get(remove).content.decode()
    assert CircuitEvent.objects.filter(pk=inca.pk).exists()
    assert signed_in.post(remove).status_code == 302
    assert not CircuitEvent.objects.filter(pk=inca.pk).exists()


def test_a_team_is_moved_after_a_confirmation_and_its_new_link_shown_once(
    signed_in, circuit, qualifiers, mailoutbox
):
    inca, palma = qualifiers["Inca"], qualifiers["Palma"]
    entry, _token = entry_services.entry_submit(
        championship=inca.championship,
        team_name="Los Pinos",
        players=[PersonDetails(name=f"Pino {n}") for n in (1, 2)],
        town="Inca",
        email="pinos@example.com",
    )
    team = entry.team
    event_page = reverse("organiser:circuit_event", args=[circuit.slug, inca.pk])
    assert "Los Pinos" in signed_in.get(event_page).content.decode()
    move = reverse("organiser:circuit_team_move", args=[circuit.slug, inca.pk, team.pk])
    page = signed_in.get(move).content.decode()
    assert "Move Los Pinos" in page and "Fase Palma (Palma)" in page
    team.refresh_from_db()
    assert team.championship == inca.championship  # a GET moves nothing

    response = signed_in.post(move, {"event": palma.pk}, follow=True)
    page = response.content.decode()
    team.refresh_from_db()
    assert team.championship == palma.championship
    assert "Los Pinos moved to Fase Palma." in page
    assert "The new personal link of Los Pinos:" in page
    assert "/c/fase-palma/team/" in page
    assert len(mailoutbox) == 1 and "/c/fase-palma/team/" in mailoutbox[0].body
    # Shown once.
    again = signed_in.get(reverse("organiser:circuit_event", args=[circuit.slug, palma.pk]))
    assert "The new personal link" not in again.content.decode()
    assert TeamAct.objects.filter(action=TeamAct.Action.MOVED).count() == 2


def test_a_refused_move_says_why(signed_in, circuit, qualifiers):
    inca, palma = qualifiers["Inca"], qualifiers["Palma"]
    team = Team.objects.create(championship=inca.championship, name="Dobles")
    Team.objects.create(championship=palma.championship, name="Dobles")
    move = reverse("organiser:circuit_team_move", args=[circuit.slug, inca.pk, team.pk])
    page = signed_in.post(move, {"event": palma.pk}).content.decode()
    assert "Fase Palma already has a team called Dobles: rename one first." in page


def test_the_championship_page_says_it_is_part_of_the_circuit(signed_in, circuit, qualifiers):
    page = signed_in.get(reverse("organiser:championship", args=["fase-inca"])).content.decode()
    assert "Part of circuit" in page
    assert reverse("organiser:circuit", args=[circuit.slug]) in page
