"""The league demo: six clubs, matchdays 1 and 2 played, matchday 3 partly, one match
postponed; every result from hands the engine scored."""

import datetime as dt

import pytest

from scoring.match import score_match
from tournaments.demo import league as league_demo
from tournaments.demo import table as demo
from tournaments.models import Match, Postponement
from tournaments.people import history
from tournaments.results import records, selectors


@pytest.mark.django_db
def test_the_league_demo_is_halfway_through_its_first_round():
    today = dt.date(2026, 5, 13)
    championship = league_demo.build(today, demo.referees(), play=demo.play_match_hands)
    stage = championship.stages.get()
    assert stage.format == "league" and stage.settings["cycles"] == 2
    assert championship.teams.count() == 6
    assert all(t.venue_name and t.venue_address for t in championship.teams.all())
    assert stage.rounds.count() == 10
    matches = stage.matches.exclude(team_b=None)
    for number in (1, 2):
        assert all(m.is_decided for m in matches.filter(round__number=number))
    third = list(matches.filter(round__number=3))
    assert sum(m.is_decided for m in third) == 1
    postponed = [m for m in third if m.postponed]
    assert len(postponed) == 1 and not postponed[0].is_decided
    moved = Postponement.objects.get(match=postponed[0])
    assert moved.reason and moved.to_at.date() > today
    assert not matches.filter(round__number__gt=3, status__in=Match.DECIDED).exists()
    played = matches.filter(status=Match.Status.FINISHED).first()
    detail = selectors.match_detail(pk=played.pk)
    hands = [h.record for h in detail.hands.order_by("number")]
    assert score_match(records.match_record(detail, hands))["winner"] in ("A", "B")
    # A player of a club sees his next fixture, with its venue.
    person = postponed[0].team_a.players.first().person
    found = history.person_public(person_id=person.pk)
    assert found.next_match is not None and found.next_match.match.venue_name
