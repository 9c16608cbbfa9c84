"""Writes of ratings: one match rated (or rated again with every later one), the whole
history rebuilt, a championship's teams seeded by their players' ratings.

**The order.** A family's rated matches (``played.rated_matches``) are rated one after
the other in the order of their key: the decision time (``Match.finished_at``), then the
match's pk. The incremental update and the rebuild share that order and the same code
(:func:`_replay`), and the floats are stored as they come (double precision), so
``ratings_rebuild`` gives exactly the numbers the updates gave.

**A change in the past.** A match whose result was corrected, voided (undecided again),
turned into a walkover, or whose players changed, is rated again from its key on: every
rating change of the family from there is removed, each person concerned goes back to his
rating before the first of them, and every rated match of the family from there is
rated again in order. A match that is rated already as it stands is left alone, so a
task run twice rates once.

Writers of one family take one lock (an advisory lock on PostgreSQL; SQLite writes one
at a time anyway), so two replays never interleave.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable
from typing import Any

from django.db import connection, transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.championships.selectors import can_manage
from tournaments.errors import TournamentError
from tournaments.models import (
    Championship,
    Match,
    Rating,
    RatingChange,
    RatingFamily,
    Team,
)
from tournaments.ratings import skill
from tournaments.ratings.played import BULK, Key, Played, played
from tournaments.signals import announce

State = tuple[float, float, int]
"""A person's ``(mu, sigma, rated matches)``."""

BATCH = 5000
FEW = 8


@transaction.atomic
def rating_update(*, match: Match) -> int:
    """Rate ``match`` as it stands now, and every later match of its family if it changed
    the past. Returns how many matches were rated (0: it was rated already as it is, or is
    not rated and never was).

    Called by the ``tasks.rate_match`` task after a result is decided, corrected, voided
    or walked over.
    """
    match = Match.objects.select_related("stage__championship").filter(pk=match.pk).first()
    if match is None:
        return 0
    championship = match.stage.championship
    family = skill.family_of(championship)
    _lock(family)
    now = played(Match.objects.filter(pk=match.pk))
    before = list(
        RatingChange.objects.filter(match_id=match.pk).values_list(
            "person_id", "place", "decided_at"
        )
    )
    if _rated_as_it_is(now, before):
        return 0
    start = min([game.key for game in now] + [(at, match.pk) for _p, _w, at in before])
    undone = list(
        _from(family, start)
        .order_by("decided_at", "match_id")
        .values_list("person_id", "mu_before", "sigma_before", "number", "match_id")
    )
    # What is rated again: the matches rated from ``start`` on, as they stand now, and this
    # one. (A match decided meanwhile whose own task has not run yet is left to it.)
    again = {row[4] for row in undone} - {match.pk}
    if not again:  # the usual case: the newest result, nothing after it to rate again
        games = now
    elif len(again) < BULK:
        games = played(Match.objects.filter(pk__in=again | {match.pk}))
    else:
        games = played(
            Match.objects.filter(
                stage__championship_id__in=_championships(family), finished_at__gte=start[0]
            )
        )
    games = [game for game in games if game.key >= start]
    base: dict[int, State] = {}
    for person, mu, sigma, number, _match in undone:
        base.setdefault(person, (mu, sigma, number - 1))
    persons = set(base) | {p for game in games for p in game.persons}
    stored = {r.person_id: r for r in Rating.objects.filter(family=family, person_id__in=persons)}
    for person, rating in stored.items():
        base.setdefault(person, (rating.mu, rating.sigma, rating.matches))
    changes, states, last = _replay(family, games, base)
    if undone:
        _from(family, start).delete()
    if before:
        RatingChange.objects.filter(match_id=match.pk).delete()
    _insert(changes)
    _store(family, persons, base, states, last, stored)
    single = [game.match_id for game in games] == [match.pk] or not games
    announce(
        championship_id=championship.pk,
        slug=championship.slug,
        what="ratings",
        match_id=match.pk if single else None,
    )
    return len(games)


