"""Moving a team from one qualifier to another of the same circuit."""

from __future__ import annotations

import pytest
from django.utils import translation

from tests.tournaments.circuits.conftest import create_circuit, make_qualifier
from tests.tournaments.factories import TeamFactory, UserFactory
from tournaments.circuits import services
from tournaments.entries import services as entry_services
from tournaments.entries.towns import town_rule
from tournaments.errors import TournamentError
from tournaments.models import Entry, Match, Round, Stage, TeamAct
from tournaments.people.services import PersonDetails

pytestmark = pytest.mark.django_db


def enter(championship, name: str):
    """Enter a team through the form's service, from the qualifier's own town if any."""
    rule = town_rule(championship)
    entry, token = entry_services.entry_submit(
        championship=championship,
        team_name=name,
        players=[PersonDetails(name=f"{name} {i}") for i in (1, 2)],
        town=rule.towns[0] if rule else "",
    )
    return entry, token


def refused(**kwargs) -> TournamentError:
    with translation.override("en"), pytest.raises(TournamentError) as caught:
        services.team_move_to_event(**kwargs)
    with translation.override("en"):
        caught.value.english = caught.value.text
    return caught.value


def test_a_team_moves_with_its_line_up_entry_and_people(organiser, qualifiers):
    inca, palma = qualifiers["Inca"].championship, qualifiers["Palma"].championship
    enter(palma, "Ya en Palma")
    entry, old_token = enter(inca, "Los Pinos")
    waiting_before = enter(inca, "Segundos")[0]
    team = entry.team
    persons = sorted(team.players.values_list("person_id", flat=True))
    players = sorted(team.players.values_list("pk", flat=True))

    moved, token = services.team_move_to_event(team=team, event=qualifiers["Palma"], by=organiser)

    assert moved.championship == palma
    assert sorted(moved.players.values_list("pk", flat=True)) == players
    assert sorted(moved.players.values_list("person_id", flat=True)) == persons
    entry.refresh_from_db()
    assert (entry.championship, entry.status, entry.position) == (palma, "pending", 2)
    assert not inca.teams.filter(name="Los Pinos").exists()
    assert waiting_before.team.championship == inca
    # The link names its championship: the old one stops, a new one opens Palma's page.
    assert token and token != old_token
    with pytest.raises(TournamentError):
        entry_services.link_team(slug=inca.slug, token=old_token)
    assert entry_services.link_team(slug=palma.slug, token=token) == moved
    # Both audit logs say it.
    source_act = TeamAct.objects.get(championship=inca, action=TeamAct.Action.MOVED)
    target_act = TeamAct.objects.get(championship=palma, action=TeamAct.Action.MOVED)
    with translation.override("en"):
        assert source_act.detail == "Moved to Fase Palma."
        assert target_act.detail == "Moved from Fase Inca."
    assert (source_act.by, source_act.via, source_act.team_name) == (
        organiser,
        "organiser",
        "Los Pinos",
    )
    assert target_act.team == moved


def test_moving_frees_a_place_for_the_waiting_list(organiser, circuit):
    from tournaments.circuits.services import circuit_event_add

    small = make_qualifier(organiser, "fase-sineu", capacity=1, name="Fase Sineu")
    other = make_qualifier(organiser, "fase-muro", name="Fase Muro")
    sineu = circuit_event_add(circuit=circuit, championship=small, kind="qualifier", by=organiser)
    muro = circuit_event_add(circuit=circuit, championship=other, kind="qualifier", by=organiser)
    first, _ = enter(small, "Primeros")
    second, _ = enter(small, "Segundos")
    assert second.status == Entry.Status.WAITING
    services.team_move_to_event(team=first.team, event=muro, by=organiser)
    second.refresh_from_db()
    assert second.status == Entry.Status.PENDING
    # And the full one refuses a team.
    third, _ = enter(other, "Terceros")
    error = refused(team=third.team, event=sineu, by=organiser)
    assert error.english == "Fase Sineu is full (1 team): free a place there first."


def test_an_organiser_typed_team_moves_without_a_link(organiser, qualifiers):
    team = TeamFactory(championship=qualifiers["Inca"].championship, name="A mano")
    moved, token = services.team_move_to_event(team=team, event=qualifiers["Palma"], by=organiser)
    assert token == ""
    assert moved.championship == qualifiers["Palma"].championship
    assert not Entry.objects.filter(team=team).exists()


def test_move_refusals(organiser, circuit, qualifiers):
    inca, palma = qualifiers["Inca"], qualifiers["Palma"]
    entry, _token = enter(inca.championship, "Los Pinos")
    team = entry.team

    # A team of that name already plays there.
    enter(palma.championship, "Los Pinos")
    error = refused(team=team, event=palma, by=organiser)
    assert error.english == "Fase Palma already has a team called Los Pinos: rename one first."

    # Not a qualifier: the final.
    error = refused(team=team, event=qualifiers["final"], by=organiser)
    assert error.english == "A team moves only between two qualifiers of the same circuit."

    # A qualifier of another circuit.
    other_circuit = create_circuit(organiser, slug="otro", name="Otro")
    elsewhere = make_qualifier(organiser, "fase-otra", name="Fase otra")
    other_event = services.circuit_event_add(
        circuit=other_circuit, championship=elsewhere, kind="qualifier", by=organiser
    )
    assert refused(team=team, event=other_event, by=organiser).code == "move_not_qualifier"

    # Another organiser.
    error = refused(team=team, event=palma, by=UserFactory(username="other"))
    assert error.code == "circuit_not_yours"

    # Paired: a match in a stage of its championship.
    rival, _ = enter(inca.championship, "Rivales")
    stage = Stage.objects.create(championship=inca.championship, format="round_robin")
    Match.objects.create(
        stage=stage,
        round=Round.objects.create(stage=stage, number=1),
        team_a=rival.team,
        team_b=team,
    )
    error = refused(team=team, event=palma, by=organiser)
    assert error.english == "Los Pinos has already been paired: it can no longer move."
    team.refresh_from_db()
    assert team.championship == inca.championship
    assert not TeamAct.objects.filter(action=TeamAct.Action.MOVED).exists()
