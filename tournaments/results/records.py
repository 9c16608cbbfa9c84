"""From a ``Match`` and its ``Hand`` rows to the engine's match record, and back.

Naming inside records (documented in docs/tournaments.md):

- sides are ``"A"`` (``match.team_a``) and ``"B"`` (``match.team_b``), and ``"C"``
  (``match.team_c``) at a table of three (gallo, below);
- a player is ``"p<id>"`` (``Player.record_key``): stable even when a name is corrected,
  unique within any match;
- ``seats`` is stored on the match when play starts (``results.services.match_start``); by default
  the members of A and B alternate in membership order (a1, b1, a2, b2...), the first
  hand's mano first;
- ``captains`` (catalan) come from the memberships marked cap de colla.

A table of three (``match.team_c`` set; single players, gallo rules): with ``gallo:
por_turno`` the engine's teams are the three sides A, B, C of one player each; with
``gallo: fijo`` the gallo is the table's first player (``team_a``: in a Swiss round the
best placed, in a round robin the design's first) and the pair is the engine's side
``"B"``: ``team_b`` and ``team_c`` together, sharing its score and place
(:func:`engine_teams`). The seats default to A, B, C.

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

from django.utils.text import get_text_list
from django.utils.translation import gettext as _

from scoring import (
    EngineError,
    HandStatus,
    MatchHand,
    MatchResult,
    MatchState,
    score_match_result,
    table_placement,
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
    """Members of A and B alternating around the table, A's first player first (a table
    of three: A, B, C)."""
    if "C" in teams:
        return [*teams["A"], *teams["B"], *teams["C"]]
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
    if getattr(match, "team_c_id", None) is not None:
        teams["C"] = team_keys(match.team_c)
        return teams
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
    third = match.team_c if getattr(match, "team_c_id", None) is not None else None
    if third is not None:
        result["C"] = third.name
    for team in (match.team_a, match.team_b, third):
        if team is not None:
            for membership in team.memberships.all():
                player = membership.player
                result[player.record_key] = player.public_name if public else player.name
    stored = match.lineup or {}
    missing = [k for side in ("A", "B", "C") for k in stored.get(side, ()) if k not in result]
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
    teams = engine_teams(match, players)
    record: dict[str, Any] = {
        "rules": rules_spec(championship, best_of=match.best_of),
        "teams": teams,
        "seats": list(match.seats) or default_seats(sided(players)),
    }
    if championship.is_catalan and players.get("captains"):
        record["captains"] = dict(players["captains"])
    return record


def sided(players: Mapping[str, Any]) -> dict[str, list[str]]:
    """The lineup's sides alone (``A``, ``B`` and ``C`` where there is one)."""
    return {side: list(players[side]) for side in ("A", "B", "C") if side in players}


def is_fijo(match: Match) -> bool:
    """A table of three played with ``gallo: fijo`` (the pair shares one side)."""
    rules = match.stage.championship.rules
    return match.team_c_id is not None and isinstance(rules, dict) and rules.get("gallo") == "fijo"


def engine_teams(match: Match, players: Mapping[str, Any] | None = None) -> dict[str, list[str]]:
    """The record's ``teams``: the lineup's sides; at a table of three with ``gallo:
    fijo``, the gallo (A) alone and the pair (B and C) as side ``"B"``."""
    teams = sided(players if players is not None else lineup(match))
    if "C" in teams and is_fijo(match):
        return {"A": teams["A"], "B": teams["B"] + teams["C"]}
    return teams


def side_names(match: Match) -> dict[str, str]:
    """The engine's sides by name: ``A`` and ``B`` (a bye: ``A`` alone), at a table of three
    ``C`` too; with a fixed gallo the pair is the engine's side ``B``, named by both its
    players ("Bea and Caro")."""
    names = {"A": match.team_a.name}
    if match.team_b_id is not None:
        names["B"] = match.team_b.name
    if match.team_c_id is not None:
        if is_fijo(match):
            names["B"] = get_text_list([match.team_b.name, match.team_c.name], _("and"))
        else:
            names["C"] = match.team_c.name
    return names


