"""Writes of the circuits' results: each event's placements, and the final's entries.

:func:`circuit_event_refresh` runs after any change of an event's results, teams or
status (``circuits.tasks``, queued on the announcement): it stores the event's
placements (:func:`placements_store`), then brings the final's qualified teams up to
date (:func:`qualification_sync`):

- when a qualifier has finished, its first ``qualify_per_event`` teams are entered in
  the final, pending the organiser's confirmation; a team already qualified (the same
  people, ``people_key``) is skipped and the next placed team of that qualifier takes
  the place;
- when every qualifier has finished, the best ``qualify_by_points`` teams by circuit
  points not yet qualified are entered too;
- a qualified team whose entry in the final is withdrawn or refused (or whose team is
  deleted) keeps its row, withdrawn, and is never entered again: the next in line (of
  the same qualifier, or by points) takes its place, the new row ``replaces`` it;
- a qualification, once made, stands: a result corrected after a qualifier finished
  does not take a place back. Nothing is entered once the final is in play.

Everything happens under the circuit's row lock, taken first (lock order: circuit, then
championship), so two qualifiers finishing at once enter each team once; the unique
``(circuit, people_key)`` constraint is the last guard. Running it again changes nothing.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext_lazy as _

from tournaments.championships.services import NewTeam, teams_create_many
from tournaments.circuits import selectors
from tournaments.circuits.ranking import people_key
from tournaments.entries.audit import team_act_log
from tournaments.models import (
    Championship,
    Circuit,
    CircuitEvent,
    CircuitPlacement,
    CircuitQualification,
    Entry,
    Membership,
    Team,
    TeamAct,
)
from tournaments.notices.services import notice_qualified
from tournaments.people.services import PersonDetails
from tournaments.signals import announce
from tournaments.standings.placements import championship_placements

Q = CircuitQualification
# The final takes its qualified teams until it starts.
FINAL_OPEN = (Championship.Status.DRAFT, Championship.Status.REGISTRATION)


def lock_circuit(circuit: Circuit) -> Circuit:
    """Lock the circuit's row for the transaction (first, before any championship)."""
    return Circuit.objects.select_for_update().get(pk=circuit.pk)


def team_people_keys(team_ids: Iterable[int]) -> dict[int, str]:
    """Each team's ``people_key`` (one query); a team without players has none."""
    persons: dict[int, list[int]] = defaultdict(list)
    rows = Membership.objects.filter(team_id__in=list(team_ids)).values_list(
        "team_id", "player__person_id"
    )
    for team_id, person_id in rows:
        persons[team_id].append(person_id)
    return {team_id: people_key(ids) for team_id, ids in persons.items()}


def placements_store(*, event: CircuitEvent) -> bool:
    """Rewrite the stored placements of ``event`` from its championship's stages (the
    caller holds the circuit lock). Returns whether they changed."""
    placements = championship_placements(championship=event.championship)
    keys = team_people_keys(p.team_id for p in placements)
    new = {(p.team_id, keys[p.team_id], p.place, p.tied) for p in placements if keys.get(p.team_id)}
    stored = CircuitPlacement.objects.filter(event=event)
    if set(stored.values_list("team_id", "people_key", "place", "tied")) == new:
        return False
    stored.delete()
    CircuitPlacement.objects.bulk_create(
        CircuitPlacement(event=event, team_id=team_id, people_key=key, place=place, tied=tied)
        for team_id, key, place, tied in sorted(new, key=lambda row: (row[2], row[0]))
    )
    return True


@transaction.atomic
def circuit_event_refresh(*, event: CircuitEvent) -> bool:
    """Store the event's placements and bring the final's qualified teams up to date;
    announce the circuit's pages when either changed. Returns whether anything did."""
    circuit = lock_circuit(event.circuit)
    event = CircuitEvent.objects.select_related("championship").get(pk=event.pk)
    before = selectors.person_lines(circuit=circuit)
    changed = placements_store(event=event)
    changed = bool(qualification_sync(circuit=circuit)) or changed
    if changed:
        # The pages of the persons whose line moved, not every person's page: a result
        # moves a few lines of the ranking, and every person's page withdrawn at each
        # result was a tenth of the players' day's work (bench/README.md).
        after = selectors.person_lines(circuit=circuit)
        moved = sorted(pk for pk in before.keys() | after.keys() if before.get(pk) != after.get(pk))
        circuit_announce(circuit=circuit, championship_id=event.championship_id, persons=moved)
    return changed


