"""CSV: teams import (per-row errors, all or nothing, accents and BOM) and the streamed
exports of standings, matches and hands (BOM, one header, round trip)."""

import csv
import datetime
import io
import json
import types

import pytest
from django.utils import translation

from scoring.record import score_hand
from tests.tournaments.conftest import play
from tests.tournaments.factories import ChampionshipFactory
from tournaments.io import exports
from tournaments.io.imports import TEMPLATE_HEADERS, ImportRowsError, teams_import
from tournaments.models import Hand, Player, Team
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services
from tournaments.standings import selectors as standing_selectors

GOOD = """team,seed,club,player,captain
Los Anchos,1,Club Social de Gràcia,Ramón Núñez,
Los Anchos,,,Begoña Martínez,
Las Sotas,2,Peña El Ancho,María José Peña,
Las Sotas,,,Jordi Puigverd,
"""


def parse(chunks) -> list[dict]:
    text = "".join(chunks)
    assert text.startswith("\ufeff")
    return list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff"))))


def test_import_with_accents_bom_and_semicolons(championship):
    data = ("\ufeff" + GOOD.replace(",", ";")).encode("utf-8")
    created = teams_import(championship=championship, file=io.BytesIO(data))
    assert [t.name for t in created] == ["Los Anchos", "Las Sotas"]
    anchos = Team.objects.get(name="Los Anchos")
    assert (anchos.seed, anchos.club) == (1, "Club Social de Gràcia")
    assert [m.player.name for m in anchos.memberships.order_by("order")] == [
        "Ramón Núñez",
        "Begoña Martínez",
    ]


def test_import_accepts_spanish_headers_and_windows_1252(championship):
    data = "Equipo,Jugador\nLos Anchos,Ramón\nLos Anchos,Begoña\n".encode("cp1252")
    (team,) = teams_import(championship=championship, file=data)
    assert [p.name for p in team.players.order_by("memberships__order")] == ["Ramón", "Begoña"]


def test_import_reports_every_bad_row_and_imports_nothing(championship, make_teams):
    (existing,) = make_teams(championship, 1)
    data = (
        "team,seed,club,player\n"
        "Los Anchos,1,,Ramón\n"  # fine
        ",2,,Sin equipo\n"  # row 3: no team
        "Los Anchos,uno,,Begoña\n"  # row 4: bad seed
        f"{existing.name},,,Otro\n"  # row 5: name taken
        "Las Sotas,3,,\n"  # row 6: no player
        "Los Tres,4,,A\nLos Tres,,,B\nLos Tres,,,C\n"  # row 7: three players in pairs
    )
    players = Player.objects.count()
    with pytest.raises(ImportRowsError) as error:
        teams_import(championship=championship, file=data)
    assert [(e.row, e.column) for e in error.value.rows] == [
        (3, "team"),
        (4, "seed"),
        (5, "team"),
        (6, "player"),
        (7, "player"),
    ]
    with translation.override("en"):
        assert str(error.value.rows[1].message) == "A seed is a whole number from 1."
    assert championship.teams.count() == 1
    assert Player.objects.count() == players


def test_import_messages_are_translated(championship):
    with pytest.raises(ImportRowsError) as error:
        teams_import(championship=championship, file="team,player,goles\n")
    (unknown,) = error.value.rows
    assert (unknown.row, unknown.column) == (1, "goles")
    with translation.override("es"):
        assert str(unknown.message) == "Columna desconocida."


def test_catalan_squads_need_their_cap_de_colla(db):
    championship = ChampionshipFactory(rules={"preset": "catalan"}, team_size=3)
    rows = "equip,jugador,cap de colla\n" + "".join(
        f"Colla {c},{c}{i},{'x' if i == 1 and c == 'A' else ''}\n" for c in "AB" for i in (1, 2, 3)
    )
    with pytest.raises(ImportRowsError) as error:
        teams_import(championship=championship, file=rows)
    # Named as the file names it: its own header, and the team.
    assert [(e.row, e.column, e.team) for e in error.value.rows] == [(5, "cap de colla", "Colla B")]
    rows = rows.replace("Colla B,B2,", "Colla B,B2,x")
    created = teams_import(championship=championship, file=rows)
    captains = [t.memberships.get(is_captain=True).player.name for t in created]
    assert captains == ["A1", "B2"]


