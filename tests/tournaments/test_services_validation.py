"""Services refuse bad requests with translated errors and leave the data untouched."""

import datetime

import pytest
from django.db import IntegrityError, transaction
from django.utils import translation

from tests.tournaments.factories import ChampionshipFactory, TeamFactory, UserFactory
from tournaments.championships import services as championship_services
from tournaments.errors import TournamentError
from tournaments.models import Championship, Hand, Match, Membership, Team
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services

START = datetime.date(2026, 6, 1)


def test_championship_from_a_preset_and_options(db):
    organiser = UserFactory()
    championship = championship_services.championship_create(
        name="Copa Trucardo",
        slug="copa-trucardo",
        start_date=START,
        preset="trucardo",
        options={"target": 15, "hierarchy": "inverse"},
        organisers=[organiser],
    )
    assert championship.rules == {"preset": "trucardo", "target": 15, "hierarchy": "inverse"}
    assert championship.status == Championship.Status.DRAFT
    assert list(championship.organisers.all()) == [organiser]
    assert championship.tiebreaks[-1] == "lots"


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "Rule option 'target' cannot be 20: allowed 15, 30."),
        ("es", "La opción 'target' no puede valer 20: se admite 15, 30."),
    ],
)
def test_a_bad_rule_option_is_named_in_the_users_language(db, language, text):
    with pytest.raises(TournamentError) as error:
        championship_services.championship_create(
            name="Mal", slug="mal", start_date=START, options={"target": 20}
        )
    assert error.value.code == "bad_option_value"
    with translation.override(language):
        assert error.value.text == text
    assert not Championship.objects.exists()


def test_unknown_option_and_bad_tiebreaks_are_refused(db):
    with pytest.raises(TournamentError) as error:
        championship_services.championship_create(
            name="X", slug="x", start_date=START, options={"colour": "red"}
        )
    assert error.value.code == "unknown_option"
    with pytest.raises(TournamentError) as error:
        championship_services.championship_create(
            name="X", slug="x", start_date=START, tiebreaks=["lots", "points"]
        )
    assert error.value.code == "lots_not_last"
    assert not Championship.objects.exists()


def test_status_follows_the_lifecycle(db):
    championship = ChampionshipFactory(status=Championship.Status.DRAFT)
    with pytest.raises(TournamentError):
        championship_services.championship_set_status(championship=championship, status="finished")
    for status in ("registration", "running", "finished"):
        championship = championship_services.championship_set_status(
            championship=championship, status=status
        )
    assert championship.status == Championship.Status.FINISHED


def test_team_sizes_and_caps_de_colla(db):
    championship = ChampionshipFactory(rules={"preset": "catalan"}, team_size=3)
    team = championship_services.team_create(
        championship=championship, name="Colla", players=["Jordi", "Núria", "Pere"], captain="Pere"
    )
    with pytest.raises(TournamentError) as error:
        championship_services.team_add_player(team=team, name="Quarta")
    assert error.value.code == "team_full"
    assert team.memberships.count() == 3

    championship_services.team_set_captain(team=team, player=team.players.get(name="Jordi"))
    assert [m.player.name for m in Membership.objects.filter(is_captain=True)] == ["Jordi"]

    with pytest.raises(TournamentError) as error:
        championship_services.team_create(
            championship=championship, name="Colla 2", players=["A", "B", "C"], captain="Z"
        )
    assert error.value.code == "captain_not_member"
    assert not Team.objects.filter(name="Colla 2").exists()

    # A squad entered with its players needs its cap de colla at once...
    with pytest.raises(TournamentError) as error:
        championship_services.team_create(
            championship=championship, name="Sense cap", players=["X", "Y", "Z"]
        )
    assert error.value.code == "captain_missing"
    assert not Team.objects.filter(name="Sense cap").exists()
    problems = championship_services.team_entry_problems(
        championship=championship, team="Dos caps", players=["X", "Y", "Z"], captains=["X", "Y"]
    )
    assert [p.code for p in problems] == ["captain_many"]
    # ...and one whose players came one by one without it cannot start a match.
    other = championship_services.team_create(championship=championship, name="Sense cap")
    for name in "XYZ":
        championship_services.team_add_player(team=other, name=name)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    with pytest.raises(TournamentError) as error:
        result_services.match_start(match=match)
    assert error.value.code == "captain_missing"
    championship_services.team_set_captain(team=other, player=other.players.first())
    match = result_services.match_start(match=match)
    assert len(match.seats) == 6


