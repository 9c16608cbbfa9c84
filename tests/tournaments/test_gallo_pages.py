"""The pages and exports of tables of three: the three players, their places and scores,
the hands told with the pair by both its players, the exports and the audit."""

import random
import re

import pytest
from django.urls import reverse

from tests.tournaments.factories import ChampionshipFactory, StaffFactory
from tests.tournaments.test_gallo_tables import gallo_championship, play_table
from tournaments.io import exports
from tournaments.stages import services as stage_services


@pytest.fixture
def table_stage(referee):
    championship, _teams = gallo_championship(7)
    stage = stage_services.stage_create(
        championship=championship,
        format="tables_swiss",
        settings={"rounds": 2, "remainder": "table_of_two"},
    )
    created = stage_services.round_generate(stage=stage)
    rng = random.Random(5)
    played = [play_table(m, rng, referee=referee)[0] for m in created if m.is_table_of_three]
    return championship, stage, created, played


def test_public_pages_show_the_three_players_and_places(client, table_stage):
    championship, stage, _created, played = table_stage
    slug = championship.slug
    urls = [
        reverse("tournaments:championship", args=[slug]),
        reverse("tournaments:board", args=[slug]),
        reverse("tournaments:schedule", args=[slug]),
        reverse("tournaments:standings", args=[slug, stage.pk]),
        reverse("tournaments:round", args=[slug, stage.pk, 1]),
        reverse("tournaments:team", args=[slug, played[0].team_c_id]),
        reverse("tournaments:statistics", args=[slug]),
        reverse("tournaments:statistics_csv", args=[slug]),
    ]
    for url in urls:
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
        assert response.status_code == 200, url
    match = played[0]
    page = client.get(
        reverse("tournaments:match", args=[slug, match.pk]), HTTP_ACCEPT_LANGUAGE="en"
    )
    assert page.status_code == 200
    text = page.content.decode()
    for team in (match.team_a, match.team_b, match.team_c):
        assert team.name in text
    assert "Places at the table:" in text
    # The statistics carry the tables: the third player has his hands and points.
    statistics = client.get(
        reverse("tournaments:statistics", args=[slug]), HTTP_ACCEPT_LANGUAGE="en"
    )
    assert match.team_c.name in statistics.content.decode()
    best = min(match.places.values())
    assert f"{best}. " in text
    assert (
        "Placement points"
        in client.get(
            reverse("tournaments:standings", args=[slug, stage.pk]), HTTP_ACCEPT_LANGUAGE="en"
        ).content.decode()
    )


def test_organiser_pages_and_exports(client, table_stage):
    championship, stage, _created, played = table_stage
    staff = StaffFactory()
    client.force_login(staff)
    slug = championship.slug
    match = played[0]
    for url in [
        reverse("organiser:championship", args=[slug]),
        reverse("organiser:stage", args=[slug, stage.pk]),
        reverse("organiser:match_results", args=[slug, match.pk]),
        reverse("organiser:print_scoresheet", args=[slug, match.pk]),
        reverse("organiser:print_round", args=[slug, stage.pk, 1]),
    ]:
        assert client.get(url, HTTP_ACCEPT_LANGUAGE="en").status_code == 200, url
    for kind in exports.EXPORTS:
        assert "".join(exports.export_csv(championship, kind))
    rows = "".join(exports.export_csv(championship, "tables")).splitlines()
    assert rows[0].lstrip("\ufeff").startswith("stage,round,round_name,match,table,player")
    # One row per player and table: 7 players, one table of three and two of two.
    assert len(rows) == 1 + 7
    mine = [r for r in rows[1:] if r.split(",")[4] == str(match.pk)]
    assert len(mine) == 3
    assert sorted(r.split(",")[9] for r in mine) == sorted(str(p) for p in match.places.values())
    # The matches export names the third player at the end of a table's row.
    import csv
    import io

    text = "".join(exports.export_csv(championship, "matches")).lstrip("\ufeff")
    found = {int(r["match"]): r for r in csv.DictReader(io.StringIO(text))}
    row = found[match.pk]
    assert (row["team_c"], row["chicos_c"], row["tantos_c"]) == (
        match.team_c.name,
        str(match.chicos_c),
        str(match.tantos_c),
    )
    assert "team_c" not in "".join(exports.export_csv(ChampionshipFactory(), "matches"))