@pytest.fixture
def played(championship, make_teams, referee):
    teams = make_teams(championship, 4)
    teams[0].club = 'Peña "El Ancho", Gràcia'
    teams[0].save()
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    first = stage_services.round_generate(stage=stage)
    play(first[0], first[0].team_a, referee=referee)
    result_services.match_walkover(match=first[1], winner=first[1].team_b, reason="No se presentó")
    stage_services.round_generate(stage=stage)
    return stage


def test_standings_export_round_trip(championship, played):
    rows = parse(exports.export_standings(championship))
    lines = standing_selectors.stage_standings(stage=played)
    assert [r["team"] for r in rows] == [line.team.name for line in lines]
    for row, line in zip(rows, lines, strict=True):
        assert int(row["rank"]) == line.rank
        assert float(row["points"]) == line.points
        assert (int(row["chicos_for"]), int(row["tantos_against"])) == (
            line.chicos_for,
            line.tantos_against,
        )
        assert row["club"] == line.team.club
        # Readable, in the chain's order; the drawing of lots' random number never shown.
        shown = dict(pair.split("=") for pair in row["tiebreaks"].split("; ") if pair)
        assert "lots" not in shown and "lots" in line.metrics
        assert shown == {
            key: str(int(value) if float(value).is_integer() else value)
            for key, value in line.metrics.items()
            if value is not None and key != "lots"
        }


def test_matches_export_round_trip(championship, played):
    rows = parse(exports.export_matches(championship))
    matches = list(played.matches.order_by("round__number", "pk"))
    assert [int(r["match"]) for r in rows] == [m.pk for m in matches]
    for row, match in zip(rows, matches, strict=True):
        assert row["team_a"] == match.team_a.name
        assert row["status"] == match.status
        assert row["winner"] == (match.winner.name if match.winner else "")
        assert (int(row["chicos_a"]), int(row["chicos_b"])) == (match.chicos_a, match.chicos_b)
    assert rows[1]["outcome"] == "walkover" and rows[1]["reason"] == "No se presentó"


def test_hands_export_carries_records_the_engine_scores(championship, played, referee):
    rows = parse(exports.export_hands(championship))
    hands = list(Hand.objects.order_by("match_id", "number"))
    assert len(rows) == len(hands) == 3
    for row, hand in zip(rows, hands, strict=True):
        assert (int(row["hand"]), int(row["game"])) == (hand.number, hand.game.number)
        assert row["recorded_by"] == referee.username
        record = json.loads(row["record"])
        # Players by name, in the record as in the mano column; the events are the hand's.
        names = exports.record_names(hand.match)
        assert record["events"] == exports.with_names(hand.record["events"], names)
        assert row["mano"] == names[hand.order[0]]
        assert not any(f'"{key}"' in row["record"] for key in names)
        # A standalone hand record: the engine gives the stored points again.
        scored = score_hand(record)
        assert scored["points"] == {"A": int(row["points_a"]), "B": int(row["points_b"])}
        assert scored["score"] == {"A": int(row["score_a"]), "B": int(row["score_b"])}


def test_the_hands_export_streams(championship, make_teams):
    """A few thousand hands come out row by row from a generator (memory stays flat)."""
    teams = make_teams(championship, 2)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    match = result_services.match_start(match=match)
    result_services.hand_record(match=match, record=_mazo(match), recorded_by=None)
    template = Hand.objects.get()
    Hand.objects.bulk_create(
        [
            Hand(
                match=match,
                number=n,
                record=template.record,
                order=template.order,
                points_a=2,
                status="complete",
            )
            for n in range(2, 3001)
        ]
    )
    stream = exports.export_hands(championship)
    assert isinstance(stream, types.GeneratorType)
    header = next(stream)
    assert header.startswith("\ufeffmatch,")
    first = next(stream)
    assert first.count("\n") == 1  # one row at a time, not the whole file
    assert sum(1 for _ in stream) == 2999
    assert teams


