"""The demo championship without referees: results typed at the desk, reported and
confirmed by the teams, one disputed, matches kept on a player's phone."""

import datetime

from tournaments.demo import sin_arbitros
from tournaments.demo import table as demo
from tournaments.models import HandRevision, Match, MatchConfirmation, Scorekeeping, TeamAct
from tournaments.results import selectors as result_selectors


def test_the_demo_without_referees_has_every_way_of_recording(db):
    championship = sin_arbitros.build(datetime.date(2026, 11, 27), demo.referees())
    assert championship.scorekeeping == Scorekeeping.PLAYERS
    matches = Match.objects.filter(stage__championship=championship, team_b__isnull=False)
    assert not matches.exclude(referee=None).exists()
    first, second, third = (matches.filter(round__number=n) for n in (1, 2, 3))
    # Round one: every result typed at the desk and confirmed for both sides.
    assert all(m.recorded == "result" and m.reported_side == "" for m in first)
    assert all(m.confirmed_at is not None for m in first)
    # Round two: reported through the links; one disputed, one kept on a phone.
    assert second.filter(recorded="hands", hands__isnull=False).distinct().count() == 1
    disputes = result_selectors.disputed_matches(championship=championship)
    assert [d.match.round.number for d in disputes] == [2]
    reported = TeamAct.objects.filter(
        championship=championship, action=TeamAct.Action.REPORTED, via=TeamAct.Via.LINK
    )
    assert reported.count() >= 6
    # Round three, under way: a phone match in play, three reports waiting, one overdue.
    assert third.filter(status=Match.Status.IN_PROGRESS, recorded="hands").count() == 1
    waiting = third.filter(recorded="result", confirmed_at__isnull=True)
    assert waiting.count() == 3
    assert list(result_selectors.overdue_reports(championship=championship)) == [
        waiting.order_by("reported_at").first()
    ]
    # Every result the engine checked; nothing was recorded by an account.
    assert not HandRevision.objects.filter(match__in=matches).exclude(by=None).exists()
    assert MatchConfirmation.objects.filter(match__in=matches, on_behalf=False).exists()