def circuit_announce(
    *, circuit: Circuit, championship_id: int = 0, persons: list[int] | None = None
) -> None:
    """Tell the live pages that the circuit's ranking or qualifications changed: its own,
    and the pages of ``persons`` (None: every person's page, for a change of the
    circuit's rules or events)."""
    announce(championship_id=championship_id, what="circuit", slug=circuit.slug, persons=persons)


@transaction.atomic
def qualification_sync(*, circuit: Circuit) -> list[CircuitQualification]:
    """Enter, withdraw and replace the final's qualified teams as the module says.
    Returns the qualifications created or marked withdrawn (none when all was up to
    date)."""
    circuit = lock_circuit(circuit)
    events = selectors.circuit_events(circuit=circuit)
    final = next((e for e in events if e.kind == CircuitEvent.Kind.FINAL), None)
    if final is None:
        return []
    qualifiers = [e for e in events if e.kind == CircuitEvent.Kind.QUALIFIER]
    rows = list(
        Q.objects.filter(circuit=circuit).select_related("final_team__entry").order_by("pk")
    )
    created: list[CircuitQualification] = []
    for row in rows:
        if row.status == Q.Status.ENTERED and _out(row):
            row.status = Q.Status.WITHDRAWN
            row.save(update_fields=["status"])
            created.append(row)
    if final.championship.status not in FINAL_OPEN:
        return created
    taken = {row.people_key for row in rows}
    finished = [e for e in qualifiers if e.championship.status == Championship.Status.FINISHED]
    placed = _placements_by_event([e.pk for e in finished])
    unstored = [e for e in finished if e.pk not in placed]
    if unstored:
        # A qualifier finished before it joined the circuit: its placements first.
        for event in unstored:
            placements_store(event=event)
        placed = _placements_by_event([e.pk for e in finished])
    for qualifier in finished:
        created += _fill(
            circuit=circuit,
            final=final,
            event=qualifier,
            seats=circuit.qualify_per_event,
            rows=rows,
            taken=taken,
            candidates=placed.get(qualifier.pk, []),
        )
    points_rows = [r for r in rows if r.event_id is None and r.status == Q.Status.ENTERED]
    if (
        qualifiers
        and len(finished) == len(qualifiers)
        and len(points_rows) < circuit.qualify_by_points
    ):
        # The whole ranking is read only when a points place is free.
        created += _fill(
            circuit=circuit,
            final=final,
            event=None,
            seats=circuit.qualify_by_points,
            rows=rows,
            taken=taken,
            candidates=_by_points(circuit, taken),
        )
    # Each team entered is told (sent once this commits); running again enters nobody.
    notice_qualified(qualifications=created)
    return created


def _out(row: CircuitQualification) -> bool:
    """The qualified team no longer holds its place in the final."""
    team = row.final_team
    if team is None:
        return True
    entry = getattr(team, "entry", None)
    return entry is not None and entry.status in (Entry.Status.WITHDRAWN, Entry.Status.REFUSED)


def _placements_by_event(event_ids: list[int]) -> dict[int, list[tuple[str, int, int]]]:
    placed: dict[int, list[tuple[str, int, int]]] = defaultdict(list)
    if not event_ids:
        return {}
    for event_id, key, team_id, place in (
        CircuitPlacement.objects.filter(event_id__in=event_ids)
        .order_by("event_id", "place", "pk")
        .values_list("event_id", "people_key", "team_id", "place")
    ):
        placed[event_id].append((key, team_id, place))
    return dict(placed)


