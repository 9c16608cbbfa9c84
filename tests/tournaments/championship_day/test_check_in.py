"""Check-in, by list and by QR link, kept per round, and what absent teams get: a
walkover or sitting out, on the printed round too."""

from __future__ import annotations

import re

import pytest
from django.core import signing
from django.urls import reverse

from tests.tournaments.championship_day.conftest import User, url
from tests.tournaments.factories import RefereeFactory, TeamFactory
from tournaments.championships import services as championship_services
from tournaments.models import CheckIn, Match, Round
from tournaments.stages import services as stage_services
from tournaments.standings.selectors import stage_standings
from tournaments.web.organiser.day import CHECK_IN_SALT, check_in_token


def test_round_robin_an_absent_teams_opponent_wins_by_walkover(
    organiser_client, championship, teams
):
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    check_in = url("check_in", championship.slug, stage.pk)
    for team in teams[1:]:
        organiser_client.post(check_in, {"action": "present", "team": team.pk})
    page = organiser_client.get(check_in, HTTP_ACCEPT_LANGUAGE="en")
    assert "3 of 4 teams checked in" in page.content.decode()
    response = organiser_client.post(
        url("round_generate", championship.slug, stage.pk),
        {"number": "1"},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "1 match decided by walkover" in response.content.decode()
    absent = teams[0]
    (walkover,) = Match.objects.filter(status=Match.Status.WALKOVER)
    assert absent.pk in (walkover.team_a_id, walkover.team_b_id)
    assert walkover.winner_id != absent.pk and walkover.games.count() == 2
    assert Round.objects.get(stage=stage).absent == [absent.pk]
    lines = {line.team.pk: line for line in stage_standings(stage=stage, use_snapshot=False)}
    assert lines[walkover.winner_id].points == 1 and lines[absent.pk].losses == 1
    # The round can still be removed: its walkover came from the check-in.
    stage_services.round_remove(stage=stage, number=1)
    assert not Match.objects.exists()


@pytest.mark.parametrize("policy", ["walkover", "sit_out"])
def test_swiss_pairs_only_present_teams(championship, teams, organiser, policy):
    championship.absent_teams = policy
    championship.save()
    extra = [TeamFactory(championship=championship, seed=n) for n in (5, 6)]
    stage = stage_services.stage_create(championship=championship, format="swiss")
    absent = teams[0]
    for team in [*teams, *extra]:
        stage_services.check_in_set(stage=stage, team=team, present=team != absent, by=organiser)
    created = stage_services.round_generate(stage=stage)
    paired = [m for m in created if m.team_b_id is not None]
    assert all(absent.pk not in (m.team_a_id, m.team_b_id) for m in paired)
    byes = [m for m in created if m.outcome == Match.Outcome.BYE]
    assert len(paired) == 2 and len(byes) == 1  # five present: one bye
    losses = [m for m in created if m.team_a_id == absent.pk]
    line = next(
        line for line in stage_standings(stage=stage, use_snapshot=False) if line.team == absent
    )
    if policy == "walkover":
        (loss,) = losses
        assert (loss.status, loss.winner_id, loss.team_b_id) == (Match.Status.WALKOVER, None, None)
        assert (line.points, line.losses, line.byes) == (0, 1, 0)
    else:
        assert losses == [] and (line.points, line.played) == (0, 0)


def test_the_printed_round_names_an_absent_team_absent_and_a_bye_a_bye(
    organiser_client, championship, teams, organiser
):
    extra = [TeamFactory(championship=championship, seed=n) for n in (5, 6)]
    stage = stage_services.stage_create(championship=championship, format="swiss")
    absent = teams[0]
    for team in [*teams, *extra]:
        stage_services.check_in_set(stage=stage, team=team, present=team != absent, by=organiser)
    created = stage_services.round_generate(stage=stage)
    (bye,) = [m for m in created if m.outcome == Match.Outcome.BYE]
    url = reverse("organiser:print_round", args=[championship.slug, stage.pk, 1])
    page = organiser_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"Bye: {bye.team_a.name}</p>" in page
    assert f"Absent, loss by walkover: {absent.name}</p>" in page


def test_a_team_checks_in_by_its_qr_link(client, championship, teams, organiser):
    stage = stage_services.stage_create(championship=championship, format="swiss")
    link = url("check_in_scan", check_in_token(teams[0]))
    door = RefereeFactory(username="puerta")
    stranger = User.objects.create_user(username="stranger")

    client.force_login(stranger)
    assert client.get(link).status_code == 404
    assert client.get(url("check_in_scan", "forged-token")).status_code == 404

    championship_services.referee_add(championship=championship, user=door, added_by=organiser)
    client.force_login(door)
    page = client.get(link, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200 and teams[0].name in page.content.decode()
    assert not CheckIn.objects.exists()  # opening the link alone changes nothing
    done = client.post(link, HTTP_ACCEPT_LANGUAGE="en")
    assert f"{teams[0].name} is checked in." in done.content.decode()
    check_in = CheckIn.objects.get()
    assert (
        check_in.stage,
        check_in.team,
        check_in.round_number,
        check_in.present,
        check_in.by,
    ) == (
        stage,
        teams[0],
        1,
        True,
        door,
    )
    # The referee at the door also reaches the stage's check-in list.
    assert client.get(url("check_in", championship.slug, stage.pk)).status_code == 200


def test_the_printable_qr_sheet_has_one_code_per_team(organiser_client, championship, teams):
    page = organiser_client.get(url("team_qr", championship.slug))
    html = page.content.decode()
    assert html.count("<svg") == len(teams)
    # Each code's link names its team. Tokens are signed with the time (to the second),
    # so they are read back rather than signed again and compared.
    before, after = reverse("organiser:check_in_scan", args=["TOKEN"]).split("TOKEN")
    tokens = re.findall(re.escape(before) + r"([^\"<\s]+?)" + re.escape(after), html)
    named = {signing.loads(token, salt=CHECK_IN_SALT) for token in tokens}
    assert named == {team.pk for team in teams}


def test_check_in_is_kept_per_round(championship, teams, organiser):
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    stage_services.check_in_all(stage=stage, by=organiser)
    stage_services.round_generate(stage=stage)
    # Round 2's check-in is not taken yet: every team is paired again.
    assert stage_services.check_in_absent(stage=stage, number=2) == []
    stage_services.check_in_set(stage=stage, team=teams[3], present=True)
    assert set(stage_services.check_in_absent(stage=stage, number=2)) == {t.pk for t in teams[:3]}


def test_the_absent_teams_choice_is_on_the_details_form(organiser_client, championship):
    organiser_client.post(
        url("championship_details", championship.slug),
        {"name": championship.name, "start_date": "2026-05-09", "absent_teams": "sit_out"},
    )
    championship.refresh_from_db()
    assert championship.absent_teams == "sit_out"