def test_every_player_of_a_table_confirms_its_result(table_stage):
    from tournaments.results import services as result_services

    _championship, _stage, _created, played = table_stage
    match = played[0]
    assert match.is_provisional
    for side in ("A", "B"):
        result_services.match_confirm(match=match, side=side, by=None)
    match.refresh_from_db()
    assert match.is_provisional  # the third player has not confirmed yet
    result_services.match_confirm(match=match, side="C", by=None)
    match.refresh_from_db()
    assert not match.is_provisional


def test_the_referees_pages_do_not_break_on_a_table_of_three(client, table_stage, referee):
    _championship, _stage, _created, played = table_stage
    client.force_login(referee)
    assert client.get(reverse("referees:matches")).status_code == 200
    from tests.tournaments.test_gallo_tables import FIJO, _table
    from tournaments.results import services as result_services

    unplayed = [_table(), _table(FIJO)]  # before the first hand: the sheet to start it

    for match in [*played, *unplayed]:
        result_services.match_assign(match=match, referee=referee)
        assert client.get(reverse("referees:sheet", args=[match.pk])).status_code in (200, 302)


@pytest.mark.parametrize("gallo", ["por_turno", "fijo"])
def test_the_hands_export_gives_each_hand_as_the_engine_scored_it(referee, gallo):
    import csv
    import io
    import json

    import scoring
    from tests.tournaments.test_gallo_tables import FIJO, POR_TURNO, _table

    match = _table(FIJO if gallo == "fijo" else POR_TURNO)
    played, entries = play_table(match, random.Random(4), referee=referee)
    text = "".join(exports.export_csv(played.stage.championship, "hands")).lstrip("\ufeff")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == len(entries)
    hands = list(played.hands.order_by("number"))
    # The export names players by name: each player's seat (A, B, C: his column).
    seat = {
        m.player.name: side
        for side, team in played.teams_by_side().items()
        for m in team.memberships.all()
    }
    for row, hand in zip(rows, hands, strict=True):
        record = json.loads(row["record"])
        result = scoring.score_hand(record)
        stored = {"A": hand.points_a, "B": hand.points_b, "C": hand.points_c}
        for side, members in record["teams"].items():
            for player in members:
                assert result["points"][side] == stored[seat[player]], (row["hand"], player)


