"""The public pages of people and teams, and the schedule (tournaments/web/public/people.py).

A person's history is read from the matches his players played: two championships with
two partners, the placement from the standings, the record from the chicos, his next
match; a team's page with a substitution; the schedule's search by a player's name
without its accents; "Ana R." wherever a player who asked for it is shown; the pages
renewed by a result, and their queries pinned.
"""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.conftest import chico_hand, play
from tests.tournaments.factories import ChampionshipFactory, PersonFactory
from tournaments.championships import services as championship_services
from tournaments.models import Championship, Person, Team
from tournaments.people.services import PersonDetails
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services
from tournaments.standings import services as standing_services


def _team(championship: Championship, name: str, *people: Person | str) -> Team:
    players = [
        PersonDetails(name=p.name, person=p) if isinstance(p, Person) else PersonDetails(name=p)
        for p in people
    ]
    return championship_services.team_create(championship=championship, name=name, players=players)


def _match_of(stage, number: int, team: Team):
    return stage.matches.get(Q(team_a=team) | Q(team_b=team), round__number=number)


def _league(name: str, teams: list[Team]):
    championship = teams[0].championship
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    stage_services.round_generate(stage=stage)
    return stage


@pytest.fixture
def begona(db) -> Person:
    return PersonFactory(name="Begoña Martínez", club="Peña Gràcia", email="b@example.org")


@pytest.fixture
def two_championships(begona):
    """Begoña played the Otoño cup (finished: won both her matches, first of 4) with Iván,
    and plays the Primavera league (running: lost her first match) with Eliana."""
    autumn = ChampionshipFactory(
        name="Copa de Otoño", slug="otono", start_date=datetime.date(2025, 10, 4)
    )
    anchos = _team(autumn, "Los Anchos", begona, "Iván Díaz")
    others = [_team(autumn, f"Rivales {n}", f"Rival {n}a", f"Rival {n}b") for n in range(3)]
    stage = _league("otono", [anchos, *others])
    for match in stage.matches.filter(round__number=1, team_b__isnull=False):
        winner = anchos if anchos.pk in (match.team_a_id, match.team_b_id) else match.team_a
        play(match, winner, games=2)
    stage_services.round_generate(stage=stage)
    for match in stage.matches.filter(round__number=2, team_b__isnull=False):
        winner = anchos if anchos.pk in (match.team_a_id, match.team_b_id) else match.team_a
        play(match, winner)
    standing_services.standings_refresh(stage=stage)
    autumn.status = Championship.Status.FINISHED
    autumn.save()

    spring = ChampionshipFactory(
        name="Liga de Primavera", slug="primavera", start_date=datetime.date(2026, 4, 4)
    )
    flores = _team(spring, "Las Flores", begona, "Eliana Ruiz")
    rivals = [_team(spring, f"Contrarios {n}", f"Contra {n}a", f"Contra {n}b") for n in range(3)]
    spring_stage = _league("primavera", [flores, *rivals])
    first = _match_of(spring_stage, 1, flores)
    play(first, first.team_b if first.team_a_id == flores.pk else first.team_a, games=2)
    (other,) = spring_stage.matches.filter(round__number=1).exclude(pk=first.pk)
    play(other, other.team_a, games=2)
    stage_services.round_generate(stage=spring_stage)
    following = _match_of(spring_stage, 2, flores)
    following.table = "7"
    following.scheduled_at = timezone.make_aware(datetime.datetime(2026, 4, 4, 18, 30))
    following.save()
    return {
        "autumn": autumn,
        "anchos": anchos,
        "spring": spring,
        "flores": flores,
        "first": first,
        "next": following,
        "spring_stage": spring_stage,
    }


def test_a_person_page_shows_both_championships_with_partners_placement_and_record(
    client, two_championships, begona
):
    page = _person_page(client, begona, HTTP_ACCEPT_LANGUAGE="en")
    assert "Begoña Martínez" in page
    spring, autumn = page.index("Liga de Primavera"), page.index("Copa de Otoño")
    assert spring < autumn  # the most recent first
    autumn_part, spring_part = page[autumn:], page[spring:autumn]
    assert "Los Anchos" in autumn_part and "Iván Díaz" in autumn_part
    assert "Las Flores" in spring_part and "Eliana Ruiz" in spring_part
    assert "Iván" not in spring_part and "Eliana" not in autumn_part
    assert "1 of 4" in autumn_part  # the standings' first place
    assert "2 won, 0 lost" in autumn_part
    assert "chicos 4–1" in autumn_part  # 2-0 then 2-1
    assert "0 won, 1 lost" in spring_part
    assert "chicos 0–2" in spring_part
    # Never her contact data.
    assert "b@example.org" not in page


def _person_page(client, person: Person, **headers) -> str:
    response = client.get(reverse("tournaments:person", args=[person.pk]), **headers)
    assert response.status_code == 200
    return response.content.decode()