def side_team_ids(match: Match) -> dict[str, int | None]:
    """The engine's sides -> the team each stands for (a fijo pair: ``team_b``)."""
    sides = {"A": match.team_a_id, "B": match.team_b_id}
    if match.team_c_id is not None and not is_fijo(match):
        sides["C"] = match.team_c_id
    return sides


def column_sides(match: Match) -> dict[str, str]:
    """Each stored column (``a``, ``b``, ``c``) -> the engine's side whose figures it holds:
    at a fijo table C holds the pair's (``"B"``), as B does."""
    columns = {"a": "A", "b": "B"}
    if match.team_c_id is not None:
        columns["c"] = "B" if is_fijo(match) else "C"
    return columns


def stat_columns(match: Match) -> dict[str, str]:
    """:func:`column_sides` keyed by the stored side (``A``, ``B``, ``C``), as the
    statistics take it."""
    return {column.upper(): side for column, side in column_sides(match).items()}


def table_places(match: Match, state: MatchState) -> dict[str, int]:
    """Each team's place at a table of three, as the engine ranks it
    (``scoring.table_placement``, with the stage's ``placement`` chain when it sets one):
    ``{"<team id>": place}``; a fijo pair's two players share the pair's place. Raises
    ``scoring.EngineError`` (a stage's chain the engine refuses)."""
    chain = match.stage.settings.get("placement")
    ranked = table_placement(state, **({"tiebreaks": chain} if chain is not None else {}))
    place = {p.side: p.place for p in ranked}
    teams = {"a": match.team_a_id, "b": match.team_b_id, "c": match.team_c_id}
    return {str(teams[column]): place[side] for column, side in column_sides(match).items()}


def stored_state(match: Match, hands: int) -> MatchState | None:
    """The match's stored engine state if it is in step with its ``hands`` (their number),
    else None: the caller replays the hands. Before the first hand: the starting state."""
    if match.state is None:
        return MatchState.start(tuple(side_team_ids(match))) if hands == 0 else None
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


def games_of(
    state: MatchState, last: MatchHand | None, columns: Mapping[str, str] | None = None
) -> list[tuple[dict[str, int], str | None]]:
    """The games as the engine has them, ``({column: score}, winner side)`` with the
    columns ``a``, ``b`` (and ``c``: :func:`column_sides`): the finished ones, then the
    chico being played (winner None) unless the last hand ended one (there is none before
    the first hand)."""
    columns = columns or {"a": "A", "b": "B"}

    def scores(score: Mapping[str, int]) -> dict[str, int]:
        return {column: score.get(side, 0) for column, side in columns.items()}

    games = [(scores(game.score), game.winner) for game in state.games]
    if last is not None and last.status != HandStatus.GAME_OVER:
        games.append((scores(last.score), None))
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
        "teams": engine_teams(match, players),
    }
    if championship.is_catalan and players.get("captains"):
        record["captains"] = dict(players["captains"])
    record["order"] = list(hand.order)
    record["score"] = {"A": hand.score_before_a, "B": hand.score_before_b}
    if match.team_c_id is not None and hand.order:
        _gallo_hand(match, hand, record)
    record.update(hand.record)
    return record


def _gallo_hand(match: Match, hand: Any, record: dict[str, Any]) -> None:
    """A table of three's hand as the engine scored it (``scoring.match``): the gallo
    alone against the pair, which plays as one side (por turno: the side of its first
    member in the hand's order, on the score of the pair's leader)."""
    before = {"A": hand.score_before_a, "B": hand.score_before_b, "C": hand.score_before_c}
    teams = record["teams"]
    side_of = {p: side for side, members in teams.items() for p in members}
    if is_fijo(match):
        gallo = teams["A"][0]
        record["score"] = {"A": before["A"], "B": before["B"]}
    else:
        gallo = hand.order[-1]  # the dealer
        pair = [p for p in hand.order if p != gallo]
        pair_side = side_of[pair[0]]
        record["teams"] = {side_of[gallo]: [gallo], pair_side: pair}
        record["score"] = {
            side_of[gallo]: before[side_of[gallo]],
            pair_side: max(before[side_of[p]] for p in pair),
        }
    record["gallo"] = gallo
