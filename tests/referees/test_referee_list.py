"""The referee finds every match that waits for him: in play, to play, waiting for the
teams' confirmation, disputed, and those done today; a finished match's sheet shows how its
last chico ended, not 0 – 0.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.referees.conftest import html_of
from tests.tournaments.conftest import chico_hand, play
from tests.tournaments.factories import ChampionshipFactory, RefereeFactory, TeamFactory
from tournaments.championships import services as championship_services
from tournaments.models import Match
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services


@pytest.fixture
def referee(db):
    return RefereeFactory(username="lucia")


def six_matches(referee) -> list[Match]:
    championship = ChampionshipFactory()
    championship_services.referee_add(championship=championship, user=referee, added_by=None)
    teams = [TeamFactory(championship=championship, seed=n) for n in range(1, 13)]
    stage = stage_services.stage_create(championship=championship, format="swiss")
    matches = sorted(stage_services.round_generate(stage=stage), key=lambda m: m.pk)
    for table, match in enumerate(matches, start=1):
        result_services.match_assign(match=match, referee=referee, table=str(table))
    assert len(matches) == len(teams) // 2
    return matches


def names(match: Match) -> str:
    return f"{match.team_a.name} – {match.team_b.name}"


def sections(html: str) -> dict[str, list[str]]:
    """Each section's title and the matches it lists, in order."""
    found = {}
    for title, body in re.findall(
        r"<h2>([^<]*?) <span[^>]*>\(\d+\)</span></h2>(.*?)</section>", html, re.S
    ):
        found[title.strip()] = re.findall(r'class="referee-matches__link"[^>]*>([^<]*)</a>', body)
    return found


def test_the_list_shows_every_match_by_what_it_waits_for(client, referee):
    in_play, to_play, awaiting, disputed, today, old = six_matches(referee)
    result_services.match_start(match=in_play)
    result_services.hand_record(match=in_play, record=chico_hand(in_play, "A"), recorded_by=referee)
    for match in (awaiting, disputed, today, old):
        play(match, match.team_a, referee=referee)
    result_services.match_dispute(match=disputed, side="B", comment="Hand 2 was ours", by=referee)
    for match in (today, old):
        result_services.match_confirm(match=match, side="A", by=referee)
        result_services.match_confirm(match=match, side="B", by=referee)
    Match.objects.filter(pk=old.pk).update(finished_at=timezone.now() - datetime.timedelta(days=3))

    client.force_login(referee)
    html = html_of(client.get(reverse("referees:matches"), HTTP_ACCEPT_LANGUAGE="en"))
    assert sections(html) == {
        "In play": [names(in_play)],
        "To play": [names(to_play)],
        "Waiting for the teams' confirmation": [names(awaiting)],
        "Disputed": [names(disputed)],
        "Done today": [names(today)],
    }
    assert names(old) not in html


def test_a_finished_match_sheet_shows_how_its_last_chico_ended(client, referee):
    match = six_matches(referee)[0]
    play(match, match.team_b, referee=referee)
    last = match.games.order_by("number").last()
    assert (last.score_a, last.score_b) != (0, 0)
    client.force_login(referee)
    page = html_of(
        client.get(reverse("referees:sheet", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="en")
    )
    points = re.findall(r'class="scoreboard__points" data-side="([AB])">(\d+)<', page)
    assert points == [("A", str(last.score_a)), ("B", str(last.score_b))]
    assert "Chicos won: 1" in page and "Chicos won: 2" in page