def test_team_names_are_unique_in_a_championship(championship):
    championship_services.team_create(championship=championship, name="Los Anchos")
    with pytest.raises(TournamentError):
        championship_services.team_create(championship=championship, name="Los Anchos")
    with pytest.raises(IntegrityError), transaction.atomic():
        Team.objects.create(championship=championship, name="Los Anchos")
    championship_services.team_create(championship=ChampionshipFactory(), name="Los Anchos")


def test_seats_and_referees(championship, make_teams, referee):
    make_teams(championship, 2)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    with pytest.raises(TournamentError) as error:
        result_services.match_assign(match=match, referee=UserFactory())
    assert error.value.code == "not_championship_referee"
    result_services.match_assign(match=match, table="3", referee=referee)
    match.refresh_from_db()
    assert (match.table, match.referee) == ("3", referee)

    players = [m.player for t in (match.team_a, match.team_b) for m in t.memberships.all()]
    with pytest.raises(TournamentError):
        result_services.match_start(match=match, seats=[p.pk for p in players[:3]])
    seats = [players[0].pk, players[3].pk, players[1].pk, players[2].pk]
    match = result_services.match_start(match=match, seats=seats)
    assert match.seats == [f"p{pk}" for pk in seats]


def test_database_constraints_guard_the_records(championship, make_teams):
    a, _b = make_teams(championship, 2)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.create(stage=stage, round=match.round, team_a=a, team_b=a)
    Hand.objects.create(match=match, number=1, record={"events": []}, status="complete")
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(match=match, number=1, record={"events": []}, status="complete")
    with pytest.raises(IntegrityError), transaction.atomic():
        Membership.objects.filter(team=a).update(is_captain=True)


def test_removing_a_team(championship, make_teams):
    a, b, c = make_teams(championship, 3)
    # Only while entries are open (the fixture's championship is running).
    with pytest.raises(TournamentError) as error:
        championship_services.team_remove(team=c)
    assert error.value.code == "entries_closed"
    championship_services.championship_set_status(championship=championship, status="registration")
    stage_services.stage_create(championship=championship, format="round_robin", teams=[a, b])
    championship_services.team_remove(team=c)
    assert not Team.objects.filter(pk=c.pk).exists()
    stage = championship.stages.get()
    stage_services.round_generate(stage=stage)
    with pytest.raises(TournamentError):
        championship_services.team_remove(team=a)
    assert TeamFactory._meta.model.objects.filter(pk=a.pk).exists()


def test_the_admin_shows_every_model(admin_client, championship, make_teams, play_match):
    make_teams(championship, 2)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    play_match(match, match.team_a)
    for model in (
        "championship",
        "team",
        "player",
        "stage",
        "round",
        "match",
        "hand",
        "standingssnapshot",
    ):
        assert admin_client.get(f"/admin/tournaments/{model}/").status_code == 200, model
    page = admin_client.get(f"/admin/tournaments/match/{match.pk}/change/")
    assert page.status_code == 200
    assert match.team_a.name in page.content.decode()
    assert admin_client.get(f"/admin/tournaments/round/{match.round_id}/change/").status_code == 200
    assert admin_client.get(f"/admin/tournaments/team/{match.team_a_id}/change/").status_code == 200


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [
        ("es", "tiene 1 jugador;", "tiene 3 jugadores;"),
        ("ca", "té 1 jugador;", "té 3 jugadors;"),
        ("en", "has 1 player;", "has 3 players;"),
    ],
)
def test_a_teams_player_count_agrees_with_its_number(db, language, one, two):
    """ "El equipo Solo tiene 1 jugadores": the plural came whatever the count."""
    championship = ChampionshipFactory(team_size=2)
    alone = championship_services.team_create(
        championship=championship, name="Solo", players=["Ana", "Bea"]
    )
    alone.memberships.last().delete()
    with pytest.raises(TournamentError) as incomplete:
        championship_services.team_check_ready(alone, championship)
    problems = championship_services.team_entry_problems(
        championship=championship, team="Trío", players=["A", "B", "C"], captains=[]
    )
    with translation.override(language):
        assert one in incomplete.value.messages[0]
        assert any(two in problem.messages[0] for problem in problems)


def test_a_draft_generates_no_round(db):
    """A draft is still being set up: its next round could be generated in one click."""
    championship = ChampionshipFactory(status=Championship.Status.DRAFT)
    for seed in range(1, 5):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    with pytest.raises(TournamentError) as refused:
        stage_services.round_generate(stage=stage)
    assert refused.value.code == "championship_draft"
    assert not Match.objects.filter(stage=stage).exists()
    championship_services.championship_set_status(
        championship=championship, status=Championship.Status.REGISTRATION
    )
    assert len(stage_services.round_generate(stage=stage)) == 2
