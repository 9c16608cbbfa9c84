"""A league over a season: matchdays dated, matches at the home team's venue and night,
postponements and the organiser's moves, refused when they break the season or make a
team play twice on one day."""

import datetime as dt
import zoneinfo
from collections import Counter

import pytest
from django.db.models import Q
from django.utils import timezone, translation

from tests.tournaments.factories import ChampionshipFactory, TeamFactory, UserFactory
from tournaments.errors import TournamentError
from tournaments.models import Championship, Match, Postponement
from tournaments.stages import fixtures, league
from tournaments.stages.services import round_generate, stage_create
from tournaments.standings.selectors import stage_standings

ZONE = zoneinfo.ZoneInfo("America/Argentina/Buenos_Aires")


def make_league(count: int, *, cycles: int = 2, weekday_of: dict[int, int] | None = None):
    championship = ChampionshipFactory(
        time_zone="America/Argentina/Buenos_Aires",
        start_date=dt.date(2026, 3, 1),
        end_date=dt.date(2026, 12, 20),
    )
    teams = []
    for n in range(1, count + 1):
        teams.append(
            TeamFactory(
                championship=championship,
                seed=n,
                name=f"Club {n}",
                venue_name=f"Sede {n}",
                venue_address=f"Calle {n} 100, Buenos Aires",
                home_weekday=(weekday_of or {}).get(n),
                home_time=dt.time(20, 30) if n % 2 else None,
            )
        )
    stage = stage_create(
        championship=championship,
        format="league",
        settings={"cycles": cycles, "first_date": "2026-03-04", "interval": 7, "time": "21:00"},
    )
    round_generate(stage=stage)
    return championship, stage, teams


@pytest.mark.django_db
@pytest.mark.parametrize("count", [6, 7])
def test_a_home_and_away_league_is_dated_and_placed(count):
    championship, stage, _teams = make_league(count, weekday_of={1: 1, 2: 4})
    played = [m for m in stage.matches.select_related("team_a", "round") if m.team_b_id]
    rounds = (count - 1 if count % 2 == 0 else count) * 2
    assert stage.rounds.count() == rounds
    pairs = Counter(frozenset((m.team_a_id, m.team_b_id)) for m in played)
    assert len(pairs) == count * (count - 1) // 2
    assert set(pairs.values()) == {2}
    homes = Counter((m.team_a_id, m.team_b_id) for m in played)
    assert set(homes.values()) == {1}  # each pair once at each club: home and away reversed
    for round_ in stage.rounds.all():
        seen = Counter()
        for m in round_.matches.all():
            seen.update(t for t in (m.team_a_id, m.team_b_id) if t)
        assert max(seen.values()) == 1
    days = Counter()
    for m in played:
        local = timezone.localtime(m.scheduled_at, ZONE)
        assert championship.start_date <= local.date() <= championship.end_date
        monday = m.round.date - dt.timedelta(days=m.round.date.weekday())
        assert monday <= local.date() < monday + dt.timedelta(days=7)
        home = m.team_a
        expected_hour = home.home_time or dt.time(21, 0)
        assert local.time() == expected_hour
        if home.home_weekday is not None:
            assert local.weekday() == home.home_weekday
        else:
            assert local.date() == m.round.date
        assert (m.venue_name, m.venue_address) == (home.venue_name, home.venue_address)
        for team in (m.team_a_id, m.team_b_id):
            days[(team, local.date())] += 1
    assert max(days.values()) == 1
    assert [r.date for r in stage.rounds.all()][:2] == [dt.date(2026, 3, 4), dt.date(2026, 3, 11)]
    with translation.override("en"):
        assert str(stage.rounds.first()) == "Matchday 1"


