"""The writes every stage format shares: rounds, the matches of a pairing, brackets.

Called by the formats of :mod:`tournaments.stages.registry` and by the results
services (a decided bracket match advances its winner through :func:`bracket_sync`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring import RuleSet
from tournaments import formats
from tournaments.championships.selectors import rules_spec
from tournaments.errors import TournamentError
from tournaments.models import Championship, Game, Group, Match, Round, Stage, Team
from tournaments.signals import announce
from tournaments.stages.selectors import bracket_state


def seeded_team_ids(teams: Iterable[Team]) -> list[int]:
    ordered = sorted(teams, key=lambda t: (t.seed is None, t.seed or 0, t.name, t.pk))
    return [t.pk for t in ordered]


def lock_stage(stage: Stage) -> Stage:
    """The stage, locked: one writer at a time creates its rounds and bracket matches.

    Lock order: a result locks its match, then the stage; a writer holding the stage never
    waits for a match (``bracket_sync`` skips locked ones). Only the stage row is locked
    (``of``), not its championship, so results of other stages do not wait. NO KEY UPDATE
    leaves the foreign-key checks of rows referencing the stage (a standings snapshot being
    written) free to go on: with FOR UPDATE they would wait here, a possible deadlock.
    """
    return (
        Stage.objects.select_for_update(of=("self",), no_key=True)
        .select_related("championship")
        .get(pk=stage.pk)
    )


def new_round(stage: Stage, label: str = "", absent: Collection[int] = ()) -> Round:
    # Max + 1 is only safe under the stage lock; every caller holds it already, taking it
    # again here (a no-op in the same transaction) keeps a new caller from forgetting it.
    lock_stage(stage)
    number = (stage.rounds.aggregate(top=Max("number"))["top"] or 0) + 1
    return Round.objects.create(stage=stage, number=number, label=label, absent=sorted(absent))


def create_pairings(
    stage: Stage,
    round_: Round,
    pairings: Iterable[formats.Pairing],
    bye: int | None,
    group: Group | None = None,
    absent: Collection[int] = (),
) -> list[Match]:
    """Store a round's pairings (and its bye). A pairing with a team in ``absent`` (not
    checked in) is decided at once by walkover for the other team; with both absent, by a
    double walkover (both lose)."""
    best_of = match_best_of(stage.championship)
    created = [
        Match(
            stage=stage,
            round=round_,
            group=group,
            team_a_id=p.home,
            team_b_id=p.away,
            best_of=best_of,
        )
        for p in pairings
    ]
    if bye is not None:
        created.append(
            Match(
                stage=stage,
                round=round_,
                group=group,
                team_a_id=bye,
                status=Match.Status.FINISHED,
                outcome=Match.Outcome.BYE,
                winner_id=bye,
                best_of=best_of,
                finished_at=timezone.now(),
            )
        )
    credited: list[Game] = []
    for match in created:
        if match.team_b_id is not None and {match.team_a_id, match.team_b_id} & set(absent):
            credited += _absence_walkover(stage.championship, match, absent)
    stored = Match.objects.bulk_create(created)
    # The games point at their matches, which have their keys now.
    Game.objects.bulk_create(credited)
    return stored


def create_tables(
    stage: Stage,
    round_: Round,
    tables: Iterable[Sequence[int]],
    byes: Iterable[int] = (),
) -> list[Match]:
    """Store a round of tables (``formats.TablesRound``): a table of three is a match of
    three sides (``team_c``; its first player is ``team_a``, the gallo of a fijo table), a
    table of two a two-sided match, a bye a bye (worth the stage's bye points)."""
    best_of = match_best_of(stage.championship)
    created = []
    for table in tables:
        if len(table) not in (2, 3):
            raise ValueError(f"a table seats two or three players, not {len(table)}")
        created.append(
            Match(
                stage=stage,
                round=round_,
                team_a_id=table[0],
                team_b_id=table[1],
                team_c_id=table[2] if len(table) == 3 else None,
                best_of=best_of,
            )
        )
    stored = Match.objects.bulk_create(created)
    for team in byes:  # the one way a bye is stored, as in the pairings of two
        stored += create_pairings(stage, round_, [], team)
    return stored


def absence_losses(stage: Stage, round_: Round, team_ids: Iterable[int]) -> list[Match]:
    """A loss by walkover, without opponent, for each team absent from a Swiss round."""
    best_of = match_best_of(stage.championship)
    return Match.objects.bulk_create(
        Match(
            stage=stage,
            round=round_,
            team_a_id=team,
            status=Match.Status.WALKOVER,
            outcome=Match.Outcome.WALKOVER,
            reason_code=Match.Reason.ABSENT,
            best_of=best_of,
            finished_at=timezone.now(),
        )
        for team in team_ids
    )


def _absence_walkover(
    championship: Championship, match: Match, absent: Collection[int]
) -> list[Game]:
    """Decide ``match`` (not stored yet) for the team present, and return the games its
    walkover credits (to store once the match is); both absent: both lose, no game."""
    present = [t for t in (match.team_a_id, match.team_b_id) if t not in absent]
    winner = present[0] if present else None
    match.winner_id = winner
    match.status = Match.Status.WALKOVER
    match.outcome = Match.Outcome.WALKOVER
    match.reason_code = Match.Reason.ABSENT
    match.finished_at = timezone.now()
    if winner is None:
        return []
    target = RuleSet.from_spec(rules_spec(championship, best_of=match.best_of)).target
    return match.credit_walkover(winner_id=winner, target=target)


def match_best_of(championship: Championship) -> int:
    return RuleSet.from_spec(rules_spec(championship)).best_of


def schedule(team_ids: list[int], cycles: int) -> list[formats.Round]:
    return formats.round_robin(team_ids, cycles=cycles)


def check_all_decided(stage: Stage) -> None:
    if stage.matches.exclude(status__in=Match.DECIDED).exists():
        raise TournamentError(
            _("Every match of the current round must be decided first."),
            code="round_unfinished",
        )


def _bracket_label(bracket_id: str) -> str:
    return bracket_id.split("-")[0]


@transaction.atomic
def bracket_sync(*, stage: Stage) -> list[Match]:
    """Bring the stored bracket matches in line with the results; return those created.

    A winner advances into the next slot: the next match is created as soon as both its
    teams are known. A stored match whose teams changed (a corrected result upstream) is
    removed if nothing was recorded in it, else the correction is refused. Idempotent:
    called again, it finds every match it could create already stored.

    Two results feeding one slot are serialised by the stage lock: the second reads the
    bracket after the first committed, so the next match is created once, never twice or
    not at all (the constraint ``match_bracket_slot_unique`` is the last guard).
    """
    stage = lock_stage(stage)
    stored = list(stage.matches.exclude(bracket_id="").select_related("round"))
    decided = [m for m in stored if m.status in Match.DECIDED]
    bracket = bracket_state(stage, decided)
    if bracket is None:
        return []
    by_id = {m.bracket_id: m for m in stored}
    removed = False
    for bracket_id, match in list(by_id.items()):
        slot = bracket.matches[bracket_id]
        if slot.teams == [match.team_a_id, match.team_b_id]:
            continue
        # Lock it without waiting: its referee may hold it and wait for this stage (match
        # → stage), which would deadlock. A match being written to is treated as played.
        locked = (
            Match.objects.select_for_update(skip_locked=True)
            .filter(pk=match.pk)
            .order_by()
            .only("pk", "status")
            .first()
        )
        if locked is None or locked.status in Match.DECIDED or match.hands.exists():
            raise TournamentError(
                _(
                    "This change would alter who plays %(match)s, which already has results:"
                    " correct that match first."
                ),
                code="bracket_conflict",
                params={"match": str(match)},
            )
        match.delete()
        del by_id[bracket_id]
        removed = True
    best_of = match_best_of(stage.championship)
    created = []
    for slot in bracket.ready():
        if slot.id in by_id:
            continue
        label = _bracket_label(slot.id)
        round_ = stage.rounds.filter(label=label).first() or new_round(stage, label)
        created.append(
            Match.objects.create(
                stage=stage,
                round=round_,
                bracket_id=slot.id,
                team_a_id=slot.teams[0],
                team_b_id=slot.teams[1],
                best_of=best_of,
            )
        )
    if created or removed:
        # Who plays whom changed: a new slot filled shows on the bracket, rounds and board.
        announce(championship_id=stage.championship_id, stage_id=stage.pk, what="round")
    return created