def test_a_person_page_shows_the_next_match_with_its_table_time_and_opponent(
    client, two_championships, begona
):
    following = two_championships["next"]
    flores = two_championships["flores"]
    opponent = following.team_b if following.team_a_id == flores.pk else following.team_a
    page = _person_page(client, begona, HTTP_ACCEPT_LANGUAGE="en")
    section = page[page.index("Next match") : page.index("Liga de Primavera</a></h2>")]
    assert "Table 7" in section
    assert "6:30" in section  # the championship's time zone is the site's (Europe/Madrid)
    assert opponent.name in section
    assert "Liga de Primavera" in section
    assert reverse("tournaments:match", args=["primavera", following.pk]) in section


def test_a_finished_championship_gives_no_next_match(client, two_championships, begona):
    two_championships["spring"].status = Championship.Status.FINISHED
    two_championships["spring"].save()
    assert "Next match" not in _person_page(client, begona, HTTP_ACCEPT_LANGUAGE="en")


def test_the_team_page_shows_a_substitution_and_both_players_keep_their_matches(
    client, two_championships, begona
):
    flores = two_championships["flores"]
    eliana = flores.memberships.get(player__name="Eliana Ruiz").player
    championship_services.team_substitute(
        team=flores,
        player_out=eliana,
        name="Nuria Sala",
        stage=two_championships["spring_stage"],
        from_round=2,
    )
    url = reverse("tournaments:team", args=["primavera", flores.pk])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert (
        "Nuria Sala</a> replaced " in page
        and ">Eliana Ruiz</a> from Round robin, Round 2, on" in page
    )
    line_up = page[page.index("Line-up") : page.index("Substitutions")]
    assert "Nuria Sala" in line_up and "Eliana" not in line_up
    assert "Table 7" in page  # its next match
    # Eliana keeps the first match she played; Nuria has played none, and plays next.
    eliana_page = _person_page(client, eliana.person, HTTP_ACCEPT_LANGUAGE="en")
    assert "0 won, 1 lost" in eliana_page and "replaced since" in eliana_page
    assert "Next match" not in eliana_page
    nuria = flores.memberships.get(player__name="Nuria Sala").player.person
    nuria_page = _person_page(client, nuria, HTTP_ACCEPT_LANGUAGE="en")
    assert "0 won, 0 lost" in nuria_page and "Table 7" in nuria_page
    assert "Begoña Martínez" in nuria_page  # her partner


