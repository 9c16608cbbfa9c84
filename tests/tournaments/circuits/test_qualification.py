"""Qualification and the automatic entry into the final, from qualifiers played through the
services and finished through ``championship_set_status`` (the announcement queues the
circuit's refresh, run eagerly in the tests)."""

from decimal import Decimal

from tests.tournaments.circuits.conftest import enter, make_circuit, make_event, play_knockout
from tournaments.championships.services import championship_set_status
from tournaments.circuits import tasks
from tournaments.circuits.qualification import qualification_sync
from tournaments.circuits.ranking import people_key
from tournaments.circuits.selectors import circuit_qualifications, circuit_ranking
from tournaments.entries.services import entry_refuse, entry_withdraw
from tournaments.models import (
    Championship,
    CircuitEvent,
    CircuitPlacement,
    CircuitQualification,
    Entry,
    Team,
    TeamAct,
)


def key(*persons):
    return people_key(p.pk for p in persons)


def finish(commit, event):
    commit(
        championship_set_status,
        championship=event.championship,
        status=Championship.Status.FINISHED,
    )


def final_entries(final):
    """The final's entered teams as (people_key, entry status)."""
    from tournaments.circuits.qualification import team_people_keys

    teams = list(Team.objects.filter(championship=final.championship).select_related("entry"))
    keys = team_people_keys(t.pk for t in teams)
    return sorted((keys[t.pk], t.entry.status) for t in teams)


def season(people, **rules):
    """Two qualifiers (Inca, Manacor) and a final: Ana & Bea win both."""
    p = people
    circuit = make_circuit(**rules)
    inca = make_event(circuit, day=1, place="Inca")
    manacor = make_event(circuit, day=2, place="Manacor")
    final = make_event(
        circuit,
        day=20,
        kind=CircuitEvent.Kind.FINAL,
        place="Palma",
        status=Championship.Status.REGISTRATION,
    )
    enter(inca, [(p["a"], p["b"]), (p["c"], p["d"]), (p["e"], p["f"]), (p["g"], p["h"])])
    enter(manacor, [(p["a"], p["b"]), (p["i"], p["j"]), (p["c"], p["d"]), (p["k"], p["l"])])
    play_knockout(inca)
    play_knockout(manacor)
    return circuit, inca, manacor, final


def test_points_from_finished_events_with_shared_places_and_best_n(people, commit):
    p = people
    circuit, inca, manacor, _final = season(people, best_of=1)
    finish(commit, inca)
    finish(commit, manacor)
    stored = CircuitPlacement.objects.filter(event=inca).order_by("place", "pk")
    assert [(row.people_key, row.place, row.tied) for row in stored] == [
        (key(p["a"], p["b"]), 1, False),
        (key(p["c"], p["d"]), 2, False),
        (key(p["e"], p["f"]), 3, True),  # the semi-final losers share 3rd
        (key(p["g"], p["h"]), 3, True),
    ]
    ranking = circuit_ranking(circuit=circuit)
    teams = {line.key: line for line in ranking.teams}
    assert teams[key(p["a"], p["b"])].points == 100  # best of 1: one win counts
    cai_dan = teams[key(p["c"], p["d"])]
    assert cai_dan.points == 70
    assert [(r.place, r.tied, r.points, r.counted) for r in cai_dan.results] == [
        (2, False, Decimal(70), True),
        (3, True, Decimal(50), False),
    ]
    # 70 each; Cai & Dan played one event more than Ina & Joan.
    assert cai_dan.rank == 2 and teams[key(p["i"], p["j"])].rank == 3
    # Both 3rds of Inca and the other 3rd of Manacor: 50 each, equal on every tie-break.
    thirds = [teams[key(p[x], p[y])] for x, y in ("ef", "gh", "kl")]
    assert {(line.rank, line.tied) for line in thirds} == {(4, True)}
    persons = {line.name: line for line in ranking.persons}
    assert persons["Cai"].points == 70 and persons["Dan"].rank == persons["Cai"].rank