@pytest.mark.django_db
def test_a_league_is_generated_once_and_inside_the_season():
    _championship, stage, _teams = make_league(4)
    with pytest.raises(TournamentError) as error:
        round_generate(stage=stage)
    assert error.value.code == "no_round_left"
    short = ChampionshipFactory(start_date=dt.date(2026, 3, 1), end_date=dt.date(2026, 3, 20))
    for n in range(4):
        TeamFactory(championship=short, seed=n + 1)
    stage = stage_create(championship=short, format="league", settings={"first_date": "2026-03-04"})
    with translation.override("en"), pytest.raises(TournamentError) as error:
        round_generate(stage=stage)
    assert error.value.code == "outside_season"
    with translation.override("en"):
        assert "outside the season" in str(error.value.messages[0])
    assert not stage.rounds.exists()


def _at(day: dt.date, hour: int = 21) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(hour), tzinfo=ZONE)


@pytest.mark.django_db
def test_postponement_refusals_and_marks(play_match, referee):
    _championship, stage, _teams = make_league(6)
    first = stage.rounds.get(number=1)
    match, other = [m for m in first.matches.select_related("team_a", "team_b") if m.team_b_id][:2]
    organiser = UserFactory()
    with translation.override("en"):
        with pytest.raises(TournamentError) as error:
            league.match_postpone(match=match, to=_at(dt.date(2027, 1, 5)), reason="Lluvia")
        assert error.value.code == "outside_season"
        assert "is outside the season" in error.value.messages[0]
        # Matchday 2's date: both teams already play their matchday-2 match that day.
        busy = stage.matches.filter(round__number=2).filter(
            Q(team_a=match.team_a) | Q(team_b=match.team_a)
        )
        busy_day = timezone.localtime(busy.get().scheduled_at, ZONE).date()
        with pytest.raises(TournamentError) as error:
            league.match_postpone(match=match, to=_at(busy_day, 22), reason="Lluvia")
        assert error.value.code == "team_busy"
        assert "already plays" in error.value.messages[0]
        play_match(other, other.team_a, games=2, referee=referee)
        with pytest.raises(TournamentError) as error:
            league.match_postpone(match=other, to=_at(dt.date(2026, 3, 6)), reason="Lluvia")
        assert error.value.code == "match_decided"
        assert "already decided" in error.value.messages[0]
    before = match.scheduled_at
    moved = league.match_postpone(
        match=match, to=_at(dt.date(2026, 3, 6), 20), reason="Lluvia", by=organiser
    )
    match.refresh_from_db()
    assert match.postponed and match.scheduled_at == _at(dt.date(2026, 3, 6), 20)
    assert match.schedule_sequence == 1
    assert (moved.from_at, moved.reason, moved.by) == (before, "Lluvia", organiser)
    assert Postponement.objects.filter(match=match).count() == 1
    days = fixtures.matchdays(stage=stage)
    line = next(f for f in days[0].fixtures if f.match.pk == match.pk)
    assert line.postponed
    lines = stage_standings(stage=stage, use_snapshot=False)
    assert [m.pk for m in fixtures.postponed_matches(stage=stage)] == [match.pk]
    assert lines  # the standings still list every team


@pytest.mark.django_db
def test_the_organiser_moves_a_matchday_but_never_a_team_twice_a_day():
    championship, stage, _teams = make_league(4)
    with translation.override("en"), pytest.raises(TournamentError) as error:
        league.matchday_set_date(stage=stage, number=1, date=dt.date(2026, 3, 11))
    assert error.value.code == "team_busy"
    league.matchday_set_date(stage=stage, number=1, date=dt.date(2026, 3, 5))
    round_ = stage.rounds.get(number=1)
    assert round_.date == dt.date(2026, 3, 5)
    for match in round_.matches.exclude(team_b=None):
        assert timezone.localtime(match.scheduled_at, ZONE).date() == dt.date(2026, 3, 5)
        assert match.schedule_sequence == 1
    match = round_.matches.exclude(team_b=None).first()
    with pytest.raises(TournamentError):
        league.match_schedule(match=match, scheduled_at=_at(dt.date(2026, 3, 11)))
    league.match_schedule(match=match, scheduled_at=_at(dt.date(2026, 3, 6)), venue_name="Otra")
    match.refresh_from_db()
    assert match.venue_name == "Otra" and not match.postponed
    assert Championship.objects.get(pk=championship.pk)
    assert Match.objects.filter(postponed=True).count() == 0