def ratings_rebuild(*, family: str | None = None) -> dict[str, int]:
    """Rate every family (or ``family``) again from its first match, from the stored
    results alone; returns the matches rated per family. One transaction per family.

    Deterministic: the same stored results give the same numbers, and the numbers the
    incremental updates gave. Everything is read at once, computed in memory and written
    in bulk.
    """
    families = [family] if family else list(RatingFamily.values)
    return {name: _rebuild(name) for name in families}


@transaction.atomic
def _rebuild(family: str) -> int:
    _lock(family)
    games = played(Match.objects.filter(stage__championship_id__in=_championships(family)))
    RatingChange.objects.filter(family=family).delete()
    Rating.objects.filter(family=family).delete()
    changes, states, last = _replay(family, games, {})
    _insert(changes)
    Rating.objects.bulk_create(
        (_rating(family, person, state, last[person]) for person, state in states.items()),
        batch_size=BATCH,
    )
    announce(championship_id=0, slug=None, what="ratings")
    return len(games)


@transaction.atomic
def teams_seed_by_rating(*, championship: Championship, by: Any) -> list[Team]:
    """Seed ``championship``'s teams by their players' ratings in its family; returns the
    teams in their new seed order (seeds 1, 2, 3...).

    A team's strength is the mean of its players' ordinals (mu − 3 sigma), a player not
    rated yet counting as a newcomer (0). Teams none of whose players is rated come last,
    in their current order (seed, then name); so do ties. Seeds may change only before
    the teams have matches (as in ``team_update``).
    """
    if by is not None and not can_manage(by, championship):
        raise TournamentError(
            _("Only the championship's organisers may seed its teams."), code="not_organiser"
        )
    # The teams' rows, locked: a team added or edited meanwhile waits for the seeds.
    teams = list(
        Team.objects.select_for_update()
        .filter(championship=championship)
        .order_by("pk")
        .prefetch_related("memberships__player")
    )
    teams.sort(key=lambda t: (t.seed is None, t.seed or 0, t.name, t.pk))
    if Match.objects.of_teams(teams).exists():
        raise TournamentError(
            _("The teams have matches: their seeds can no longer change."), code="seed_locked"
        )
    family = skill.family_of(championship)
    persons = {m.player.person_id for t in teams for m in t.memberships.all()}
    ordinals = dict(
        Rating.objects.filter(family=family, person_id__in=persons).values_list(
            "person_id", "ordinal"
        )
    )

    def strength(team: Team) -> tuple[int, float]:
        members = [m.player.person_id for m in team.memberships.all()]
        if not any(p in ordinals for p in members):
            return (1, 0.0)
        return (0, -sum(ordinals.get(p, 0.0) for p in members) / len(members))

    ranked = sorted(teams, key=strength)  # stable: ties keep the current order
    for seed, team in enumerate(ranked, start=1):
        team.seed = seed
    Team.objects.bulk_update(ranked, ["seed"])
    announce(championship_id=championship.pk, slug=championship.slug, what="team")
    return ranked


# The replay ---------------------------------------------------------------------------


COLUMNS = (
    "person_id",
    "family",
    "match_id",
    "decided_at",
    "won",
    "place",
    "number",
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
)
"""A rating change as :func:`_replay` makes it: a tuple of these, for a bulk write."""


def _replay(
    family: str, games: Iterable[Played], base: dict[int, State]
) -> tuple[list[tuple], dict[int, State], dict[int, Played]]:
    """Rate ``games`` in order from the persons' ``base`` states (a newcomer's when
    absent): the rating changes (tuples of :data:`COLUMNS`), each person's state after
    them and his last game."""
    states = dict(base)
    last: dict[int, Played] = {}
    changes: list[tuple] = []
    newcomer = (skill.MU, skill.SIGMA, 0)
    for game in games:
        sides = [[states.get(p, newcomer) for p in side] for side in game.sides]
        rated = skill.rate([[s[:2] for s in side] for side in sides], game.places)
        for persons, befores, afters, place in zip(
            game.sides, sides, rated, game.places, strict=True
        ):
            for person, (mu, sigma, count), (new_mu, new_sigma) in zip(
                persons, befores, afters, strict=True
            ):
                changes.append(
                    (
                        person,
                        family,
                        game.match_id,
                        game.decided_at,
                        place == 1,
                        place,
                        count + 1,
                        mu,
                        sigma,
                        new_mu,
                        new_sigma,
                    )
                )
                states[person] = (new_mu, new_sigma, count + 1)
                last[person] = game
    return changes, states, last