def _mazo(match):
    return {"events": [{"by": p, "mazo": True} for p in match.seats[1::2]]}


def test_the_report_names_the_files_headers_the_row_and_the_team(db):
    championship = ChampionshipFactory(rules={"preset": "catalan"}, team_size=3)
    rows = (
        "Equip;Jugador;Cap de colla\n"
        "Colla A;A1;x\nColla A;A2;x\nColla A;A3;\n"  # two caps
        "Colla B;B1;x\nColla B;B2;\n"  # two players of three
    )
    with translation.override("en"), pytest.raises(ImportRowsError) as error:
        teams_import(championship=championship, file=rows)
    with translation.override("en"):
        report = [(e.row, e.column, e.team, str(e.message)) for e in error.value.rows]
    assert report == [
        (2, "Cap de colla", "Colla A", "Team Colla A has more than one cap de colla."),
        (5, "Jugador", "Colla B", "Team Colla B has 2 players; this championship plays with 3."),
    ]
    assert not championship.teams.exists()


def test_a_missing_column_is_named_in_the_organisers_language(championship):
    with translation.override("es"), pytest.raises(ImportRowsError) as error:
        teams_import(championship=championship, file="equipo,club\nA,B\n")
    assert [(e.row, e.column) for e in error.value.rows] == [(1, "jugador")]


@pytest.mark.parametrize("language", ["es", "ca", "en"])
def test_the_downloaded_template_imports_once_filled(db, client, language):
    from django.contrib.auth import get_user_model
    from django.urls import reverse

    organiser = get_user_model().objects.create_user(username="org")
    championship = ChampionshipFactory(rules={"preset": "catalan"}, team_size=3)
    championship.organisers.add(organiser)
    client.force_login(organiser)
    response = client.get(reverse("organiser:teams_template", args=[championship.slug, language]))
    assert response["Content-Disposition"] == f'attachment; filename="teams-{language}.csv"'
    text = response.content.decode("utf-8")
    header = text.removeprefix("\ufeff").splitlines()[0]
    # A Catalan squad's captain is its cap de colla, in every language.
    assert header == ",".join([*TEMPLATE_HEADERS[language][:-1], "cap de colla"])
    (team,) = teams_import(championship=championship, file=response.content)
    assert team.memberships.count() == 3 and team.memberships.filter(is_captain=True).count() == 1


def test_export_times_carry_the_championships_time_zone(make_teams):
    championship = ChampionshipFactory(status="running", time_zone="America/Argentina/Buenos_Aires")
    make_teams(championship, 2)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    result_services.match_assign(
        match=match,
        table="1",
        scheduled_at=datetime.datetime(2026, 6, 13, 20, 0, tzinfo=datetime.UTC),
        referee=None,
    )
    match = result_services.match_start(match=match)
    result_services.hand_record(match=match, record=_mazo(match), recorded_by=None)
    with translation.override("es"):
        (row,) = parse(exports.export_matches(championship))
    assert row["time"] == "2026-06-13T17:00:00-03:00"
    (hand_row,) = parse(exports.export_hands(championship))
    assert hand_row["recorded_at"].endswith("-03:00")
    assert row["round_name"] == "Ronda 1"  # in the language of the export


def test_a_shared_name_or_a_side_name_keeps_the_players_apart():
    match = types.SimpleNamespace()
    names = {"p1": "Ana", "p2": "Ana", "p3": "B", "p4": "Beto"}
    teams = {"A": ["p1", "p3"], "B": ["p2", "p4"]}

    class Members(list):
        def all(self):
            return self

    def team(side):
        return types.SimpleNamespace(
            name=side,
            memberships=Members(
                types.SimpleNamespace(
                    player=types.SimpleNamespace(record_key=k, name=names[k]), is_captain=False
                )
                for k in teams[side]
            ),
        )

    match.team_a, match.team_b = team("A"), team("B")
    match.lineup = None  # no lineup stored: the teams' players
    assert exports.record_names(match) == {
        "p1": "Ana (p1)",
        "p2": "Ana (p2)",
        "p3": "B (p3)",
        "p4": "Beto",
    }
