"""Rounds on the day: generated after a confirmation while one is in play, and the last
one removed before any hand."""

from __future__ import annotations

import pytest

from tests.tournaments.championship_day.conftest import url
from tests.tournaments.conftest import chico_hand
from tests.tournaments.factories import TeamFactory
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services


def test_generating_while_the_round_is_in_play_asks_first(organiser_client, championship, teams):
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    generate = url("round_generate", championship.slug, stage.pk)
    first = organiser_client.post(generate, {"number": "1"}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "2 matches generated." in first.content.decode()
    asked = organiser_client.post(generate, {"number": "2"}, HTTP_ACCEPT_LANGUAGE="en")
    assert asked.status_code == 200
    assert "2 matches of round 1 are not finished yet." in asked.content.decode()
    assert stage.rounds.count() == 1
    organiser_client.post(generate, {"number": "2", "confirm": "1"})
    organiser_client.post(generate, {"number": "2", "confirm": "1"})  # a double submit
    assert stage.rounds.count() == 2


def test_one_match_generated_is_said_in_the_singular(organiser_client, championship):
    TeamFactory(championship=championship)
    TeamFactory(championship=championship)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    response = organiser_client.post(
        url("round_generate", championship.slug, stage.pk),
        {"number": "1"},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="es",
    )
    assert "1 partido generado." in response.content.decode()


def test_remove_the_last_round_only_before_any_hand(organiser_client, championship, teams):
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    stage_services.round_generate(stage=stage)
    second = stage_services.round_generate(stage=stage)
    refused = organiser_client.post(
        url("round_remove", championship.slug, stage.pk, 1), follow=True, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert "Only the last round can be removed" in refused.content.decode()
    match = second[0]
    result_services.hand_record(match=match, record=chico_hand(match, "A"), recorded_by=None)
    played = organiser_client.post(
        url("round_remove", championship.slug, stage.pk, 2), follow=True, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert "cannot be removed" in played.content.decode() and stage.rounds.count() == 2
    result_services.hand_delete_last(match=match)
    assert (
        organiser_client.get(url("round_remove", championship.slug, stage.pk, 2)).status_code == 200
    )
    organiser_client.post(url("round_remove", championship.slug, stage.pk, 2))
    assert list(stage.rounds.values_list("number", flat=True)) == [1]
    # Generated again: the same schedule goes on.
    assert stage_services.round_generate(stage=stage)[0].round.number == 2


def test_a_bracket_round_cannot_be_removed(championship, teams):
    stage = stage_services.stage_create(championship=championship, format="single_elimination")
    stage_services.round_generate(stage=stage)
    number = stage.rounds.get().number
    with pytest.raises(Exception) as error:
        stage_services.round_remove(stage=stage, number=number)
    assert error.value.code == "bracket_round"