def _insert(changes: list[tuple]) -> None:
    """Write rating changes in bulk: PostgreSQL's COPY (several times faster than
    INSERTs for a rebuild's hundreds of thousands), else ``bulk_create``."""
    if connection.vendor == "postgresql" and len(changes) > BATCH:
        table = RatingChange._meta.db_table
        with connection.cursor() as cursor:
            raw = cursor.cursor  # psycopg's own cursor, under Django's wrapper
            with raw.copy(f'COPY "{table}" ({", ".join(COLUMNS)}) FROM STDIN') as copy:
                for row in changes:
                    copy.write_row(row)
        return
    RatingChange.objects.bulk_create(
        (RatingChange(**dict(zip(COLUMNS, row, strict=True))) for row in changes),
        batch_size=BATCH,
    )


def _store(
    family: str,
    persons: set[int],
    base: dict[int, State],
    states: dict[int, State],
    last: dict[int, Played],
    stored: dict[int, Rating],
) -> None:
    """Each person's current rating after a replay: from his last replayed game, else from
    where the replay started (his last remaining change), else none."""
    create: list[Rating] = []
    update: list[Rating] = []
    remove: list[int] = []
    for person in persons:
        state = states.get(person)
        game = last.get(person)
        if game is None:
            if state is None or state[2] == 0:
                remove.append(person)
                continue
            kept = (
                RatingChange.objects.filter(person_id=person, family=family)
                .order_by("-decided_at", "-match_id")
                .values_list("match_id", "decided_at")
                .first()
            )
            if kept is None:
                remove.append(person)
                continue
            game = Played(match_id=kept[0], decided_at=kept[1], sides=(), places=())
        rating = _rating(family, person, state, game)
        if person in stored:
            rating.pk = stored[person].pk
            update.append(rating)
        else:
            create.append(rating)
    if remove:
        Rating.objects.filter(family=family, person_id__in=remove).delete()
    fields = ["mu", "sigma", "ordinal", "matches", "last_match", "last_at"]
    if len(update) > FEW:
        Rating.objects.bulk_update(update, fields, batch_size=BATCH)
    else:  # a match's players: plain updates beat bulk_update's CASE on a few rows
        for rating in update:
            rating.save(update_fields=fields)
    if create:
        Rating.objects.bulk_create(create)


def _rating(family: str, person: int, state: State, game: Played) -> Rating:
    mu, sigma, count = state
    return Rating(
        person_id=person,
        family=family,
        mu=mu,
        sigma=sigma,
        ordinal=skill.ordinal(mu, sigma),
        matches=count,
        last_match_id=game.match_id,
        last_at=game.decided_at,
    )


def _rated_as_it_is(now: list[Played], before: list[tuple[int, int, Any]]) -> bool:
    """Whether the stored changes of a match are what rating it now would give (same
    persons at the same places, same decision time): then nothing is to be done."""
    if not now:
        return not before
    (game,) = now
    wanted = {(p, place, game.decided_at) for p, place in game.placed()}
    return wanted == set(before)


def _from(family: str, start: Key):
    """The family's rating changes from ``start`` on (its key included)."""
    at, pk = start
    # The range on decided_at first: the index (family, decided_at, match) serves it.
    return RatingChange.objects.filter(family=family, decided_at__gte=at).filter(
        Q(decided_at__gt=at) | Q(match_id__gte=pk)
    )


def _championships(family: str) -> list[int]:
    """The championships rated in ``family`` (the preset is read in Python, by the one
    rule of ``Championship.is_catalan``)."""
    rows = Championship.objects.order_by().only("pk", "rules")
    return [c.pk for c in rows if skill.family_of(c) == family]


def _lock(family: str) -> None:
    """One writer of ``family``'s ratings at a time, until the transaction ends."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s, %s)",
                [LOCK_CLASS, zlib.crc32(family.encode()) & 0x7FFFFFFF],
            )


LOCK_CLASS = 2401
"""The first key of the ratings' advisory locks (the second is the family's)."""