def test_qualified_teams_enter_the_final_pending_skip_and_replacement(people, commit):
    p = people
    circuit, inca, manacor, final = season(
        people, best_of=1, qualify_per_event=1, qualify_by_points=1
    )
    finish(commit, inca)
    # Inca's winner is entered in the final, pending the organiser's confirmation, with
    # the same people.
    assert final_entries(final) == [(key(p["a"], p["b"]), Entry.Status.PENDING)]
    (first,) = circuit_qualifications(circuit=circuit)
    assert (first.event, first.place, first.status) == (
        inca,
        1,
        CircuitQualification.Status.ENTERED,
    )
    assert first.final_team.entry.status == Entry.Status.PENDING
    assert set(first.final_team.players.values_list("person_id", flat=True)) == {
        p["a"].pk,
        p["b"].pk,
    }
    act = TeamAct.objects.get(team=first.final_team, action=TeamAct.Action.QUALIFIED)
    assert act.via == TeamAct.Via.CIRCUIT and "Inca" in act.detail

    finish(commit, manacor)
    # Ana & Bea won Manacor too: skipped, Manacor's runners-up take its place; every
    # qualifier finished, the best team by points not yet qualified enters too.
    assert final_entries(final) == sorted(
        [
            (key(p["a"], p["b"]), Entry.Status.PENDING),
            (key(p["i"], p["j"]), Entry.Status.PENDING),
            (key(p["c"], p["d"]), Entry.Status.PENDING),
        ]
    )
    rows = {row.people_key: row for row in circuit_qualifications(circuit=circuit)}
    assert (rows[key(p["i"], p["j"])].event, rows[key(p["i"], p["j"])].place) == (manacor, 2)
    assert rows[key(p["c"], p["d"])].event is None  # by points
    assert circuit_ranking(circuit=circuit).teams[0].qualified

    # Manacor's qualified team withdraws: the next of Manacor not qualified yet (Cai &
    # Dan are, by points) takes its place.
    withdrawn = rows[key(p["i"], p["j"])]
    commit(entry_withdraw, team=withdrawn.final_team, via=TeamAct.Via.LINK)
    withdrawn.refresh_from_db()
    assert withdrawn.status == CircuitQualification.Status.WITHDRAWN
    replacement = CircuitQualification.objects.get(replaces=withdrawn)
    assert (replacement.people_key, replacement.event, replacement.place) == (
        key(p["k"], p["l"]),
        manacor,
        3,
    )
    act = TeamAct.objects.get(team=replacement.final_team, action=TeamAct.Action.REPLACEMENT)
    assert withdrawn.final_team.name in act.detail

    # The organiser refuses the team qualified by points: the next by points replaces it.
    by_points = rows[key(p["c"], p["d"])]
    commit(entry_refuse, entry=by_points.final_team.entry, by=None, via="organiser", reason="No")
    after = CircuitQualification.objects.get(replaces=by_points)
    assert after.event is None
    assert after.people_key in {key(p["e"], p["f"]), key(p["g"], p["h"])}  # 50 points, 4th=
    entered = [k for k, status in final_entries(final) if status == Entry.Status.PENDING]
    # Three places (one per qualifier, one by points), held by three teams.
    assert sorted(entered) == sorted([key(p["a"], p["b"]), key(p["k"], p["l"]), after.people_key])

    # Idempotent: running it again, or the task again, changes nothing.
    before = (
        list(CircuitQualification.objects.values_list("pk", "status", "replaces_id")),
        Team.objects.filter(championship=final.championship).count(),
        TeamAct.objects.filter(championship=final.championship).count(),
    )
    assert qualification_sync(circuit=circuit) == []
    assert tasks.refresh_circuit_event(inca.championship_id) is False
    assert tasks.refresh_circuit_event(final.championship_id) is False
    assert before == (
        list(CircuitQualification.objects.values_list("pk", "status", "replaces_id")),
        Team.objects.filter(championship=final.championship).count(),
        TeamAct.objects.filter(championship=final.championship).count(),
    )


def test_no_points_places_until_every_qualifier_finishes(people, commit):
    _circuit, inca, manacor, final = season(people, qualify_per_event=2, qualify_by_points=2)
    finish(commit, inca)
    assert len(final_entries(final)) == 2
    assert not CircuitQualification.objects.filter(event__isnull=True).exists()
    finish(commit, manacor)
    # Manacor: Ana & Bea and Cai & Dan already in, so Ina & Joan and one 3rd; then two
    # by points.
    assert CircuitQualification.objects.filter(event=manacor).count() == 2
    assert CircuitQualification.objects.filter(event__isnull=True).count() == 2
    assert len(final_entries(final)) == 6


def test_a_result_changed_in_an_event_announces_the_circuit(people, commit, monkeypatch):
    _circuit, inca, _manacor, _final = season(people)
    seen = []
    monkeypatch.setattr(
        tasks.qualification,
        "circuit_announce",
        lambda *, circuit, championship_id=0, persons=None: seen.append(
            (circuit.slug, championship_id)
        ),
    )
    # A running event: its placements are stored as results come (provisional).
    assert tasks.refresh_circuit_event(inca.championship_id) is True
    assert seen == [("circuit", inca.championship_id)]
    assert CircuitPlacement.objects.filter(event=inca).count() == 4
    assert tasks.refresh_circuit_event(inca.championship_id) is False  # nothing changed
    assert len(seen) == 1


