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

from collections.abc import Sequence

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


def _side_row(match: Match, hand: Hand, side: str, facts: SideFacts) -> HandSideStat:
    row = HandSideStat(
        hand=hand,
        match=match,
        championship_id=match.stage.championship_id,
        team_id=match.team_a_id if side == "A" else match.team_b_id,
        side=side,
        trailing=facts.trailing,
        chico_won=facts.chico_won,
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
    *, match: Match, hands: Sequence[Hand], scored: Sequence[MatchHand], replace: bool
) -> None:
    """Keep the statistics of ``hands`` (stored, in order, to the match's last hand) from
    ``scored``, the engine's result for each.

    Called by the results services inside the transaction that stores the hands:
    ``replace`` when some of them had statistics already (a correction, a removal, a
    replay), which are deleted first. A hand that wins a chico is marked a comeback when
    its winner trailed in one of the chico's hands, those before ``hands`` read from their
    rows (one query, only for such a hand).
    """
    if replace:
        HandSideStat.objects.filter(hand__in=[h.pk for h in hands]).delete()
    # A table of three is not counted yet: its sides change from hand to hand (gallo).
    if match.team_b_id is None or match.team_c_id is not None or not hands:
        return
    facts = [match_hand_facts(result) for result in scored]
    sides: list[HandSideStat] = []
    players: list[tuple[HandSideStat, int, PlayerFacts]] = []
    trailing: dict[tuple[int | None, str], bool] = {}  # (game, side) -> trailed in this batch
    first = hands[0]
    for hand, result, told in zip(hands, scored, facts, strict=True):
        rows = _rows(match, hand, told)
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


def _rows(match: Match, hand: Hand, facts: HandFacts) -> dict[str, HandSideStat]:
    return {
        side: _side_row(match, hand, side, side_facts)
        for side, side_facts in facts.sides.items()
        if side in ("A", "B")
    }


def _side_of(match: Match, result: MatchHand) -> dict[str, str]:
    """Each player's side: the match's line-up (stored when play started), then the sides
    of the hand records the engine scored (the same, but for a match without one)."""
    lineup = match.lineup or {}
    side_of = {key: side for side in ("A", "B") for key in lineup.get(side, ())}
    for record in result.records:
        for side, members in record.get("teams", {}).items():
            side_of.update(dict.fromkeys(members, side))
    return side_of


@transaction.atomic
def match_statistics_replace(
    *, match: Match, hands: Sequence[Hand], scored: Sequence[MatchHand]
) -> None:
    """Every statistic of ``match`` again, from all its ``hands`` and the engine's result
    for each (``manage.py stats_rebuild``)."""
    HandSideStat.objects.filter(match=match).delete()
    hand_statistics_write(match=match, hands=hands, scored=scored, replace=False)
