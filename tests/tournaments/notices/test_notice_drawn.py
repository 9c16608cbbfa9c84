"""The notices Tanteo sends by itself: each team told its next match when a round is
drawn (its opponents, table and time where known, or its bye), and each team entered in
its circuit's final told it qualified. Through Django's mail outbox, in the team's
language, once per team however often the same round is drawn."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.utils import timezone

from tests.tournaments.circuits.conftest import (
    enter,
    make_circuit,
    make_event,
    people,  # noqa: F401
    play_knockout,
)
from tests.tournaments.conftest import play
from tests.tournaments.factories import ChampionshipFactory
from tests.tournaments.notices.conftest import entered
from tournaments.circuits.qualification import qualification_sync
from tournaments.models import Championship, CircuitEvent, Entry, Notice, NoticeMark, Stage
from tournaments.notices import services
from tournaments.stages import services as stage_services


def _bodies() -> dict[str, str]:
    return {m.to[0]: m.body for m in mail.outbox}


@pytest.mark.parametrize(
    ("language", "plays", "bye"),
    [
        (
            "es",
            "Ronda 1 ya está sorteada: {team} juega contra {other}.",
            "Ronda 1 ya está sorteada: {team} descansa, no juega esta ronda.",
        ),
        (
            "ca",
            "Ronda 1 ja està sortejada: {team} juga contra {other}.",
            "Ronda 1 ja està sortejada: {team} descansa, no juga aquesta ronda.",
        ),
        (
            "en",
            "Round 1 is drawn: {team} plays {other}.",
            "Round 1 is drawn: {team} has a bye, it does not play this round.",
        ),
    ],
)
def test_a_round_drawn_tells_each_team_its_opponent_or_its_bye(
    championship, django_capture_on_commit_callbacks, language, plays, bye
):
    for seed, name in enumerate(["Los Pardos", "Los Anchos", "Los Terceros"], start=1):
        entered(championship, language=language, name=name, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    with django_capture_on_commit_callbacks(execute=True):
        matches = stage_services.round_generate(stage=stage)
    bodies = _bodies()
    assert len(bodies) == 3
    (match,) = [m for m in matches if m.team_b_id]
    (resting,) = [m.team_a for m in matches if not m.team_b_id]
    for team, other in ((match.team_a, match.team_b), (match.team_b, match.team_a)):
        assert plays.format(team=team.name, other=other.name) in bodies[team.entry.email]
    assert bye.format(team=resting.name) in bodies[resting.entry.email]
    notices = Notice.objects.filter(kind=Notice.Kind.DRAWN)
    assert notices.count() == 3 and {n.state for n in notices} == {Notice.State.SENT}
    assert {n.match_id for n in notices} == {m.pk for m in matches}


def test_the_same_round_drawn_again_within_a_minute_is_told_once(
    championship, django_capture_on_commit_callbacks
):
    for seed in range(1, 5):
        entered(championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    with django_capture_on_commit_callbacks(execute=True):
        stage_services.round_generate(stage=stage)
    assert len(mail.outbox) == 4
    with django_capture_on_commit_callbacks(execute=True):
        stage_services.round_remove(stage=stage, number=1)
        stage_services.round_generate(stage=stage)
    assert len(mail.outbox) == 4
    # The next round is news: told.
    with django_capture_on_commit_callbacks(execute=True):
        stage_services.round_generate(stage=stage)
    assert len(mail.outbox) == 8


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("es", ["Mesa: 4", "Cuándo: viernes 6 de marzo, 21:30"]),
        ("ca", ["Taula: 4", "Quan: divendres 6 de març, 21:30"]),
        ("en", ["Table: 4", "When: Friday 6 March, 21:30"]),
    ],
)
def test_a_match_drawn_with_its_table_and_time_says_them_in_the_championships_zone(
    championship, django_capture_on_commit_callbacks, language, words
):
    for seed in (1, 2):
        entered(championship, language=language, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    match.table = "4"
    match.scheduled_at = timezone.make_aware(dt.datetime(2026, 3, 6, 21, 30), championship.zone)
    match.save()
    Notice.objects.all().delete()
    NoticeMark.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=True):
        services.notice_matches_drawn(matches=[match])
    assert len(mail.outbox) == 2
    assert all(w in m.body for m in mail.outbox for w in words)


def test_a_league_drawn_for_the_season_tells_each_team_its_first_matchday(
    championship, django_capture_on_commit_callbacks
):
    championship.start_date = dt.date(2026, 3, 1)
    championship.end_date = dt.date(2026, 12, 20)
    championship.save()
    for seed in range(1, 5):
        entered(championship, seed=seed, venue_name="Casal de Gràcia")
    stage = stage_services.stage_create(
        championship=championship,
        format=Stage.LEAGUE,
        settings={"first_date": "2026-03-04", "interval": 7, "time": "21:00"},
    )
    with django_capture_on_commit_callbacks(execute=True):
        stage_services.round_generate(stage=stage)
    # Six matchdays drawn at once: one mail per team, of its first.
    assert len(mail.outbox) == 4
    assert all("Matchday 1 is drawn" in m.body for m in mail.outbox)
    assert all("When: Wednesday 4 March, 21:00" in m.body for m in mail.outbox)


def test_the_next_bracket_match_is_told_once_its_teams_are_known(
    db, django_capture_on_commit_callbacks
):
    championship = ChampionshipFactory(slug="copa-cuadro", status=Championship.Status.RUNNING)
    for seed in range(1, 5):
        entered(championship, seed=seed, name=f"T{seed}")
    stage = stage_services.stage_create(championship=championship, format="single_elimination")
    semis = stage_services.round_generate(stage=stage)
    assert Notice.objects.filter(kind=Notice.Kind.DRAWN).count() == 4
    first, second = sorted(semis, key=lambda m: m.pk)
    play(first, first.team_a)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        play(second, second.team_a)
    final = stage.matches.get(round__label__startswith="W2")
    told = _bodies()
    assert sorted(told) == sorted(t.entry.email for t in (final.team_a, final.team_b))
    assert f"plays {final.team_b.name}" in told[final.team_a.entry.email]
    assert "Final is drawn" in told[final.team_a.entry.email]


def _give_entries(event: CircuitEvent, language: str) -> None:
    for number, team in enumerate(event.championship.teams.order_by("pk"), start=1):
        Entry.objects.create(
            championship=event.championship,
            team=team,
            status=Entry.Status.ACCEPTED,
            position=number,
            email=f"q{team.pk}@example.org",
            language=language,
        )


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("es", "se ha clasificado para Final 20, la final de Circuito Balear"),
        ("ca", "s'ha classificat per a Final 20, la final de Circuito Balear"),
        ("en", "qualified for Final 20, the final of Circuito Balear"),
    ],
)
def test_a_team_entered_in_the_circuits_final_is_told_it_qualified(
    people,  # noqa: F811
    django_capture_on_commit_callbacks,
    language,
    words,
):
    p = people
    circuit = make_circuit(name="Circuito Balear", qualify_per_event=1)
    inca = make_event(circuit, day=1, place="Inca")
    final = make_event(
        circuit, day=20, kind=CircuitEvent.Kind.FINAL, status=Championship.Status.REGISTRATION
    )
    final.championship.name = "Final 20"
    final.championship.save()
    winners, runners = enter(inca, [(p["a"], p["b"]), (p["c"], p["d"])])
    _give_entries(inca, language)
    play_knockout(inca)
    Championship.objects.filter(pk=inca.championship_id).update(status=Championship.Status.FINISHED)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        (row,) = qualification_sync(circuit=circuit)
    sent = mail.outbox
    assert [m.to for m in sent] == [[winners.entry.email]]
    assert words in sent[0].body
    assert f"/c/{final.championship.slug}/" in sent[0].body
    # The address stays with the qualifier's entry: the final's holds none.
    assert row.final_team.entry.email == ""
    notice = Notice.objects.get(kind=Notice.Kind.QUALIFIED)
    assert notice.championship_id == inca.championship_id and notice.team == winners
    # Running again enters nobody and tells nobody.
    with django_capture_on_commit_callbacks(execute=True):
        assert qualification_sync(circuit=circuit) == []
    assert len(mail.outbox) == 1
    # The runner-up did not qualify: never told.
    assert not Notice.objects.filter(kind=Notice.Kind.QUALIFIED, team=runners).exists()