def test_the_schedule_finds_a_team_by_a_players_name_without_accents(client, two_championships):
    url = reverse("tournaments:schedule", args=["primavera"])
    page = client.get(url, {"q": "begona martinez"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    found = page[page.index("Found for") : page.index('id="now-title"')]
    assert "Las Flores" in found
    assert '<strong class="found__table">Table 7</strong>' in found
    # Every match of the current round, by time and table, in the list below.
    assert page.count('class="schedule-item ') == 2
    by_team = client.get(url, {"q": "FLORES"}).content.decode()
    assert 'class="found__table"' in by_team
    nobody = client.get(url, {"q": "Zacarías"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "No team or player of this championship has that name." in nobody


def test_a_person_who_asked_is_ana_r_on_every_public_page_and_the_api(
    client, two_championships, begona, referee
):
    flores = two_championships["flores"]
    eliana = flores.memberships.get(player__name="Eliana Ruiz").player
    eliana.person.initial_only = True
    eliana.person.save()
    following = two_championships["next"]
    play(following, flores, games=2, referee=referee)  # her name is in the hands told
    slug = "primavera"
    pages = [
        reverse("tournaments:championship", args=[slug]),
        reverse("tournaments:team", args=[slug, flores.pk]),
        reverse("tournaments:person", args=[begona.pk]),
        reverse("tournaments:person", args=[eliana.person_id]),
        reverse("tournaments:match", args=[slug, following.pk]),
        reverse("tournaments:schedule", args=[slug]) + "?q=eliana",
        reverse("api:person", args=[begona.pk]),
        reverse("api:person", args=[eliana.person_id]),
        reverse("api:persons") + "?search=eliana",
        reverse("api:teams", args=[slug]),
    ]
    for url in pages:
        page = client.get(url).content.decode()
        assert "Ruiz" not in page, url
        assert "Eliana R." in page, url
    # Her surname finds nobody: the search never tells who hides behind the initial.
    schedule = client.get(reverse("tournaments:schedule", args=[slug]), {"q": "ruiz"})
    assert 'class="found__table"' not in schedule.content.decode()
    assert client.get(reverse("api:persons"), {"search": "ruiz"}).json()["count"] == 0


def test_a_person_whose_every_team_is_in_a_draft_has_no_public_page(client, db):
    draft = ChampionshipFactory(status=Championship.Status.DRAFT)
    team = _team(draft, "Borrador", "Paco Draft", "Pepe Draft")
    person = team.memberships.first().player.person
    assert client.get(reverse("tournaments:person", args=[person.pk])).status_code == 404
    assert client.get(reverse("tournaments:team", args=[draft.slug, team.pk])).status_code == 404
    assert client.get(reverse("api:person", args=[person.pk])).status_code == 404


def test_names_link_to_the_team_and_person_pages(client, two_championships, begona):
    flores, slug = two_championships["flores"], "primavera"
    stage = two_championships["spring_stage"]
    team_url = reverse("tournaments:team", args=[slug, flores.pk])
    person_url = reverse("tournaments:person", args=[begona.pk])
    for url in (
        reverse("tournaments:championship", args=[slug]),
        reverse("tournaments:standings", args=[slug, stage.pk]),
        reverse("tournaments:match", args=[slug, two_championships["first"].pk]),
        reverse("tournaments:schedule", args=[slug]),
    ):
        assert f'href="{team_url}"' in client.get(url).content.decode(), url
    championship_page = client.get(reverse("tournaments:championship", args=[slug]))
    assert f'href="{person_url}">Begoña Martínez</a>' in championship_page.content.decode()


def test_a_bracket_links_its_teams(client, db):
    cup = ChampionshipFactory(slug="copa-ko")
    teams = [_team(cup, f"Llave {n}", f"Llave {n}a", f"Llave {n}b") for n in range(4)]
    stage = stage_services.stage_create(championship=cup, format="single_elimination")
    stage_services.round_generate(stage=stage)
    page = client.get(reverse("tournaments:bracket", args=[cup.slug, stage.pk])).content.decode()
    for team in teams:
        assert f'href="{reverse("tournaments:team", args=[cup.slug, team.pk])}"' in page


@pytest.mark.parametrize("extra", [0, 3])
def test_the_pages_cost_a_fixed_number_of_queries(
    client, two_championships, begona, extra, django_assert_max_num_queries, referee
):
    """More championships, teams and matches cost no more queries."""
    for n in range(extra):
        more = ChampionshipFactory(slug=f"mas-{n}", start_date=datetime.date(2024, 1, n + 1))
        mine = _team(more, f"Otra {n}", begona, f"Compañera {n}")
        _team(more, f"Frente {n}", f"Frente {n}a", f"Frente {n}b")
        stage = stage_services.stage_create(championship=more, format="round_robin")
        (match,) = stage_services.round_generate(stage=stage)
        play(match, mine, games=2, referee=referee)
        standing_services.standings_refresh(stage=stage)
    flores = two_championships["flores"]
    urls = {
        "person": (reverse("tournaments:person", args=[begona.pk]), PERSON_PAGE_QUERIES),
        "team": (reverse("tournaments:team", args=["primavera", flores.pk]), TEAM_QUERIES),
        "schedule": (
            reverse("tournaments:schedule", args=["primavera"]) + "?q=flo",
            SEARCH_QUERIES,
        ),
        "api": (reverse("api:person", args=[begona.pk]), PERSON_QUERIES),
    }
    for url, most in urls.values():
        with django_assert_max_num_queries(most):
            assert client.get(url).status_code == 200


# The schedule searched, with no page cache: the championship, the current rounds and
# their matches in order, the rows' matches, the names searched (teams, players), the teams
# found with their players, and their matches. (With the cache, the rows' matches and the
# names come from it.)
SEARCH_QUERIES = 9
# Person: the person, his teams, their memberships and substitutions, the matches, the
# stages, groups and snapshots of the placements; one stale standings computed (the
# league being played has a result since its last refresh: 2 more).
PERSON_QUERIES = 11
# The page also sums his statistics from the hands (one query) and reads his ratings
# and their history (tournaments.ratings: two).
PERSON_PAGE_QUERIES = PERSON_QUERIES + 3
# Team: the championship, the team, members, substitutions, matches, placement (3) and
# a stale standings computed; its statistics from the hands (one query).
TEAM_QUERIES = 12


def _queries(client, url: str) -> int:
    """How many queries ``url`` costs now (0: it came from the cache)."""
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200, url
    return len(captured.captured_queries)


@pytest.mark.page_cache
def test_a_result_renews_the_person_and_team_pages_and_a_hand_does_not(
    client, two_championships, begona, commit, referee
):
    following, flores = two_championships["next"], two_championships["flores"]
    urls = {
        "person": reverse("tournaments:person", args=[begona.pk]),
        "team": reverse("tournaments:team", args=["primavera", flores.pk]),
        "other team": reverse("tournaments:team", args=["otono", two_championships["anchos"].pk]),
    }
    commit(result_services.match_start, match=following)
    for url in urls.values():
        _queries(client, url)
        assert _queries(client, url) == 0, url  # from the cache
    side = "A" if following.team_a_id == flores.pk else "B"
    commit(
        result_services.hand_record,
        match=following,
        record=chico_hand(following, side),
        recorded_by=referee,
    )
    # A chico decides nothing: the pages show decided results only, and stay cached.
    assert {name: _queries(client, url) for name, url in urls.items()} == {
        "person": 0,
        "team": 0,
        "other team": 0,
    }
    following.refresh_from_db()
    commit(
        result_services.hand_record,
        match=following,
        record=chico_hand(following, side),
        recorded_by=referee,
    )
    rendered = {name for name, url in urls.items() if _queries(client, url) > 0}
    assert rendered == {"person", "team"}
    page = client.get(urls["person"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "1 won, 1 lost" in page
    # Her page follows its topics live (static/js/live.js).
    assert f'data-live-topics="site people p.{begona.pk}"' in page
