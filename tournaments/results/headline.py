"""A match's score for spectators: the headline (each side's running score, its phase,
the chicos won, the mano), the score chart of a chico and the running score in lists.

Read from the engine's stored state (``Match.state``) and the hands' stored scores, never
counted here; at a table of three (gallo por turno) every side has its own score, so the
headline and the chart carry three (``results.records.column_sides``). The hands told in
words are in ``results.story``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring import EngineError, MatchState, phase
from tournaments.championships.words import words
from tournaments.models import Hand, Match
from tournaments.results import records
from tournaments.results.story import match_rules, shown_name


@dataclass(frozen=True)
class Side:
    """One side in the headline: its key ("A"/"B"), name, running score and phase."""

    key: str
    name: str
    score: int
    games: int
    phase: str
    phase_count: int | None
    mano: bool


@dataclass(frozen=True)
class Running:
    """The headline of a match: the chico (joc) being played and who is mano."""

    sides: list[Side]
    game: int
    mano: str
    target: int
    decided: bool


@dataclass(frozen=True)
class Chart:
    """The score of one chico over its hands, as SVG polylines (server-side, no script)."""

    game: int
    width: int
    height: int
    lines: list[tuple[str, str, str]]  # (side key, team name, "x,y x,y ...")
    target_y: float
    half_y: float | None
    hands: int


def running(match: Match, hands: int) -> Running | None:
    """The headline: each side's points in the chico being played (with malas/buenas, or
    mestre), the chicos won and the next hand's mano, from the engine's stored state;
    once the match is decided, the chicos each side won.
    None for a bye, a walkover without hands, or a state out of step with the hands."""
    if match.team_b_id is None:
        return None
    state = records.stored_state(match, hands)
    if state is None:
        return None
    rules = match_rules(match)
    vocabulary = words(match.stage.championship)
    names = records.names(match, public=True)
    mano_key = ""
    if state.winner is None and match.status != Match.Status.WALKOVER:
        try:
            upcoming = state.next_hand(records.match_head(match))
        except (EngineError, TypeError, ValueError, KeyError):
            upcoming = None
        if upcoming is not None:
            mano_key = upcoming.mano
    decided = match.is_decided
    # The match is over: the headline is the chicos won (each chico's score is in the
    # games table), not the empty chico the state would start next.
    score = dict(state.wins) if decided else dict(state.score)
    # The engine's sides and their players: at a table of three with the gallo por turno
    # a player a side (three running scores), with a fixed gallo the pair is side B.
    members = records.engine_teams(match) if match.team_c_id is not None else {}
    keys = ("A", "B", "C") if "C" in state.score else ("A", "B")
    teams = {"A": match.team_a, "B": match.team_b, "C": match.team_c}
    team_of_mano = ""
    for team_key in keys:
        players = members.get(team_key) or [
            m.player.record_key for m in teams[team_key].memberships.all()
        ]
        if mano_key in players:
            team_of_mano = team_key
    names = {**names, **records.side_names(match)}  # a fixed gallo's pair by both names
    sides = []
    for key in keys:
        found = None if decided else phase(rules, score, key)
        sides.append(
            Side(
                key=key,
                name=names.get(key) or teams[key].name,
                score=score.get(key, 0),
                games=state.wins.get(key, 0),
                phase=str(vocabulary.phases[found.name]) if found else "",
                phase_count=found.count if found and found.name != "mestre" else None,
                mano=team_of_mano == key,
            )
        )
    return Running(
        sides=sides,
        game=len(state.games) + (0 if decided else 1),
        mano=shown_name(names, mano_key),
        target=rules.target,
        decided=decided,
    )


CHART_WIDTH = 320
CHART_HEIGHT = 120


def chart(match: Match, hands: Sequence[Hand], game: int) -> Chart | None:
    """The running score of chico ``game`` hand by hand, as polylines for an inline SVG
    (scores are the engine's, stored on the hands). None before its first hand."""
    rows = [h for h in hands if h.game is not None and h.game.number == game]
    if not rows:
        return None
    rules = match_rules(match)
    target = rules.target
    count = len(rows)
    step = CHART_WIDTH / max(count, 1)

    def y(value: int) -> float:
        return round(CHART_HEIGHT - CHART_HEIGHT * min(value, target) / target, 1)

    lines = []
    names = {**records.names(match, public=True), **records.side_names(match)}
    # A line a stored column; a fijo pair's two players share the engine's side B, drawn
    # once (as the headline shows it).
    columns = records.column_sides(match)
    for column, side in columns.items():
        if side != column.upper():
            continue
        key = column.upper()
        points = [f"0,{y(getattr(rows[0], f'score_before_{column}'))}"]
        for index, hand in enumerate(rows, start=1):
            points.append(f"{round(index * step, 1)},{y(getattr(hand, f'score_{column}'))}")
        lines.append((key, names[key], " ".join(points)))
    return Chart(
        game=game,
        width=CHART_WIDTH,
        height=CHART_HEIGHT,
        lines=lines,
        target_y=y(target),
        half_y=y(rules.half) if rules.has_halves else None,
        hands=count,
    )


@dataclass(frozen=True)
class LiveScore:
    """A match's running score for lists (round, board): the chico being played and the
    chicos won, from the stored engine state alone (no hand is read)."""

    score: dict[str, int]
    games: dict[str, int]
    game: int

    @property
    def games_text(self) -> str:
        """The chicos won so far, side A first: "1–0", at a table of three "1–0–0"."""
        return "–".join(str(self.games[side]) for side in sorted(self.games))


def live_score(match: Match) -> LiveScore | None:
    """The running score of a match in play, or None (not started, decided, a state the
    engine cannot read). Started without a hand yet (no state): 0-0 in its first chico."""
    if match.status != Match.Status.IN_PROGRESS:
        return None
    if match.state is None:
        sides = "ABC" if match.team_c_id is not None else "AB"
        games = {side: getattr(match, f"chicos_{side.lower()}") for side in sides}
        return LiveScore(score=dict.fromkeys(sides, 0), games=games, game=1)
    try:
        state = MatchState.from_dict(match.state)
    except EngineError:
        return None
    return LiveScore(score=dict(state.score), games=dict(state.wins), game=len(state.games) + 1)
