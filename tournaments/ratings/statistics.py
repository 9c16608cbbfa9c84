"""Statistics from the hands, kept as the hands change (writes; the reads are in
``statistics_selectors``).

Each stored hand has a row per side (``HandSideStat``) and per player who took part
(``HandPlayerStat``) holding what the engine tells of it (``scoring.match_hand_facts``:
points by source, calls and answers, flor, mazo, penalties, trailing in the malas). The
results services write them in the transaction that stores the hands
(``results.services.hands``: recorded, imported, corrected, removed), from the engine's
own scoring of those hands; nothing here reads the rules. The pages, the API and the
CSV sum these rows by SQL: nothing is replayed to read a statistic.

A chico won *from the malas* (a comeback) is marked on the hand that won it: its winner
was trailing (in the malas while the other side was in the buenas) before or after one
of the chico's hands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.db import transaction

from scoring import HandFacts, MatchHand, PlayerFacts, SideFacts, match_hand_facts
from tournaments.models import Hand, HandPlayerStat, HandSideStat, Match

SIDE_COUNTS = (
    "points",
    "envido_points",
    "flor_points",
    "mazo_points",
    "penalty_points",
    "mestre_points",
    "envido_called",
    "envido_accepted",
    "envido_refused",
    "envido_played",
    "envido_won",
    "truco_calls",
    "truco_accepted",
    "truco_refused",
    "truco_raised",
    "truco_answers",
    "flor_sung",
    "mazos",
    "penalties",
)
TRUCO_LEVELS = ("truco_points_0", "truco_points_1", "truco_points_2", "truco_points_3")
PLAYER_COUNTS = (
    "envido_calls",
    "envido_accepted",
    "envido_refused",
    "truco_calls",
    "truco_accepted",
    "truco_refused",
    "truco_raised",
    "truco_answers",
    "flor_sung",
    "mazo",
)


def _player_id(key: str) -> int | None:
    """A record key ``p<id>`` -> the player's id (anything else is not a stored player)."""
    return int(key[1:]) if key.startswith("p") and key[1:].isdigit() else None


def _side_row(
    match: Match, hand: Hand, side: str, facts: SideFacts, *, shared: bool = False
) -> HandSideStat:
    teams = {"A": match.team_a_id, "B": match.team_b_id, "C": match.team_c_id}
    row = HandSideStat(
        hand=hand,
        match=match,
        championship_id=match.stage.championship_id,
        team_id=teams[side],
        side=side,
        trailing=facts.trailing,
        chico_won=facts.chico_won,
        shared=shared,
    )
    for name in SIDE_COUNTS:
        setattr(row, name, getattr(facts, name))
    for name, points in zip(TRUCO_LEVELS, facts.truco_points, strict=True):
        setattr(row, name, points)
    return row


def _player_row(row: HandSideStat, player_id: int, facts: PlayerFacts) -> HandPlayerStat:
    player = HandPlayerStat(
        hand=row.hand,
        side_stat=row,
        player_id=player_id,
        championship_id=row.championship_id,
        team_id=row.team_id,
    )
    for name in PLAYER_COUNTS:
        setattr(player, name, getattr(facts, name))
    return player


def hand_statistics_write(
    *,
    match: Match,
    hands: Sequence[Hand],
    scored: Sequence[MatchHand],
    replace: bool,
    columns: Mapping[str, str] | None = None,
) -> None:
    """Keep the statistics of ``hands`` (stored, in order, to the match's last hand) from
    ``scored``, the engine's result for each.

    Called by the results services inside the transaction that stores the hands:
    ``replace`` when some of them had statistics already (a correction, a removal, a
    replay), which are deleted first. A hand that wins a chico is marked a comeback when
    its winner trailed in one of the chico's hands, those before ``hands`` read from their
    rows (one query, only for such a hand).

    ``columns``: each stored side (``A``, ``B``, ``C``) -> the engine's side whose facts it
    holds (``results.records.column_sides``: at a fixed gallo's table C holds the pair's,
    B); by default A and B as themselves.
    """
    if replace:
        HandSideStat.objects.filter(hand__in=[h.pk for h in hands]).delete()
    if match.team_b_id is None or not hands:
        return
    columns = columns or {"A": "A", "B": "B"}
    facts = [match_hand_facts(result) for result in scored]
    sides: list[HandSideStat] = []
    players: list[tuple[HandSideStat, int, PlayerFacts]] = []
    trailing: dict[tuple[int | None, str], bool] = {}  # (game, side) -> trailed in this batch
    first = hands[0]
    for hand, result, told in zip(hands, scored, facts, strict=True):
        rows = _rows(match, hand, told, columns)
        for row in rows.values():
            key = (hand.game_id, row.side)
            trailing[key] = trailing.get(key, False) or row.trailing
            if row.chico_won:
                row.comeback = trailing[key] or (
                    hand.game_id == first.game_id
                    and first.number > 1
                    and HandSideStat.objects.filter(
                        match=match,
                        hand__game_id=hand.game_id,
                        hand__number__lt=first.number,
                        side=row.side,
                        trailing=True,
                    ).exists()
                )
        sides.extend(rows.values())
        side_of = _side_of(match, result)
        for key, player_facts in told.players.items():
            player_id = _player_id(key)
            side = side_of.get(key)
            if player_id is not None and side in rows:
                players.append((rows[side], player_id, player_facts))
    HandSideStat.objects.bulk_create(sides)
    HandPlayerStat.objects.bulk_create([_player_row(r, p, f) for r, p, f in players])


def _rows(
    match: Match, hand: Hand, facts: HandFacts, columns: Mapping[str, str]
) -> dict[str, HandSideStat]:
    """A row a stored side, from the engine's facts of the side it stands for; a side
    repeating a pair's facts (the engine's ``shared``, or a column holding another side's
    figures) is marked ``shared``."""
    rows = {}
    for side, engine_side in columns.items():
        if engine_side in facts.sides:
            shared = engine_side != side or side in facts.shared
            rows[side] = _side_row(match, hand, side, facts.sides[engine_side], shared=shared)
    return rows


def _side_of(match: Match, result: MatchHand) -> dict[str, str]:
    """Each player's side: the match's line-up (stored when play started), then the sides
    of the hand records the engine scored (the same, but for a match without one; at a
    table of three a hand's pair plays under its first player's side, so the line-up
    wins)."""
    lineup = match.lineup or {}
    side_of = {key: side for side in ("A", "B", "C") for key in lineup.get(side, ())}
    for record in result.records:
        for side, members in record.get("teams", {}).items():
            for member in members:
                side_of.setdefault(member, side)
    return side_of


@transaction.atomic
def match_statistics_replace(
    *,
    match: Match,
    hands: Sequence[Hand],
    scored: Sequence[MatchHand],
    columns: Mapping[str, str] | None = None,
) -> None:
    """Every statistic of ``match`` again, from all its ``hands`` and the engine's result
    for each (``manage.py stats_rebuild``)."""
    HandSideStat.objects.filter(match=match).delete()
    hand_statistics_write(match=match, hands=hands, scored=scored, replace=False, columns=columns)
