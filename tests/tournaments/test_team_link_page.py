"""The team's page behind its personal link (``/c/<slug>/team/<token>/``) through the test
client: what it shows, each act (a POST with CSRF, then the page again), and the links
that open nothing (revoked, another championship's, tampered) answering 403 with their
sentence on a GET and a POST alike, changing nothing."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.conftest import play
from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.entries import acts
from tournaments.entries.services import link_issue, link_revoke
from tournaments.models import (
    Championship,
    CheckIn,
    Entry,
    Match,
    MatchConfirmation,
    TeamAct,
)
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def championship(db):
    return ChampionshipFactory(
        name="Abierto de Gràcia", status=Championship.Status.RUNNING, time_zone="Europe/Madrid"
    )


@pytest.fixture
def teams(championship):
    return [TeamFactory(championship=championship, seed=n) for n in range(1, 5)]


def page_url(championship, token):
    return reverse("tournaments:team_link", args=[championship.slug, token])


@pytest.fixture
def swiss(championship, teams):
    return stage_services.stage_create(championship=championship, format="swiss")


def test_the_page_shows_the_team_and_no_match_yet_and_is_private(client, championship, teams):
    team = teams[0]
    url = page_url(championship, link_issue(team=team, via="organiser"))
    response = client.get(url, **EN)
    html = response.content.decode()
    assert response.status_code == 200
    assert team.name in html and "Abierto de Gràcia" in html
    for membership in team.memberships.all():
        assert membership.player.name in html
    assert "No match scheduled yet." in html
    assert "no-store" in response["Cache-Control"]
    assert response["X-Robots-Tag"].startswith("noindex")
    # The origin alone, never the address with its token (docs/tournaments.md).
    assert response["Referrer-Policy"] == "strict-origin"
    # Nothing to act on yet: no check-in, no result, play has started (no withdrawal).
    assert 'name="action"' not in html


def test_the_next_match_with_its_round_table_time_and_opponent(
    client, championship, teams, swiss, django_assert_max_num_queries
):
    match = stage_services.round_generate(stage=swiss)[0]
    result_services.match_assign(
        match=match,
        table="7",
        scheduled_at=datetime.datetime(2026, 5, 9, 8, 30, tzinfo=datetime.UTC),
        referee=None,
    )
    team, opponent = match.team_a, match.team_b
    url = page_url(championship, link_issue(team=team, via="organiser"))
    # The link with its team, the players, the team's matches, their answers, the next
    # match's line-ups, the check-in stages and their rounds in play: whatever the
    # championship's size.
    with django_assert_max_num_queries(7):
        response = client.get(url, **EN)
    html = response.content.decode()
    assert 'id="next-match-table">7<' in html
    # 08:30 UTC is 10:30 in Madrid, where the championship is played.
    assert 'id="next-match-time">10:30 a.m.<' in html
    assert opponent.name in html and "Round 1" in html
    for membership in opponent.memberships.all():
        assert membership.player.name in html


def test_answered_awaiting_and_next_matches_are_read_at_once(
    client, championship, teams, django_assert_max_num_queries
):
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    team = teams[0]
    played = []
    for _round in range(2):
        matches = stage_services.round_generate(stage=stage)
        for match in matches:
            play(match, match.team_a)
        played.append(next(m for m in matches if team.pk in (m.team_a_id, m.team_b_id)))
    first, second = played
    side = first.side_of(team.pk)
    MatchConfirmation.objects.create(match=first, side=side, status="confirmed")
    upcoming = next(
        m
        for m in stage_services.round_generate(stage=stage)
        if team.pk in (m.team_a_id, m.team_b_id)
    )
    url = page_url(championship, link_issue(team=team, via="organiser"))
    # Three matches (answered, to answer, to play) read at once: one query more than one
    # match to play (the finished ones' chicos, shown in words).
    with django_assert_max_num_queries(8):
        page = client.get(url, **EN).content.decode()
    assert f'id="answered-{first.pk}"' in page and f'id="result-{first.pk}"' not in page
    assert f'id="result-{second.pk}"' in page and f'id="answered-{second.pk}"' not in page
    opponent = upcoming.team_b if upcoming.team_a_id == team.pk else upcoming.team_a
    assert "Round 3" in page and opponent.name in page
    for membership in opponent.memberships.all():
        assert membership.player.name in page


def test_check_in_through_the_link_while_the_window_is_open(client, championship, teams, swiss):
    team = teams[1]
    url = page_url(championship, link_issue(team=team, via="organiser"))
    closed = client.get(url, **EN).content.decode()
    assert "Check-in through this page is closed" in closed and 'value="check_in"' not in closed
    refused = client.post(url, {"action": "check_in"}, follow=True, **EN)
    assert "Check-in is closed" in refused.content.decode()
    assert not CheckIn.objects.exists()

    acts.championship_self_check_in(
        championship=championship, until=timezone.now() + datetime.timedelta(hours=1)
    )
    assert 'value="check_in"' in client.get(url, **EN).content.decode()
    response = client.post(url, {"action": "check_in"}, **EN)
    assert response.status_code == 302 and response["Location"] == url  # PRG
    page = client.get(url, **EN).content.decode()
    assert f"{team.name} is checked in." in page and 'id="checked-in"' in page
    assert 'value="check_in"' not in page
    assert CheckIn.objects.get(stage=swiss, team=team, round_number=1).present
    assert TeamAct.objects.get(action="checked_in").via == "link"


@pytest.fixture
def finished(championship, teams):
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    match = stage_services.round_generate(stage=stage)[0]
    return play(match, match.team_a)


def test_confirm_a_finished_result(client, championship, finished):
    team = finished.team_b
    url = page_url(championship, link_issue(team=team, via="organiser"))
    page = client.get(url, **EN).content.decode()
    assert f'id="result-{finished.pk}"' in page and "Confirm the result" in page
    client.post(url, {"action": "confirm", "match": finished.pk}, **EN)
    answer = MatchConfirmation.objects.get(match=finished)
    assert (answer.side, answer.status, answer.on_behalf) == ("B", "confirmed", False)
    after = client.get(url, **EN).content.decode()
    assert "Result confirmed." in after and f'id="result-{finished.pk}"' not in after
    assert f'id="answered-{finished.pk}"' in after


def test_dispute_a_result_saying_why(client, championship, finished):
    team = finished.team_a
    url = page_url(championship, link_issue(team=team, via="organiser"))
    silent = client.post(url, {"action": "dispute", "match": finished.pk}, follow=True, **EN)
    assert "Say what is wrong with the result" in silent.content.decode()
    assert not MatchConfirmation.objects.exists()
    client.post(url, {"action": "dispute", "match": finished.pk, "comment": "Hand 4 was ours"})
    answer = MatchConfirmation.objects.get(match=finished)
    assert (answer.side, answer.status, answer.comment) == ("A", "disputed", "Hand 4 was ours")
    act = TeamAct.objects.get(action="disputed")
    assert (act.via, act.match, act.detail) == ("link", finished, "Hand 4 was ours")


def test_a_match_of_another_team_or_no_match_is_refused(client, championship, teams, finished):
    stranger = next(t for t in teams if t.pk not in (finished.team_a_id, finished.team_b_id))
    url = page_url(championship, link_issue(team=stranger, via="organiser"))
    for match in (finished.pk, "", "abc", "99999999999999999999"):
        response = client.post(url, {"action": "confirm", "match": match}, follow=True, **EN)
        assert "is not one of" in response.content.decode()
    assert not MatchConfirmation.objects.exists()
    unknown = client.post(url, {"action": "delete_everything"}, follow=True, **EN)
    assert "Nothing was done" in unknown.content.decode()


def test_withdraw_before_the_start_with_a_confirmation_step(client, db):
    championship = ChampionshipFactory(status=Championship.Status.REGISTRATION)
    team = TeamFactory(championship=championship)
    Entry.objects.create(championship=championship, team=team, status="accepted", position=1)
    url = page_url(championship, link_issue(team=team, via="organiser"))
    page = client.get(url, **EN).content.decode()
    # The button is inside a <details> the team opens first.
    assert "<summary>Withdraw the team</summary>" in page and "Yes, withdraw the team" in page
    assert 'id="entry-status">Accepted<' in page
    client.post(url, {"action": "withdraw", "reason": "Two of us are ill"}, **EN)
    entry = Entry.objects.get(team=team)
    assert (entry.status, entry.reason) == ("withdrawn", "Two of us are ill")
    after = client.get(url, **EN).content.decode()
    assert 'id="entry-status">Withdrawn<' in after and "Yes, withdraw the team" not in after
    assert TeamAct.objects.get(action="withdrawn").via == "link"


def test_every_act_needs_its_csrf_token(championship, teams, swiss):
    acts.championship_self_check_in(
        championship=championship, until=timezone.now() + datetime.timedelta(hours=1)
    )
    url = page_url(championship, link_issue(team=teams[0], via="organiser"))
    strict = Client(enforce_csrf_checks=True)
    assert strict.post(url, {"action": "check_in"}).status_code == 403
    assert not CheckIn.objects.exists()
    page = strict.get(url)
    token = page.cookies["csrftoken"].value
    strict.post(url, {"action": "check_in", "csrfmiddlewaretoken": token})
    assert CheckIn.objects.filter(team=teams[0]).exists()


def refused_everywhere(client, url, sentence):
    """GET and every act answer 403 with ``sentence`` and leave everything as it was."""
    before = (
        CheckIn.objects.count(),
        MatchConfirmation.objects.count(),
        TeamAct.objects.count(),
        list(Entry.objects.values_list("status", flat=True)),
    )
    get = client.get(url, **EN)
    assert get.status_code == 403 and sentence in get.content.decode()
    assert get["X-Robots-Tag"].startswith("noindex")
    for data in (
        {"action": "check_in"},
        {"action": "confirm", "match": Match.objects.first().pk},
        {"action": "dispute", "match": Match.objects.first().pk, "comment": "no"},
        {"action": "withdraw"},
    ):
        post = client.post(url, data, **EN)
        assert post.status_code == 403 and sentence in post.content.decode()
    after = (
        CheckIn.objects.count(),
        MatchConfirmation.objects.count(),
        TeamAct.objects.count(),
        list(Entry.objects.values_list("status", flat=True)),
    )
    assert after == before


@pytest.fixture
def open_championship(championship, finished):
    acts.championship_self_check_in(
        championship=championship, until=timezone.now() + datetime.timedelta(hours=1)
    )
    return championship


def test_a_revoked_link_is_refused(client, open_championship, finished):
    team = finished.team_b
    token = link_issue(team=team, via="organiser")
    link_revoke(team=team)
    refused_everywhere(client, page_url(open_championship, token), "This link was revoked")


def test_an_older_link_stops_working_when_a_new_one_is_issued(client, open_championship, finished):
    team = finished.team_b
    old = link_issue(team=team, via="organiser")
    new = link_issue(team=team, via="organiser")
    refused_everywhere(client, page_url(open_championship, old), "This link was revoked")
    assert client.get(page_url(open_championship, new)).status_code == 200


def test_another_championships_link_is_refused(client, open_championship, finished):
    token = link_issue(team=finished.team_b, via="organiser")
    other = ChampionshipFactory(status=Championship.Status.RUNNING)
    refused_everywhere(client, page_url(other, token), "This link belongs to another championship")


@pytest.mark.parametrize("tamper", ["swap", "garbage", "unsigned"])
def test_a_tampered_token_is_refused(client, open_championship, finished, tamper):
    token = link_issue(team=finished.team_b, via="organiser")
    forged = {
        "swap": token[:-1] + ("A" if token[-1] != "A" else "B"),
        "garbage": "not-a-token",
        "unsigned": "eyJsIjoxfQ",
    }[tamper]
    refused_everywhere(client, page_url(open_championship, forged), "This link is not valid")


def test_a_logged_in_organiser_gets_nothing_more_through_a_bad_link(client, open_championship):
    user = get_user_model().objects.create_user(username="marta")
    open_championship.organisers.add(user)
    client.force_login(user)
    response = client.get(page_url(open_championship, "forged"), **EN)
    assert response.status_code == 403
