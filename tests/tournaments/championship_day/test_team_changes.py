"""Teams fixed on the day: names, club, seed and players edited, and a substitute who
plays from a given round while the history keeps who played before."""

from __future__ import annotations

import pytest

from tests.tournaments.championship_day.conftest import url
from tests.tournaments.conftest import chico_hand
from tournaments.championships import services as championship_services
from tournaments.models import Substitution
from tournaments.results import records
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services


def test_edit_a_team_name_club_seed_and_player_names(organiser_client, championship, teams):
    team = teams[0]
    player = team.memberships.first().player
    response = organiser_client.post(
        url("team_edit", championship.slug, team.pk),
        {
            "name": "Los Anchos",
            "seed": "9",
            "club": "Gràcia",
            "player_1": "Begoña Martínez",
            "player_2": team.memberships.last().player.name,
        },
        follow=True,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "Team Los Anchos saved." in response.content.decode()
    team.refresh_from_db()
    player.refresh_from_db()
    assert (team.name, team.seed, team.club) == ("Los Anchos", 9, "Gràcia")
    assert player.name == "Begoña Martínez"  # the same player: his record key stays
    taken = organiser_client.post(
        url("team_edit", championship.slug, team.pk),
        {"name": teams[1].name, "player_1": "A", "player_2": "B"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "already has a team called" in taken.content.decode()


def test_a_substitute_plays_from_the_round_given_and_history_keeps_who_played(
    organiser_client, championship, teams
):
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    first = stage_services.round_generate(stage=stage)
    team = teams[0]
    match_1 = next(m for m in first if team.pk in (m.team_a_id, m.team_b_id))
    result_services.hand_record(match=match_1, record=chico_hand(match_1, "A"), recorded_by=None)
    old = team.memberships.first().player
    response = organiser_client.post(
        url("team_substitute", championship.slug, team.pk),
        {"player_out": old.pk, "name": "Nuevo Suplente", "from_round": f"{stage.pk}:2"},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "Nuevo Suplente replaces" in response.content.decode()
    substitution = Substitution.objects.get(team=team)
    new = substitution.player_in
    match_1.refresh_from_db()
    side = "A" if match_1.team_a_id == team.pk else "B"
    assert old.record_key in records.lineup(match_1)[side]
    # Round 1 can still be scored and corrected: its record keeps the old player.
    result_services.hand_record(match=match_1, record=chico_hand(match_1, "B"), recorded_by=None)

    second = stage_services.round_generate(stage=stage)
    match_2 = next(m for m in second if team.pk in (m.team_a_id, m.team_b_id))
    result_services.match_start(match=match_2)
    match_2.refresh_from_db()
    side = "A" if match_2.team_a_id == team.pk else "B"
    assert new.record_key in match_2.lineup[side] and old.record_key not in match_2.seats

    page = organiser_client.get(url("team_edit", championship.slug, team.pk))
    history = page.context["history"]
    assert old.name in history[0]["players"] and new.name in history[1]["players"]


def test_a_substitution_into_a_match_with_hands_is_refused(championship, teams):
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    first = stage_services.round_generate(stage=stage)
    team = teams[0]
    match = next(m for m in first if team.pk in (m.team_a_id, m.team_b_id))
    result_services.hand_record(match=match, record=chico_hand(match, "A"), recorded_by=None)
    with pytest.raises(Exception) as error:
        championship_services.team_substitute(
            team=team,
            player_out=team.memberships.first().player,
            name="Tarde",
            stage=stage,
            from_round=1,
        )
    assert error.value.code == "substitute_after_play"
    assert not Substitution.objects.exists()