def test_the_match_page_tells_each_hand_with_three_scores_and_its_gallo(client, table_stage):
    import re

    championship, _stage, _created, played = table_stage
    match = played[0]
    page = client.get(
        reverse("tournaments:match", args=[championship.slug, match.pk]),
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    hands = list(match.hands.order_by("number"))
    scores = re.findall(r'class="hand-line__score"[^>]*>(\d+) – (\d+) – (\d+)</span>', page)
    assert len(scores) == len(hands)
    last = hands[-1]
    assert scores[0] == (str(last.score_a), str(last.score_b), str(last.score_c))
    # Por turno the gallo changes every hand: the engine's record names him.
    gallos = re.findall(r'<span class="hand-line__gallo">gallo ([^<]+)</span>', page)
    assert len(gallos) == len(hands)
    assert len(set(gallos[:3])) == 3
    assert "Places at the table:" in page


def _match_page(client, match) -> str:
    from html import unescape

    url = reverse("tournaments:match", args=[match.stage.championship.slug, match.pk])
    return unescape(client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())


def test_the_match_page_names_the_pair_by_both_players_and_draws_three_lines(client, referee):
    from tests.tournaments.test_gallo_tables import _table
    from tournaments.results import records
    from tournaments.results import selectors as result_selectors
    from tournaments.results import services as result_services

    match = result_selectors.match_detail(pk=_table().pk)
    names = records.names(match, public=True)
    first, second, third = match.seats or records.default_seats(records.lineup(match))
    # Hand 1, gallo por turno: the dealer (third seat) is the gallo, the first two the pair;
    # the pair takes both tricks (named by its first player's side).
    result_services.hand_record(
        match=match, record={"events": [{"trick": "A"}, {"trick": "A"}]}, recorded_by=referee
    )
    page = _match_page(client, match)
    pair = f"{names[first]} and {names[second]}"
    assert f"trick 1 to {pair}, trick 2 to {pair}" in page
    assert f"{pair} +1" in page  # the hand's point, to the pair
    # Three running scores and three lines on the chart, one a player, with a legend.
    assert len(re.findall(r'class="scoreboard__side scoreboard__side--[abc]"', page)) == 3
    for side in "abc":
        assert f'class="chart__line chart__line--{side}"' in page
    legend = re.search(r'<p class="chart__legend">(.*?)</p>', page, re.S).group(1)
    teams = [match.team_a.name, match.team_b.name, match.team_c.name]
    assert re.findall(r">([^<]+)</span>", legend) == teams
    assert f"Scores: {match.team_a.name}, {match.team_b.name} and {match.team_c.name}" in page
    assert names[third] not in pair
    # Who plays: the three players, each under his own name.
    assert len(re.findall(r'class="match-players__side"', page)) == 3


def test_a_fixed_gallos_pair_is_one_side_named_by_both(client, referee):
    from tests.tournaments.test_gallo_tables import FIJO, _table
    from tournaments.results import records
    from tournaments.results import selectors as result_selectors
    from tournaments.results import services as result_services

    match = result_selectors.match_detail(pk=_table(FIJO).pk)
    names = records.names(match, public=True)
    teams = records.engine_teams(match)
    result_services.hand_record(
        match=match, record={"events": [{"trick": "B"}, {"trick": "B"}]}, recorded_by=referee
    )
    page = _match_page(client, match)
    pair = " and ".join(names[p] for p in teams["B"])
    # The headline: the gallo and the pair, two scores; the pair named by both players.
    sides = re.findall(r'<p class="scoreboard__name">([^<]+)', page)
    named = f"{match.team_b.name} and {match.team_c.name}"
    assert [s.strip() for s in sides] == [match.team_a.name, named]
    assert f"to {pair}" in page  # the hand told by the players' names
    assert len(re.findall(r'class="chart__line chart__line--', page)) == 2


def test_a_corrected_hand_at_a_table_keeps_the_three_figures_in_the_audit(client, referee):
    from html import unescape

    from tests.tournaments.test_gallo_tables import _table
    from tournaments.models import HandRevision
    from tournaments.results import services as result_services

    match = _table()
    pair_wins = {"events": [{"trick": "A"}, {"trick": "A"}]}
    hand = result_services.hand_record(match=match, record=pair_wins, recorded_by=referee)
    gallo_wins = {"events": [{"trick": "C"}, {"trick": "C"}]}
    result_services.hand_correct(
        hand=hand, record=gallo_wins, corrected_by=None, reason="the gallo took both"
    )
    corrected = HandRevision.objects.get(match=match, action="corrected")
    assert corrected.before["points"] == {"A": 1, "B": 1, "C": 0}
    assert corrected.after["points"] == {"A": 0, "B": 0, "C": 1}
    client.force_login(StaffFactory())
    page = client.get(
        reverse("organiser:audit", args=[match.stage.championship.slug]),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    text = unescape(page.content.decode())
    assert "points 1–1–0, score 1–1–0" in text and "points 0–0–1, score 0–0–1" in text


def test_a_players_page_lists_his_tables_with_both_others_and_his_place(client, table_stage):
    from html import unescape

    championship, _stage, _created, played = table_stage
    match = played[0]
    third = match.team_c
    person = third.memberships.get().player.person
    page = unescape(
        client.get(
            reverse("tournaments:person", args=[person.pk]), HTTP_ACCEPT_LANGUAGE="en"
        ).content.decode()
    )
    # The table he sat at as its third player, the two others named, his place given.
    words = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    assert f"vs {match.team_a.name} and {match.team_b.name}" in words
    place = match.places[str(third.pk)]
    assert f"Place {place} at the table" in page
    team_page = unescape(
        client.get(
            reverse("tournaments:team", args=[championship.slug, third.pk]),
            HTTP_ACCEPT_LANGUAGE="en",
        ).content.decode()
    )
    assert f"Place {place} at the table" in team_page


def test_a_players_personal_link_at_a_table_of_three(client, referee):
    from html import unescape

    from tests.tournaments.test_gallo_tables import _table
    from tournaments.entries import acts
    from tournaments.entries import services as entry_services
    from tournaments.models import MatchConfirmation

    match = _table()
    third = match.team_c
    token = entry_services.link_issue(team=third, via="organiser")
    url = reverse("tournaments:team_link", args=[match.stage.championship.slug, token])
    page = unescape(client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
    # His next table, with the other two.
    words = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    assert f"At the table with {match.team_a.name} and {match.team_b.name}" in words
    # The table played, he answers its result for his own side, C.
    played, _entries = play_table(match, random.Random(2), referee=referee)
    page = unescape(client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert f'id="result-{played.pk}"' in page
    assert f"{played.places[str(third.pk)]}. {third.name}" in page
    acts.link_confirm(team=third, match=played)
    assert MatchConfirmation.objects.get(match=played).side == "C"
