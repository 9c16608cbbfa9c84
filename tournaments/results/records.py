"""From a ``Match`` and its ``Hand`` rows to the engine's match record, and back.

Naming inside records (documented in docs/tournaments.md):

- sides are ``"A"`` (``match.team_a``) and ``"B"`` (``match.team_b``);
- a player is ``"p<id>"`` (``Player.record_key``): stable even when a name is corrected,
  unique within any match;
- ``seats`` is stored on the match when play starts (``results.services.match_start``); by default
  the members of A and B alternate in membership order (a1, b1, a2, b2...), the first
  hand's mano first;
- ``captains`` (catalan) come from the memberships marked cap de colla.

Each ``Hand.record`` holds only its entry of the match record (``cards``, ``events`` and,
where they apply, ``gallo`` or ``pica_pica``); everything else comes from the match.

``Match.state`` holds the engine's ``MatchState`` after the last hand: the next hand is
scored (:func:`score_next`) and shown from it, without replaying the match. It is trusted
only while its count of hands is the match's (:func:`stored_state`); otherwise the hands
are replayed (:func:`score`), as for a match stored before the state existed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scoring import (
    EngineError,
    HandStatus,
    MatchHand,
    MatchResult,
    MatchState,
    score_match_result,
)
from scoring import score_next_hand as engine_next_hand
from tournaments.championships.selectors import rules_spec
from tournaments.models import Match, Player, Team

HAND_KEYS = ("cards", "events", "gallo", "pica_pica")


def team_keys(team: Team) -> list[str]:
    """The record keys of a team's players, in membership order (uses a prefetch)."""
    return [m.player.record_key for m in team.memberships.all()]


def captain_key(team: Team) -> str | None:
    members = list(team.memberships.all())
    for membership in members:
        if membership.is_captain:
            return membership.player.record_key
    return members[0].player.record_key if len(members) == 1 else None


def default_seats(teams: Mapping[str, Sequence[str]]) -> list[str]:
    """Members of A and B alternating around the table, A's first player first."""
    a, b = teams["A"], teams["B"]
    seats = [p for pair in zip(a, b, strict=False) for p in pair]
    longer = a if len(a) > len(b) else b
    return seats + list(longer[min(len(a), len(b)) :])


def lineup(match: Match) -> dict[str, Any]:
    """Who plays ``match``: ``{"A": keys, "B": keys}`` and, when both are known,
    ``"captains"`` (catalan). The lineup stored when play started (or frozen by a
    substitution for a later round), else the teams' current players (uses a prefetch)."""
    if match.lineup:
        return match.lineup
    teams = {"A": team_keys(match.team_a), "B": team_keys(match.team_b)}
    result: dict[str, Any] = dict(teams)
    captains = {"A": captain_key(match.team_a), "B": captain_key(match.team_b)}
    if all(captains.values()):
        result["captains"] = captains
    return result


def names(match: Match, *, public: bool = False) -> dict[str, str]:
    """Record keys -> names people know (players and teams), for messages and exports.

    ``public``: the players' names as the public sees them (``Player.public_name``, "Ana
    R." for a person who asked), for the public pages; read the memberships with
    ``player__person``. A player substituted out since the match was played is still
    named (one more query, only then)."""
    result = {"A": match.team_a.name}
    if match.team_b is not None:
        result["B"] = match.team_b.name
    for team in (match.team_a, match.team_b):
        if team is not None:
            for membership in team.memberships.all():
                player = membership.player
                result[player.record_key] = player.public_name if public else player.name
    stored = match.lineup or {}
    missing = [k for side in ("A", "B") for k in stored.get(side, ()) if k not in result]
    if missing:
        ids = [int(key[1:]) for key in missing if key[1:].isdigit()]
        for player in Player.objects.filter(pk__in=ids).select_related("person"):
            result[player.record_key] = player.public_name if public else player.name
    return result


def match_record(match: Match, hands: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The ``score_match`` input (docs/hand-record.md, "Scoring a match") for ``match``.

    ``hands`` are the hand entries, in order. The match's teams should come with
    ``memberships__player`` prefetched.
    """
    return {**match_head(match), "hands": [hand_entry(h) for h in hands]}


def match_head(match: Match) -> dict[str, Any]:
    """The match record without its hands: ``rules``, ``teams``, ``seats`` (and
    ``captains``), what the engine scores one more hand with (:func:`score_next`)."""
    championship = match.stage.championship
    players = lineup(match)
    teams = {"A": list(players["A"]), "B": list(players["B"])}
    record: dict[str, Any] = {
        "rules": rules_spec(championship, best_of=match.best_of),
        "teams": teams,
        "seats": list(match.seats) or default_seats(teams),
    }
    if championship.is_catalan and players.get("captains"):
        record["captains"] = dict(players["captains"])
    return record


def stored_state(match: Match, hands: int) -> MatchState | None:
    """The match's stored engine state if it is in step with its ``hands`` (their number),
    else None: the caller replays the hands. Before the first hand: the starting state."""
    if match.state is None:
        return MatchState.start(("A", "B")) if hands == 0 else None
    try:
        state = MatchState.from_dict(match.state)
    except EngineError:
        return None
    return state if state.hands == hands else None


def hand_entry(record: Mapping[str, Any]) -> dict[str, Any]:
    """Keep the keys a hand entry of a match record may have (anything else is context)."""
    return {key: record[key] for key in HAND_KEYS if key in record}


def score(match: Match, hands: Sequence[Mapping[str, Any]]) -> MatchResult:
    """Score the match record with the engine; raises ``scoring.EngineError``.

    The engine's :class:`~scoring.MatchResult` carries, for each hand, its order (mano
    first), the score before it, its points, the score after and its status: the Django
    side stores those and never derives them itself.
    """
    return score_match_result(match_record(match, hands))


def games_of(state: MatchState, last: MatchHand | None) -> list[tuple[int, int, str | None]]:
    """The games as the engine has them, ``(score A, score B, winner side)``: the finished
    ones, then the chico being played (winner None) unless the last hand ended one (there
    is none before the first hand)."""
    games: list[tuple[int, int, str | None]] = [
        (game.score.get("A", 0), game.score.get("B", 0), game.winner) for game in state.games
    ]
    if last is not None and last.status != HandStatus.GAME_OVER:
        games.append((last.score.get("A", 0), last.score.get("B", 0), None))
    return games


def score_next(
    match: Match, state: MatchState, entry: Mapping[str, Any]
) -> tuple[MatchHand, MatchState]:
    """Score one more hand from the match's state (``scoring.score_next_hand``); raises
    ``scoring.EngineError`` (its ``hand`` the new hand's index)."""
    return engine_next_hand(match_head(match), state, hand_entry(entry))


def standalone_record(match: Match, hand: Any) -> dict[str, Any]:
    """One hand as a complete hand record (docs/hand-record.md): ``python -m scoring hand``
    reads it."""
    championship = match.stage.championship
    players = lineup(match)
    record: dict[str, Any] = {
        "rules": rules_spec(championship, best_of=match.best_of),
        "teams": {"A": list(players["A"]), "B": list(players["B"])},
    }
    if championship.is_catalan and players.get("captains"):
        record["captains"] = dict(players["captains"])
    record["order"] = list(hand.order)
    record["score"] = {"A": hand.score_before_a, "B": hand.score_before_b}
    record.update(hand.record)
    return record
