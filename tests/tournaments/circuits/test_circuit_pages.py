"""The public circuit pages: the list, a circuit's events, rules, rankings and final's
teams, the links to them, and a person's circuits on his page."""

from __future__ import annotations

import datetime
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments.circuits.circuit_data import SEEDS, _team, circuit_played
from tests.tournaments.conftest import play
from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.circuits import qualification
from tournaments.entries import services as entry_services
from tournaments.models import Championship, Circuit, CircuitEvent, CircuitQualification
from tournaments.stages import services as stage_services

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
URL = "/circuits/open-truc/"


@pytest.fixture
def played(db):
    return circuit_played()


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _words(html: str) -> str:
    """The text as read: tags dropped where they stand (a link followed by a colon)."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))


def _rows(response, kind: str) -> list[tuple]:
    return [
        (row.line.rank, row.line.tied, row.line.name, int(row.line.points))
        for row in response.context[kind]
    ]


def test_the_list_names_every_circuit_with_its_dates_family_and_events(client, played):
    Circuit.objects.create(
        name="Lliga Catalana",
        slug="lliga",
        family="catalan",
        start_date=datetime.date(2025, 9, 1),
        end_date=datetime.date(2026, 6, 1),
    )
    html = client.get("/circuits/", **EN).content.decode()
    text = _text(html)
    assert html.index("Open Truc Mallorca") < html.index("Lliga Catalana")  # newest first
    assert 'href="/circuits/open-truc/"' in html and 'href="/circuits/lliga/"' in html
    assert "4 events" in text and "0 events" in text
    assert "Argentine" in text and "Catalan" in text
    assert "From April 1, 2026 to July 1, 2026" in text


def test_the_circuit_page_lists_its_events_with_kind_place_status_and_link(client, played):
    html = client.get(URL, **EN).content.decode()
    text = _text(html)
    for slug in ("truc-inca", "truc-palma", "truc-manacor", "truc-final"):
        assert f'href="/c/{slug}/"' in html
    events = html[html.index('id="circuit-events"') : html.index('id="circuit-rules"')]
    names = re.findall(r'href="/c/([-a-z]+)/"', events)
    assert names == ["truc-inca", "truc-palma", "truc-manacor", "truc-final"]  # by date
    assert "Qualifier · Inca" in _text(events)
    assert "Ranking event · Palma" in _text(events)
    assert "Final · Mallorca" in _text(events)
    assert "Finished" in text and "Registration" in _text(events)


def test_a_weight_is_written_as_the_readers_language_writes_a_decimal(client, played):
    CircuitEvent.objects.filter(circuit=played.circuit, place="Palma").update(weight="1.50")
    spanish = _text(client.get(URL, HTTP_ACCEPT_LANGUAGE="es").content.decode())
    assert "Palma cuenta ×1,5." in spanish and "×1.5" not in spanish
    assert "Palma counts ×1.5." in _text(client.get(URL, **EN).content.decode())


def test_a_draft_event_is_listed_without_a_link(client, played):
    draft = ChampionshipFactory(name="Truc Sóller", slug="truc-soller", status="draft")
    CircuitEvent.objects.create(circuit=played.circuit, championship=draft, place="Sóller")
    html = client.get(URL, **EN).content.decode()
    assert "Truc Sóller" in html
    assert 'href="/c/truc-soller/"' not in html


def test_the_rules_are_stated(client, played):
    text = _text(client.get(URL, **EN).content.decode())
    assert "The best 2 results of each player and each team count." in text
    assert "Palma counts ×2." in text and "Mallorca counts ×2." in text
    assert "Inca counts" not in text  # a weight of 1 goes without saying
    assert "The winner of each qualifier enters the final." in text
    assert "The best other team by circuit points enters the final too." in text
    assert "1st 100 2nd 70 3rd 50 4th 40" in text


def test_the_rankings_of_players_and_teams_with_ties_and_counted_results(client, played):
    response = client.get(URL, **EN)
    assert _rows(response, "teams") == [
        (1, False, "Ana Ruiz Soler / Bruno Pons", 300),
        (2, False, "Carme Vidal / Dani Mas", 200),
        (3, False, "Eva Font / Ferran Coll", 190),
        (4, False, "Gina Rosselló / Hugo Sastre", 150),
    ]
    # Partners score the same: each pair shares its rank, marked tied.
    assert _rows(response, "persons") == [
        (1, True, "Ana Ruiz Soler", 300),
        (1, True, "Bruno Pons", 300),
        (3, True, "Carme Vidal", 200),
        (3, True, "Dani Mas", 200),
        (5, True, "Eva Font", 190),
        (5, True, "Ferran Coll", 190),
        (7, True, "Gina Rosselló", 150),
        (7, True, "Hugo Sastre", 150),
    ]
    html = response.content.decode()
    teams = html[html.index('id="circuit-ranking-teams"') :]
    first = teams[teams.index("<tbody>") : teams.index("</tr>", teams.index("<tbody>"))]
    # Los Anchos: Inca 1st 100 counted, Palma 1st 200 counted, Manacor 2nd 70 left out.
    cells = re.findall(r"<td[^>]*>(.*?)</td>", first, re.S)
    assert [_text(cell).strip() for cell in cells] == [
        "300",
        "1st 100",
        "1st 200",
        "2nd 70 (not counted)",
        "·",  # the final, not played yet
    ]
    assert "<s>70</s>" in first
    persons = html[
        html.index('id="circuit-ranking-persons"') : html.index('id="circuit-ranking-teams"')
    ]
    ana = played.persons["Ana Ruiz Soler"]
    assert f'href="/people/{ana.pk}/"' in persons
    assert persons.count('class="tied"') == 8
    # The 3rd place is shared by the semi-finals' losers.
    assert "3rd= 50" in _text(teams)


def test_the_tiebreaks_are_stated_under_the_ranking(client, played):
    html = client.get(URL, **EN).content.decode()
    ties = html[html.index('id="circuit-tiebreaks"') :]
    assert html.index('id="circuit-ranking-teams"') < html.index('id="circuit-tiebreaks"')
    # Ties are among equal points: the list starts with what breaks them, not the points.
    assert "More points." not in ties
    first = ties[ties.index('<ol class="circuit-tiebreaks">') :]
    assert first.index("The better results, compared one by one") < first.index("</li>")
    assert "in play: provisional" not in ties  # every event with results has finished
    assert "Equal points are broken by, in this order:" in _text(ties)
    assert 'href="/circuits/open-truc/ranking.csv"' in ties


def test_the_qualified_teams_and_how(client, played):
    response = client.get(URL, **EN)
    html = response.content.decode()
    qualified = _text(html[html.index('id="circuit-qualified"') :])
    assert "Ana Ruiz Soler / Bruno Pons 1st at Inca Entered in the final" in qualified
    assert "Carme Vidal / Dani Mas 1st at Manacor Entered in the final" in qualified
    assert "Eva Font / Ferran Coll by circuit points Entered in the final" in qualified
    assert "Gina Rosselló" not in qualified
    teams = _text(
        html[html.index('id="circuit-ranking-teams"') : html.index('id="circuit-tiebreaks"')]
    )
    assert teams.count("(qualified for the final)") == 3


def test_a_withdrawn_qualified_team_and_the_team_in_its_place(client, played):
    blava = CircuitQualification.objects.get(event=played.events["manacor"], place=1)
    entry_services.entry_withdraw(team=blava.final_team, via="organiser")
    qualification.qualification_sync(circuit=played.circuit)
    html = client.get(URL, **EN).content.decode()
    qualified = _text(html[html.index('id="circuit-qualified"') :])
    assert "Carme Vidal / Dani Mas 1st at Manacor Withdrawn replaced by" in qualified
    assert "Gina Rosselló / Hugo Sastre" in qualified
    assert "in place of Carme Vidal / Dani Mas" in qualified


def test_the_circuit_page_costs_a_fixed_number_of_queries(
    client, played, django_assert_max_num_queries
):
    with django_assert_max_num_queries(8):
        assert client.get(URL).status_code == 200


def test_an_unknown_circuit_is_404(client, db):
    assert client.get("/circuits/nope/").status_code == 404
    assert client.get("/circuits/nope/ranking.csv").status_code == 404


def test_the_home_page_and_an_event_link_to_the_circuits(client, played):
    assert 'href="/circuits/"' in client.get("/", **EN).content.decode()
    html = client.get("/c/truc-inca/", **EN).content.decode()
    assert "Qualifier of the circuit Open Truc Mallorca" in _text(html)
    assert 'href="/circuits/open-truc/"' in html
    assert "of the circuit" not in _text(
        client.get(f"/c/{ChampionshipFactory().slug}/", **EN).content.decode()
    )


def test_a_persons_page_shows_his_circuits(client, played):
    ana = played.persons["Ana Ruiz Soler"]
    html = client.get(f"/people/{ana.pk}/", **EN).content.decode()
    section = html[html.index('id="person-circuits"') :]
    text = _words(section)
    assert 'href="/circuits/open-truc/"' in section
    assert "Open Truc Mallorca" in text
    assert "1st in the ranking (tied) · 300 points" in text
    assert "qualified for the final" in text
    assert "Inca: 1st, 100 points" in text
    assert "Palma: 1st, 200 points" in text
    assert "Manacor: 2nd, 70 points (not counted)" in text


def test_a_person_without_circuit_results_has_no_circuits_section(client, played):
    championship = ChampionshipFactory(status=Championship.Status.RUNNING)
    other = TeamFactory(championship=championship)
    person = other.memberships.first().player.person
    TeamFactory(championship=championship)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    play(match, other)
    html = client.get(f"/people/{person.pk}/", **EN).content.decode()
    assert 'id="person-circuits"' not in html


def _queries(client, url: str) -> int:
    """How many queries ``url`` costs now (0: it came from the page cache)."""
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url, **EN).status_code == 200
    return len(captured.captured_queries)


@pytest.mark.page_cache
def test_served_from_the_cache_and_renewed_by_a_result_in_an_event(client, played, commit, referee):
    soller = ChampionshipFactory(
        name="Truc Sóller",
        slug="truc-soller",
        status=Championship.Status.RUNNING,
        start_date=datetime.date(2026, 6, 1),
    )
    CircuitEvent.objects.create(
        circuit=played.circuit, championship=soller, kind="ranking", place="Sóller"
    )
    teams = [
        _team(soller, name, seed, played.persons) for seed, name in enumerate(SEEDS["inca"], 1)
    ]
    stage = stage_services.stage_create(championship=soller, format="single_elimination")
    semi = next(
        m
        for m in stage_services.round_generate(stage=stage)
        if teams[0].pk in (m.team_a_id, m.team_b_id)
    )
    ana = played.persons["Ana Ruiz Soler"]
    pages = [URL, f"/people/{ana.pk}/", "/circuits/"]
    for url in pages:
        _queries(client, url)
    assert [_queries(client, url) for url in pages] == [0, 0, 0]

    # Los Anchos win their semi-final: Sóller's provisional placements are stored and the
    # circuit announced (tournaments.circuits), on commit, as a referee's request would.
    commit(play, match=semi, winner=teams[0], referee=referee)

    assert _queries(client, URL) > 0
    assert _queries(client, f"/people/{ana.pk}/") > 0
    assert _queries(client, "/circuits/") == 0  # the list shows nothing of results
    html = client.get(URL, **EN).content.decode()
    teams_table = html[html.index('id="circuit-ranking-teams"') :]
    first = teams_table[
        teams_table.index("<tbody>") : teams_table.index("</tr>", teams_table.index("<tbody>"))
    ]
    cells = [_text(cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", first, re.S)]
    # Points, then Inca, Palma, Manacor, Sóller (its semi-final's winner 1st for now), the final.
    assert cells[4] != "·" and cells[5] == "·"
    # Sóller is in play: its column and the legend say its placements are provisional.
    assert 'Sóller</abbr><span class="in-play"' in teams_table
    assert "in play: provisional placements" in html
    assert "Sóller" in _text(client.get(f"/people/{ana.pk}/", **EN).content.decode())
