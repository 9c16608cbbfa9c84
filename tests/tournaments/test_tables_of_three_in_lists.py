"""Every list of matches names all three players of a table of three, its chicos and its
places: the fixtures (page, print, .ics, a player's season), the schedule and its search,
the referee's list, the organiser's pages and printed sheets, the CSV exports, the API's
lists and the personal link's answer.

The table is won by its third player (side C), the one a list written for two sides
left out: such a list showed "0–0" for it and said he did not play.
"""

from __future__ import annotations

import csv
import datetime
import io
import random
import re
from html import unescape

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.factories import StaffFactory
from tests.tournaments.test_gallo_tables import engine_places, gallo_championship
from tournaments.demo import play_match_hands
from tournaments.entries import services as entry_services
from tournaments.io import audit_exports, exports
from tournaments.models import Match, MatchConfirmation
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services

WHEN = timezone.make_aware(datetime.datetime(2026, 3, 12, 21, 0))


def _words(response) -> str:
    """A page's text as a reader sees it: tags dropped, spaces collapsed."""
    assert response.status_code == 200, response.status_code
    return " ".join(re.sub(r"<[^>]+>", " ", unescape(response.content.decode())).split())


def _read(client, url: str, data: dict | None = None) -> str:
    """The page at ``url`` in English, as :func:`_words` gives it."""
    return _words(client.get(url, data, HTTP_ACCEPT_LANGUAGE="en"))