def test_a_result_recorded_in_an_event_reaches_its_placements(people, commit):
    """The real path: the result's announcement (on commit) queues the refresh, which
    stores the event's provisional placements and announces the circuit."""
    from tests.tournaments.conftest import play
    from tournaments.models import Match
    from tournaments.stages import services as stage_services

    p = people
    circuit = make_circuit()
    inca = make_event(circuit, day=1, place="Inca")
    enter(inca, [(p["a"], p["b"]), (p["c"], p["d"])])
    stage = stage_services.stage_create(championship=inca.championship, format="round_robin")
    (match,) = [m for m in stage_services.round_generate(stage=stage) if not m.is_bye]
    assert not CircuitPlacement.objects.filter(event=inca).exists()
    announced = []
    from tournaments import signals

    def listen(sender, **kwargs):
        if kwargs["what"] == "circuit":
            announced.append(kwargs["slug"])

    signals.changed.connect(listen, dispatch_uid="test-circuit-listen")
    try:
        commit(play, match=Match.objects.get(pk=match.pk), winner=match.team_b)
    finally:
        signals.changed.disconnect(dispatch_uid="test-circuit-listen")
    rows = CircuitPlacement.objects.filter(event=inca).order_by("place")
    assert [(r.people_key, r.place) for r in rows] == [
        (key(p["c"], p["d"]), 1),
        (key(p["a"], p["b"]), 2),
    ]
    assert announced and set(announced) == {"circuit"}


def test_a_result_bumps_the_pages_of_the_persons_whose_line_moved_and_no_other(people, commit):
    """A result in an event moves a few lines of the ranking: the pages of those persons
    are renewed (a player of another event whose rank it moved too), not every
    person's page."""
    from tests.tournaments.conftest import play
    from tournaments.live import PEOPLE, person_topic, versions
    from tournaments.models import Match
    from tournaments.stages import services as stage_services

    p = people
    circuit = make_circuit()  # places score 100, 70, 50...
    manacor = make_event(circuit, day=1, place="Manacor")
    enter(manacor, [(p["e"], p["f"]), (p["g"], p["h"])])
    play_knockout(manacor)
    tasks.refresh_circuit_event(manacor.championship_id)  # e, f: 100, first; g, h: 70
    inca = make_event(circuit, day=2, place="Inca")
    inca.weight = Decimal("0.8")
    inca.save()
    enter(inca, [(p["a"], p["b"]), (p["c"], p["d"])])
    stage = stage_services.stage_create(championship=inca.championship, format="round_robin")
    (match,) = [m for m in stage_services.round_generate(stage=stage) if not m.is_bye]
    watched = [PEOPLE, *(person_topic(p[name].pk) for name in "abcdefghi")]
    before = dict(zip(watched, versions.versions(watched), strict=True))

    # c and d win Inca: 80 points, second, ahead of g and h, now third.
    commit(play, match=Match.objects.get(pk=match.pk), winner=match.team_b)
    after = dict(zip(watched, versions.versions(watched), strict=True))
    moved = {topic for topic in watched if after[topic] != before[topic]}
    ranking = circuit_ranking(circuit=circuit)
    ranks = {line.name: line.rank for line in ranking.persons}
    assert ranks == {"Eva": 1, "Fer": 1, "Cai": 3, "Dan": 3, "Gil": 5, "Hug": 5, "Ana": 7, "Bea": 7}
    assert moved == {person_topic(p[name].pk) for name in "abcdgh"}


def test_the_circuit_announcement_bumps_its_topic_and_the_people_pages(db):
    from tournaments.live import announce, circuit_topic, versions

    topics = [circuit_topic("obert"), "people", "k.other"]
    before = versions.versions(topics)
    announce.on_changed(None, championship_id=0, what="circuit", slug="obert")
    after = versions.versions(topics)
    assert after[0] != before[0] and after[1] != before[1]
    assert after[2] == before[2]  # another circuit's pages stay cached


def test_a_qualifier_finished_before_it_joined_the_circuit_still_qualifies(people):
    p = people
    circuit = make_circuit(qualify_per_event=1)
    inca = make_event(circuit, day=1, place="Inca")
    final = make_event(
        circuit, day=20, kind=CircuitEvent.Kind.FINAL, status=Championship.Status.REGISTRATION
    )
    enter(inca, [(p["a"], p["b"]), (p["c"], p["d"])])
    play_knockout(inca)
    Championship.objects.filter(pk=inca.championship_id).update(status=Championship.Status.FINISHED)
    assert not CircuitPlacement.objects.exists()  # no announcement reached the circuit
    (row,) = qualification_sync(circuit=circuit)
    assert row.people_key == key(p["a"], p["b"])
    assert final_entries(final) == [(key(p["a"], p["b"]), Entry.Status.PENDING)]
    # Withdrawn: its row says so (the circuit's pages are told) and the runner-up enters.
    row.final_team.entry.status = Entry.Status.WITHDRAWN
    row.final_team.entry.save()
    changed = qualification_sync(circuit=circuit)
    assert changed[0].status == CircuitQualification.Status.WITHDRAWN
    assert CircuitQualification.objects.get(replaces=row).people_key == key(p["c"], p["d"])