def _by_points(circuit: Circuit, taken: set[str]) -> list[tuple[str, int, int]]:
    """The teams by circuit points, best first, each with the team of its latest
    placement (whose line-up enters the final) and its rank."""
    ranking = selectors.circuit_ranking(circuit=circuit)
    keys = [line.key for line in ranking.teams if line.key not in taken and line.points > 0]
    latest: dict[str, int] = {}
    for key, team_id in (
        CircuitPlacement.objects.filter(event__circuit=circuit, people_key__in=keys)
        .order_by("event__championship__start_date", "pk")
        .values_list("people_key", "team_id")
    ):
        latest[key] = team_id
    ranks = {line.key: line.rank for line in ranking.teams}
    return [(key, latest[key], ranks[key]) for key in keys if key in latest]


def _fill(
    *,
    circuit: Circuit,
    final: CircuitEvent,
    event: CircuitEvent | None,
    seats: int,
    rows: list[CircuitQualification],
    taken: set[str],
    candidates: list[tuple[str, int, int]],
) -> list[CircuitQualification]:
    """Enter the next candidates until the ``seats`` of ``event`` (None: by points) are
    held, each new one replacing a withdrawn row of the same seats not yet replaced."""
    mine = [row for row in rows if row.event_id == (event.pk if event else None)]
    holding = sum(1 for row in mine if row.status == Q.Status.ENTERED)
    replaced = {row.replaces_id for row in rows if row.replaces_id}
    vacated = [row for row in mine if row.status == Q.Status.WITHDRAWN and row.pk not in replaced]
    created = []
    for key, team_id, place in candidates:
        if holding >= seats:
            break
        if key in taken:
            continue
        source = Team.objects.select_related("championship").get(pk=team_id)
        replaces = vacated.pop(0) if vacated else None
        team = _enter(final=final, source=source, event=event, place=place, replaces=replaces)
        row = Q.objects.create(
            circuit=circuit,
            people_key=key,
            event=event,
            place=place,
            source_team=source,
            final_team=team,
            replaces=replaces,
        )
        rows.append(row)
        taken.add(key)
        holding += 1
        created.append(row)
    return created


def _enter(
    *,
    final: CircuitEvent,
    source: Team,
    event: CircuitEvent | None,
    place: int,
    replaces: CircuitQualification | None,
) -> Team:
    """Enter a copy of ``source`` (its people, names, club, captain) in the final,
    pending the organiser's confirmation, and log it in the final's audit log."""
    championship = final.championship
    members = list(
        Membership.objects.filter(team=source).select_related("player__person").order_by("order")
    )
    captain = next((m.player.name for m in members if m.is_captain), None)
    team = teams_create_many(
        championship=championship,
        teams=[
            NewTeam(
                name=_free_name(championship, source, event),
                club=source.club,
                players=[
                    PersonDetails(name=m.player.name, club=m.player.club, person=m.player.person)
                    for m in members
                ],
                captain=captain,
            )
        ],
    )[0]
    last = Entry.objects.filter(championship=championship).aggregate(last=Max("position"))["last"]
    Entry.objects.create(
        championship=championship,
        team=team,
        status=Entry.Status.PENDING,
        position=(last or 0) + 1,
    )
    # The detail names where the place was won (the qualifier, or the circuit's points)
    # and, for a replacement, the team replaced: the log's reader needs no other page.
    detail = f"{source.championship.name}: {place}"
    if event is None:
        detail = f"{_('circuit points')}: {place}"
    if replaces is not None:
        gone = replaces.final_team.name if replaces.final_team else replaces.people_key
        detail += f" · {_('replaces')} {gone}"
    action = TeamAct.Action.REPLACEMENT if replaces is not None else TeamAct.Action.QUALIFIED
    team_act_log(team=team, action=action, via=TeamAct.Via.CIRCUIT, detail=detail)
    return team


def _free_name(championship: Championship, source: Team, event: CircuitEvent | None) -> str:
    """The source team's name, or with its qualifier's place when the final has it."""
    taken = set(championship.teams.values_list("name", flat=True))
    name = source.name
    if name not in taken:
        return name
    where = event.place if event is not None and event.place else source.championship.name
    candidate = f"{name} ({where})"
    number = 2
    while candidate in taken:
        candidate = f"{name} ({where} {number})"
        number += 1
    return candidate
