"""What a team does through its personal link (``tournaments.entries.acts``): check in
while the organiser's window is open, answer its own finished results, withdraw before the
start; each act in the audit log, and each refusal changing nothing."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone, translation

from tests.tournaments.conftest import play
from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.entries import acts
from tournaments.entries import services as entry_services
from tournaments.models import (
    Championship,
    CheckIn,
    Entry,
    HandRevision,
    MatchConfirmation,
    TeamAct,
)
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services

HOUR = datetime.timedelta(hours=1)


@pytest.fixture
def championship(db):
    return ChampionshipFactory(status=Championship.Status.RUNNING)


@pytest.fixture
def teams(championship):
    return [TeamFactory(championship=championship, seed=n) for n in range(1, 5)]


def open_window(championship, hours=1):
    return acts.championship_self_check_in(
        championship=championship, until=timezone.now() + hours * HOUR
    )


def test_the_organiser_opens_and_closes_the_window_and_a_past_time_is_refused(championship):
    user = get_user_model().objects.create_user(username="marta")
    assert not acts.self_check_in_open(championship)
    open_window(championship)
    championship.refresh_from_db()
    assert acts.self_check_in_open(championship)
    with pytest.raises(ValidationError) as refused:
        acts.championship_self_check_in(
            championship=championship, until=timezone.now() - HOUR, by=user
        )
    with translation.override("en"):
        assert "has already passed" in " ".join(refused.value.messages)
    championship.refresh_from_db()
    assert acts.self_check_in_open(championship)  # the refusal left it as it was
    acts.championship_self_check_in(championship=championship, until=None, by=user)
    championship.refresh_from_db()
    assert championship.self_check_in_until is None


def test_a_team_checks_in_through_its_link_only_while_the_window_is_open(championship, teams):
    stage = stage_services.stage_create(championship=championship, format="swiss")
    with pytest.raises(ValidationError) as closed:
        acts.link_check_in(team=teams[0])
    assert closed.value.code == "self_check_in_closed"
    assert not CheckIn.objects.exists() and not TeamAct.objects.exists()

    open_window(championship)
    with translation.override("en"):
        assert acts.link_check_in(team=teams[0]) == [stage]
    check_in = CheckIn.objects.get()
    assert (check_in.team, check_in.round_number, check_in.present, check_in.by) == (
        teams[0],
        1,
        True,
        None,
    )
    act = TeamAct.objects.get()
    assert (act.action, act.via, act.by, act.team) == ("checked_in", "link", None, teams[0])
    assert act.detail == "Swiss, round 1"


def test_check_in_for_the_next_round_waits_for_the_round_being_played(championship, teams, client):
    """A team checking in for round 2 while round 1 is played would leave every team that
    had not yet absent from round 2: the link offers it once round 1 is over."""
    stage = stage_services.stage_create(championship=championship, format="swiss")
    first, second = stage_services.round_generate(stage=stage)
    open_window(championship)
    with pytest.raises(ValidationError) as waits, translation.override("en"):
        acts.link_check_in(team=teams[0])
    assert waits.value.code == "round_in_play"
    with translation.override("en"):
        assert "opens once the round being played is over" in " ".join(waits.value.messages)
    token = entry_services.link_issue(team=teams[0], via="organiser")
    url = reverse("tournaments:team_link", args=[championship.slug, token])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content
    assert b'id="check-in-waits"' in page and b'value="check_in"' not in page
    assert not CheckIn.objects.exists()
    assert not TeamAct.objects.filter(action="checked_in").exists()

    play(first, first.team_a)
    play(second, second.team_b)
    with translation.override("en"):
        assert acts.link_check_in(team=teams[0]) == [stage]
    assert CheckIn.objects.get().round_number == 2


def test_a_window_past_its_time_is_closed_and_says_when(championship, teams):
    stage_services.stage_create(championship=championship, format="swiss")
    championship.self_check_in_until = timezone.now() - datetime.timedelta(minutes=1)
    championship.save()
    with pytest.raises(ValidationError) as closed, translation.override("en"):
        acts.link_check_in(team=teams[1])
    with translation.override("en"):
        assert "Check-in is closed: it closed at" in " ".join(closed.value.messages)
    assert not CheckIn.objects.exists()


@pytest.fixture
def finished(championship, teams):
    """A finished match of round 1: teams[0] beat teams[1]... whichever they met."""
    stage_services.stage_create(championship=championship, format="round_robin")
    (match, *_rest) = stage_services.round_generate(stage=championship.stages.get())
    return play(match, match.team_a)


def test_a_team_confirms_its_result_as_its_captain_not_the_organiser(finished):
    team = finished.team_b
    first = team.memberships.order_by("order").first().player
    acts.link_confirm(team=team, match=finished)
    answer = MatchConfirmation.objects.get(match=finished)
    assert (answer.side, answer.status, answer.player, answer.on_behalf, answer.by) == (
        "B",
        "confirmed",
        first,
        False,
        None,
    )
    act = TeamAct.objects.get(action="confirmed")
    assert (act.via, act.match, act.team) == ("link", finished, team)
    assert HandRevision.objects.filter(match=finished, action="confirmed", side="B").exists()


def test_a_team_answers_once_and_a_second_tap_changes_nothing(finished):
    team = finished.team_a
    acts.link_dispute(team=team, match=finished, comment="  The last hand was ours  ")
    answer = MatchConfirmation.objects.get(match=finished)
    assert (answer.status, answer.comment) == ("disputed", "The last hand was ours")
    for again in (
        lambda: acts.link_confirm(team=team, match=finished),
        lambda: acts.link_dispute(team=team, match=finished, comment="again"),
    ):
        with pytest.raises(ValidationError) as refused:
            again()
        assert refused.value.code == "already_answered"
    answer.refresh_from_db()
    assert answer.status == "disputed"
    assert list(TeamAct.objects.values_list("action", "detail")) == [
        ("disputed", "The last hand was ours")
    ]


def test_an_organisers_answer_for_the_side_is_not_overwritten_by_the_link(finished):
    result_services.match_confirm(match=finished, side="A", by=None)
    with pytest.raises(ValidationError):
        acts.link_dispute(team=finished.team_a, match=finished, comment="no")
    assert MatchConfirmation.objects.get(side="A").status == "confirmed"


def test_a_dispute_says_why_and_another_teams_match_is_refused(finished, teams):
    with pytest.raises(ValidationError) as empty:
        acts.link_dispute(team=finished.team_b, match=finished, comment="   ")
    assert empty.value.code == "comment_missing"
    stranger = next(t for t in teams if t.pk not in (finished.team_a_id, finished.team_b_id))
    with pytest.raises(ValidationError) as other:
        acts.link_confirm(team=stranger, match=finished)
    assert other.value.code == "not_team_match"
    assert not MatchConfirmation.objects.exists() and not TeamAct.objects.exists()


def test_a_match_not_over_awaits_no_answer(championship, teams):
    stage_services.stage_create(championship=championship, format="round_robin")
    match = stage_services.round_generate(stage=championship.stages.get())[0]
    with pytest.raises(ValidationError) as refused:
        acts.link_confirm(team=match.team_a, match=match)
    assert refused.value.code == "not_finished"
    assert not MatchConfirmation.objects.exists()


def test_a_catalan_squad_answers_as_its_cap_de_colla(db):
    championship = ChampionshipFactory(rules={"preset": "catalan"}, team_size=3)
    team = TeamFactory(championship=championship)
    captain = team.memberships.get(is_captain=True).player
    assert acts._spokesman(team) == captain


def test_a_team_withdraws_before_the_start_and_the_first_waiting_takes_its_place(db):
    championship = ChampionshipFactory(status=Championship.Status.REGISTRATION)
    going, waiting = TeamFactory(championship=championship), TeamFactory(championship=championship)
    Entry.objects.create(championship=championship, team=going, status="accepted", position=1)
    Entry.objects.create(championship=championship, team=waiting, status="waiting", position=2)
    promoted = acts.link_withdraw(team=going, reason="Injury")
    assert [e.team for e in promoted] == [waiting]
    assert Entry.objects.get(team=going).status == "withdrawn"
    assert list(TeamAct.objects.values_list("action", "via", "team_name")) == [
        ("withdrawn", "link", going.name),
        ("promoted", "link", waiting.name),
    ]


def test_once_play_has_started_a_team_cannot_withdraw_itself(championship, teams):
    with pytest.raises(ValidationError) as refused:
        acts.link_withdraw(team=teams[0])
    assert refused.value.code == "withdraw_started"
    assert not Entry.objects.exists() and not TeamAct.objects.exists()
