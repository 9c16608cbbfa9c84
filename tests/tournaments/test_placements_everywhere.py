"""One championship, one placement, wherever it is shown: the person's page, the team's
page, the persons of the API and the circuit's ranking all show the place
``standings.placements`` gives (docs/tournaments.md, "Placements")."""

from __future__ import annotations

import re

from django.urls import reverse

from tournaments.circuits.selectors import circuit_ranking
from tournaments.models import Championship, Circuit, Membership
from tournaments.people import history
from tournaments.standings.placements import championship_placements


def _shown(page: str, championship: Championship) -> str:
    """The placement a person's page shows for ``championship`` ("3 of 8", "3= of 8")."""
    part = page[page.index(f">{championship.name}</a></h2>") :]
    return re.search(r"<dt>Placement</dt>\s*<dd>([^<(]*)", part).group(1).strip()


def test_every_demo_team_has_the_same_place_on_its_pages_and_in_its_circuit(demo, client):
    circuit = Circuit.objects.get()
    ranking = circuit_ranking(circuit=circuit)
    checked = 0
    for line in ranking.persons:
        (person_id,) = line.person_ids
        stints = {
            stint.championship.pk: stint
            for stint in history.person_history(
                person=Membership.objects.filter(player__person_id=person_id).first().player.person
            ).stints
        }
        page = client.get(
            reverse("tournaments:person", args=[person_id]), HTTP_ACCEPT_LANGUAGE="en"
        ).content.decode()
        for result in line.results:
            championship = result.event.championship
            placement = stints[championship.pk].placement
            assert (placement.rank, placement.tied) == (result.place, result.tied)
            tied = "=" if result.tied else ""
            assert _shown(page, championship) == f"{result.place}{tied} of {placement.of}"
            checked += 1
    assert checked > 40  # every pair of the three qualifiers, seen from both players


def test_every_demo_team_page_and_the_api_show_the_championships_placement(demo, client):
    for championship in Championship.objects.exclude(status=Championship.Status.DRAFT):
        places = {p.team_id: p for p in championship_placements(championship=championship)}
        for team in championship.teams.all():
            page = history.team_page(championship=championship, team_id=team.pk)
            expected = places.get(team.pk)
            if expected is None:
                assert page.placement is None
                continue
            assert (page.placement.rank, page.placement.tied, page.placement.of) == (
                expected.place,
                expected.tied,
                expected.of,
            )
        member = Membership.objects.filter(team__championship=championship).first()
        person = member.player.person
        answer = client.get(reverse("api:person", args=[person.pk])).json()
        (stint,) = [s for s in answer["championships"] if s["team"]["id"] == member.team_id]
        expected = places.get(member.team_id)
        assert (stint["placement"] or {}).get("rank") == (expected.place if expected else None)


def test_a_lost_semi_final_is_third_equal_on_the_person_page_as_in_the_circuit(demo, client):
    # The demo's finished qualifiers are single eliminations: their two semi-final
    # losers share the third place, on every page.
    finished = Championship.objects.filter(
        circuit_event__isnull=False, status=Championship.Status.FINISHED
    )
    thirds = [
        p
        for championship in finished
        for p in championship_placements(championship=championship)
        if p.place == 3
    ]
    assert thirds and all(p.tied for p in thirds)
    team = Championship.objects.get(teams__pk=thirds[0].team_id).teams.get(pk=thirds[0].team_id)
    person = team.memberships.first().player.person
    page = client.get(
        reverse("tournaments:person", args=[person.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert _shown(page, team.championship).startswith("3= of ")