@pytest.fixture
def table(referee) -> Match:
    """A table of three at a set time, played to its end and won by its third player."""
    championship, _teams = gallo_championship(3)
    stage = stage_services.stage_create(championship=championship, format="tables_round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    result_services.match_assign(match=match, referee=referee, table="4", scheduled_at=WHEN)
    shown = result_selectors.match_detail(pk=match.pk)
    for seed in range(200):
        entries = play_match_hands(random.Random(seed), shown)
        places = engine_places(match, entries)
        if places[str(match.team_c_id)] == 1 and sorted(places.values()) == [1, 2, 3]:
            break
    result_services.match_hands_import(match=shown, records=entries, recorded_by=referee)
    match.refresh_from_db()
    assert match.is_decided and match.places[str(match.team_c_id)] == 1
    return match


def _places(match: Match) -> str:
    """The table's places as the lists give them: "1. Caro · 2. Ana · 3. Beto"."""
    teams = {t.pk: t.name for t in (match.team_a, match.team_b, match.team_c)}
    ranked = sorted((place, teams[int(team)]) for team, place in match.places.items())
    return " · ".join(f"{place}. {name}" for place, name in ranked)


def _chicos(match: Match) -> str:
    return f"{match.chicos_a}–{match.chicos_b}–{match.chicos_c}"


def test_the_fixtures_name_the_third_player_with_the_tables_score_and_places(client, table):
    slug = table.stage.championship.slug
    a, b, c = table.team_a.name, table.team_b.name, table.team_c.name
    for url in (
        reverse("tournaments:fixtures", args=[slug]),
        reverse("tournaments:matchday", args=[slug, table.stage_id, 1]),
        reverse("tournaments:fixtures_print", args=[slug]),
    ):
        words = _read(client, url)
        assert f"{a} · {b} · {c} {_chicos(table)}" in words, url
        assert f"({_places(table)})" in words, url
        # Not the two-sided "A 0–0 B" of a table its third player won.
        assert f"{a} {table.chicos_a}–{table.chicos_b} {b}" not in words, url


def test_the_third_players_season_lists_his_table(client, table):
    slug = table.stage.championship.slug
    a, b, c = table.team_a.name, table.team_b.name, table.team_c.name
    for name in ("team_fixtures", "team_fixtures_print"):
        url = reverse(f"tournaments:{name}", args=[slug, table.team_c_id])
        words = _read(client, url)
        assert f"{a} and {b}" in words, url
        assert "Place 1 at the table" in words, url
        assert "Home" not in words.split("Venue")[-1], url  # no home or away at a table
    seen_by_a = _read(client, reverse("tournaments:team_fixtures", args=[slug, table.team_a_id]))
    assert f"vs {b} and {c}" in seen_by_a


def test_the_calendar_feeds_carry_the_whole_table(client, table):
    slug = table.stage.championship.slug
    names = f"{table.team_a.name} – {table.team_b.name} – {table.team_c.name}"
    feed = client.get(reverse("tournaments:fixtures_ics", args=[slug]))
    text = feed.content.decode().replace("\r\n ", "")
    assert f"SUMMARY:{names} · " in text
    assert _chicos(table) in text
    assert _places(table) in text.replace("\\n", "\n")
    # The third player's own feed has his table.
    own = client.get(reverse("tournaments:team_fixtures_ics", args=[slug, table.team_c_id]))
    assert f"match-{table.pk}@" in own.content.decode()


def test_the_schedule_finds_the_third_player_at_his_table(client, table):
    slug = table.stage.championship.slug
    a, b, c = table.team_a.name, table.team_b.name, table.team_c.name
    url = reverse("tournaments:schedule", args=[slug])
    words = _read(client, url, {"q": c})
    # The table's match is over, and with it the round: the last round played.
    found = words.split(f"Found for “{c}”")[1].split(" The last round played ")[0]
    assert "Not playing in the current round." not in found
    assert f"vs {a} and {b}" in found
    assert f"{a} · {b} · {c} {_chicos(table)}" in words.split(" The last round played ")[1]


def test_the_referees_list_names_the_three_and_their_chicos(client, table):
    client.force_login(table.referee)
    words = _read(client, reverse("referees:matches"))
    names = f"{table.team_a.name} – {table.team_b.name} – {table.team_c.name}"
    assert names in words
    assert f"{table.chicos_a} – {table.chicos_b} – {table.chicos_c}" in words


def test_the_organisers_pages_and_printed_sheets_give_the_third_side(client, table):
    championship = table.stage.championship
    slug = championship.slug
    c = table.team_c.name
    client.force_login(StaffFactory())
    result_services.match_dispute(match=table, side="C", comment="Mal contado", by=None)
    disputes = _read(client, reverse("organiser:disputes", args=[slug]))
    assert f"{c} disputes: Mal contado" in disputes
    results = _read(client, reverse("organiser:match_results", args=[slug, table.pk]))
    first = table.hands.get(number=1)
    assert f"{first.points_a} – {first.points_b} – {first.points_c}" in results
    assert f"{table.team_b.name} second, {c} third." in results
    printed = _read(client, reverse("organiser:print_round", args=[slug, table.stage_id, 1]))
    assert "Team C" in printed and f"C · {c}" in printed
    assert "Points C" in printed and "Team C confirms" in printed
    sheet = _read(client, reverse("organiser:print_scoresheet", args=[slug, table.pk]))
    assert f"C · {c}" in sheet
    team_page = _read(client, reverse("organiser:team_edit", args=[slug, table.team_c_id]))
    assert f"{table.team_a.name} and {table.team_b.name}" in team_page


def test_the_exports_give_the_third_players_hands_and_audit(table, referee):
    championship = table.stage.championship
    hands = "".join(exports.export_csv(championship, "hands")).lstrip("\ufeff")
    rows = list(csv.DictReader(io.StringIO(hands)))
    stored = {h.number: h for h in table.hands.all()}
    assert [(r["team_c"], int(r["points_c"])) for r in rows] == [
        (table.team_c.name, stored[int(r["hand"])].points_c) for r in rows
    ]
    last = table.hands.order_by("number").last()
    result_services.hand_remove(hand=last, removed_by=referee, reason="Repetida")
    changes = result_selectors.championship_revisions(championship=championship)
    audit = "".join(audit_exports.export_audit(championship, changes)).lstrip("\ufeff")
    assert {r["team_c"] for r in csv.DictReader(io.StringIO(audit))} == {table.team_c.name}


def test_the_apis_lists_give_the_third_player(client, table):
    slug = table.stage.championship.slug
    fixtures = client.get(reverse("api:fixtures", args=[slug])).json()["results"]
    (fixture,) = fixtures
    assert fixture["team_c"] == {"id": table.team_c_id, "name": table.team_c.name}
    assert fixture["chicos_c"] == table.chicos_c
    assert fixture["places"] == table.places
    person = table.team_c.memberships.get().player.person_id
    history = client.get(reverse("api:person", args=[person])).json()
    (line,) = history["championships"][0]["matches"]
    assert {t["id"] for t in line["others"]} == {table.team_a_id, table.team_b_id}
    assert line["place"] == 1


def test_the_third_player_answers_through_his_personal_link(client, table):
    slug = table.stage.championship.slug
    token = entry_services.link_issue(team=table.team_c, via="organiser")
    url = reverse("tournaments:team_link", args=[slug, token])
    response = client.post(
        url, {"action": "confirm", "match": table.pk}, follow=True, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert "Result confirmed." in _words(response)
    assert MatchConfirmation.objects.get(match=table).side == "C"


def test_the_live_board_counts_a_tables_three_chicos(client, referee):
    championship, _teams = gallo_championship(3)
    stage = stage_services.stage_create(championship=championship, format="tables_round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    result_services.match_assign(match=match, referee=referee, table="2", scheduled_at=WHEN)
    result_services.match_start(match=match)
    words = _read(client, reverse("tournaments:board", args=[championship.slug]))
    assert "live chico 1 · chicos 0–0–0" in words


def test_a_substitute_leaves_the_earlier_tables_with_their_third_player(referee):
    from tournaments.championships import services as championship_services
    from tournaments.results import records

    championship, _teams = gallo_championship(3)
    stage = stage_services.stage_create(championship=championship, format="tables_round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    third = match.team_c
    before = {side: list(keys) for side, keys in records.lineup(match).items()}
    # The third player is replaced from round 2 on: his table of round 1 stays his, and
    # every table keeps its three sides.
    championship_services.team_substitute(
        team=third,
        player_out=third.memberships.get().player,
        name="Nuevo Jugador",
        stage=stage,
        from_round=2,
    )
    match.refresh_from_db()
    assert match.lineup["C"] == before["C"]
    assert records.lineup(result_selectors.match_detail(pk=match.pk)) == before
