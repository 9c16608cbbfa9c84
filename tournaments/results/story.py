"""A match told for spectators: the running score, each hand as a line, a score chart.

Everything here is read from what the engine says: the running score, the chicos won and
the next hand's mano from the match's stored engine state (``Match.state``), each hand's
scoring lines (envido, truco, flor, mazo... with their calls and whether they were
accepted) from ``scoring.score_hand_result`` on the hand's stored record, and the family
an answer belongs to from the engine's hand state before and after it. Nothing is counted
here: a hand whose record the engine refuses is shown with its stored points only, and a
hand in progress (the tablet's draft) is shown up to its last valid event, or not at all.
"""

from __future__ import annotations

import datetime
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from scoring import (
    Answer,
    Call,
    EngineError,
    EnvidoPoints,
    FlorPoints,
    HandState,
    MatchState,
    Mazo,
    MestreDecision,
    Penalty,
    RuleSet,
    Void,
    action_from_event,
    apply,
    hand_from_record,
    phase,
    score_hand_result,
)
from tournaments.championships.selectors import rules_spec
from tournaments.championships.words import words
from tournaments.models import Hand, Match
from tournaments.results import records

CALL_NAMES = {
    "truco": gettext_lazy("truco"),
    "retruco": gettext_lazy("retruco"),
    "vale_cuatro": gettext_lazy("vale cuatro"),
    "envido": gettext_lazy("envido"),
    "real_envido": gettext_lazy("real envido"),
    "falta_envido": gettext_lazy("falta envido"),
    "flor": gettext_lazy("flor"),
    "contraflor": gettext_lazy("contraflor"),
    "contraflor_al_resto": gettext_lazy("contraflor al resto"),
    "truc": gettext_lazy("truc"),
    "tres": gettext_lazy("tres"),
}
ANSWER_NAMES = {
    "quiero": gettext_lazy("quiero"),
    "no_quiero": gettext_lazy("no quiero"),
    "con_flor_me_achico": gettext_lazy("con flor me achico"),
    "con_flor_quiero": gettext_lazy("con flor quiero"),
}
ITEM_NAMES = {
    "envido": gettext_lazy("envido"),
    "flor": gettext_lazy("flor"),
    "truco": gettext_lazy("hand"),
    "mazo": gettext_lazy("mazo"),
    "penalty": gettext_lazy("penalty"),
    "mestre": gettext_lazy("mestre"),
}
ENVIDO_CALLS = frozenset({"envido", "real_envido", "falta_envido"})
FLOR_CALLS = frozenset({"flor", "contraflor", "contraflor_al_resto"})


@dataclass
class Segment:
    """One scoring line of a hand: the steps that led to it ("Ana: envido", "Beto: no
    quiero") and what it gave (``side`` and ``points``; ``side`` None while unsettled)."""

    family: str
    steps: list[str] = field(default_factory=list)
    side: str | None = None
    team: str = ""
    points: int = 0

    @property
    def text(self) -> str:
        """ "Ana: envido, Beto: quiero — Ana +2", as one line."""
        parts = [", ".join(self.steps)] if self.steps else []
        if self.side is not None:
            parts.append(f"{self.team} +{self.points}")
        return " — ".join(parts)


@dataclass(frozen=True)
class HandLine:
    """A hand as spectators read it: its number, chico, the score after, its segments."""

    number: int
    game: int | None
    segments: list[Segment]
    points: dict[str, int]
    score: dict[str, int]
    status: str
    mano: str
    unusual: bool = False  # void, dealt again, or ended the chico: said beside the line
    corrected_at: datetime.datetime | None = None  # marked: the organiser changed it since

    @property
    def text(self) -> str:
        return "; ".join(s.text for s in self.segments if s.text)


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


# A stored hand's segments, kept for a championship day; a hand changed is another key.
TOLD_PREFIX = "story:told:"
TOLD_TIMEOUT = 24 * 3600

HAND_STATUS = {
    "complete": gettext_lazy("Played"),
    "game_over": gettext_lazy("Ends the %(game)s"),
    "void": gettext_lazy("Void"),
    "redeal": gettext_lazy("Dealt again"),
}


def _rules(match: Match) -> RuleSet:
    return RuleSet.from_spec(rules_spec(match.stage.championship, best_of=match.best_of))


def _name(names: Mapping[str, str], key: str | None) -> str:
    return names.get(key, key) if key else ""


def _family_of_call(call: str) -> str:
    if call in ENVIDO_CALLS:
        return "envido"
    if call in FLOR_CALLS:
        return "flor"
    return "truco"


def _family_of_answer(before: HandState, after: HandState) -> str:
    """Which bet an answer closed, read from the engine's state before and after it."""
    if before.envido_status == "pending" and after.envido_status != "pending":
        return "envido"
    if before.flor_pending and not after.flor_pending:
        return "flor"
    return "truco"


def _segments(
    state: HandState, events: Sequence[Any], names: Mapping[str, str]
) -> tuple[list[Segment], HandState]:
    """The hand's calls, answers and folds grouped by bet, in the order they began, up to
    the first event the engine refuses."""
    segments: dict[str, Segment] = {}

    def segment(family: str) -> Segment:
        if family == "truco" and "mestre" in segments:
            # A hand the mestre plays is worth its fixed value: its play is that line.
            family = "mestre"
        if family not in segments:
            segments[family] = Segment(family=family)
        return segments[family]

    for event in events:
        try:
            action = action_from_event(event, state.rules.deck)
            after = apply(state, action)
        except (EngineError, TypeError, ValueError, KeyError):
            break
        player = _name(names, getattr(action, "by", None))
        if isinstance(action, Call):
            word = CALL_NAMES.get(action.call, action.call)
            segment(_family_of_call(action.call)).steps.append(f"{player}: {word}")
        elif isinstance(action, Answer):
            word = ANSWER_NAMES.get(action.answer, action.answer)
            segment(_family_of_answer(state, after)).steps.append(f"{player}: {word}")
        elif isinstance(action, EnvidoPoints | FlorPoints):
            family = "envido" if isinstance(action, EnvidoPoints) else "flor"
            values = ", ".join(f"{_name(names, p)} {n}" for p, n in action.points)
            segment(family).steps.append(values)
        elif isinstance(action, Mazo):
            segment("truco").steps.append(_("%(player)s: to the mazo") % {"player": player})
        elif isinstance(action, MestreDecision):
            if action.decision == "play":
                told = _("%(player)s: the mestre plays") % {"player": player}
            else:
                told = _("%(player)s: the mestre passes") % {"player": player}
            segment("mestre").steps.append(told)
        elif isinstance(action, Penalty):
            segment(f"penalty{len(segments)}").steps.append(
                _("penalty: %(reason)s") % {"reason": action.reason}
            )
        elif isinstance(action, Void):
            segment("void").steps.append(_("void: %(reason)s") % {"reason": action.reason})
        state = after
    return list(segments.values()), state


def _attach(
    segments: list[Segment], items: Sequence[Any], names: Mapping[str, str], tricks: str
) -> None:
    """Give each segment the points the engine's items gave (same bet, in order); a hand
    won without a call is said to be won on the ``tricks``."""
    for item in items:
        family = {"mazo": "truco"}.get(item.kind, item.kind)
        target = next((s for s in segments if s.side is None and s.family.startswith(family)), None)
        if target is None:
            target = Segment(family=family, steps=[tricks] if family == "truco" else [])
            segments.append(target)
        target.side = item.side
        target.team = _name(names, item.side)
        target.points = item.points


def _told(record: dict[str, Any], names: Mapping[str, str], tricks: str) -> list[Segment]:
    """A stored hand's segments, as the engine scores its record ([] if it refuses it)."""
    try:
        result = score_hand_result(record)
        segments, _state = _segments(hand_from_record(record), record.get("events", []), names)
        _attach(segments, result.items, names, tricks)
    except (EngineError, TypeError, ValueError, KeyError):
        return []
    return segments


def _told_key(record: dict[str, Any], names: Mapping[str, str], tricks: str, version: str) -> str:
    # Everything a hand's segments are made of: its whole record (rules, players, order,
    # the score before, the events), the players' names and the words, in this language.
    told = json.dumps(
        [record, sorted(names.items()), tricks, get_language() or "", version],
        sort_keys=True,
        default=str,
    )
    return TOLD_PREFIX + hashlib.sha1(told.encode("utf-8", "surrogatepass")).hexdigest()


def hand_lines(match: Match, hands: Sequence[Hand], *, version: str = "") -> list[HandLine]:
    """Every stored hand of ``match`` in words, most recent first. ``match`` comes from
    ``results.selectors.match_detail`` (teams with their players).

    A stored hand is told once: its segments are kept in the cache under a digest of
    what they are made of, so the page of a long match, rendered again after each hand,
    asks the engine about the new hand only. ``version`` names the deployed code (a new
    release tells every hand afresh); without one nothing is cached.
    """
    names = records.names(match)
    vocabulary = words(match.stage.championship)
    tricks, game_word = str(vocabulary.tricks), str(vocabulary.game)
    standalone = {
        hand.pk: records.standalone_record(match, hand)
        for hand in hands
        if "pica_pica" not in hand.record
    }
    keys = {pk: _told_key(record, names, tricks, version) for pk, record in standalone.items()}
    known = cache.get_many(list(keys.values())) if version else {}
    fresh = {}
    lines = []
    for hand in hands:
        segments: list[Segment] = []
        if hand.pk in standalone:
            key = keys[hand.pk]
            segments = known.get(key) or []
            if key not in known:
                segments = fresh[key] = _told(standalone[hand.pk], names, tricks)
        lines.append(
            HandLine(
                number=hand.number,
                game=hand.game.number if hand.game else None,
                segments=segments,
                points={"A": hand.points_a, "B": hand.points_b},
                score={"A": hand.score_a, "B": hand.score_b},
                status=str(HAND_STATUS.get(hand.status, hand.status)) % {"game": game_word},
                mano=_name(names, hand.order[0] if hand.order else None),
                unusual=hand.status != "complete",
                corrected_at=hand.corrected_at,
            )
        )
    if version and fresh:
        cache.set_many(fresh, TOLD_TIMEOUT)
    lines.reverse()
    return lines


def _state(match: Match, hands: int) -> MatchState | None:
    return records.stored_state(match, hands)


def running(match: Match, hands: int) -> Running | None:
    """The headline: each side's points in the chico being played (with malas/buenas, or
    mestre), the chicos won and the next hand's mano, from the engine's stored state;
    once the match is decided, the chicos each side won.
    None for a bye, a walkover without hands, or a state out of step with the hands."""
    if match.team_b_id is None:
        return None
    state = _state(match, hands)
    if state is None:
        return None
    rules = _rules(match)
    vocabulary = words(match.stage.championship)
    names = records.names(match)
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
    team_of_mano = ""
    for team_key, team in (("A", match.team_a), ("B", match.team_b)):
        if any(m.player.record_key == mano_key for m in team.memberships.all()):
            team_of_mano = team_key
    sides = []
    for key in ("A", "B"):
        found = None if decided else phase(rules, score, key)
        sides.append(
            Side(
                key=key,
                name=names[key],
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
        mano=_name(names, mano_key),
        target=rules.target,
        decided=decided,
    )


@dataclass(frozen=True)
class LiveStart:
    """What the hand in progress is told from, taken from the stored hands: the next
    hand's record as the engine deals it (mano, seats) and the players' names. Kept with
    the match page's stored part, so a tap tells only the draft's events."""

    number: int
    record: dict[str, Any]
    names: dict[str, str]


def live_start(match: Match, hands: int) -> LiveStart | None:
    """The start of hand ``hands + 1`` of ``match``; None when the match is not in play
    or the engine cannot deal it (a pica-pica hand)."""
    if match.status != Match.Status.IN_PROGRESS:
        return None
    state = _state(match, hands)
    if state is None:
        return None
    try:
        upcoming = state.next_hand(records.match_head(match))
    except (EngineError, TypeError, ValueError, KeyError):
        return None
    if upcoming is None or upcoming.record is None:
        return None
    return LiveStart(hands + 1, dict(upcoming.record), records.names(match))


def live_hand(start: LiveStart | None, draft: Any) -> list[Segment] | None:
    """The hand in progress at the table, from the record of the tablet's draft for hand
    ``start.number`` (``results.selectors.draft_record``): its calls and answers so far,
    up to the last event the engine accepts. None when there is no such draft, or it
    cannot be read (a pica-pica hand)."""
    if start is None or not isinstance(draft, Mapping):
        return None
    events = draft.get("events")
    if not isinstance(events, list):
        return None
    record = dict(start.record)
    if isinstance(draft.get("cards"), Mapping):
        record["cards"] = draft["cards"]
    try:
        begun = hand_from_record(record)
    except (EngineError, TypeError, ValueError, KeyError):
        return None
    segments, _after = _segments(begun, events, start.names)
    return segments


CHART_WIDTH = 320
CHART_HEIGHT = 120


def chart(match: Match, hands: Sequence[Hand], game: int) -> Chart | None:
    """The running score of chico ``game`` hand by hand, as polylines for an inline SVG
    (scores are the engine's, stored on the hands). None before its first hand."""
    rows = [h for h in hands if h.game is not None and h.game.number == game]
    if not rows:
        return None
    rules = _rules(match)
    target = rules.target
    count = len(rows)
    step = CHART_WIDTH / max(count, 1)

    def y(value: int) -> float:
        return round(CHART_HEIGHT - CHART_HEIGHT * min(value, target) / target, 1)

    lines = []
    names = records.names(match)
    for key in ("A", "B"):
        first = rows[0].score_before_a if key == "A" else rows[0].score_before_b
        points = [f"0,{y(first)}"]
        for index, hand in enumerate(rows, start=1):
            value = hand.score_a if key == "A" else hand.score_b
            points.append(f"{round(index * step, 1)},{y(value)}")
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


def live_score(match: Match) -> LiveScore | None:
    """The running score of a match in play, or None (not started, decided, a state the
    engine cannot read). Started without a hand yet (no state): 0-0 in its first chico."""
    if match.status != Match.Status.IN_PROGRESS:
        return None
    if match.state is None:
        return LiveScore(
            score={"A": 0, "B": 0}, games={"A": match.chicos_a, "B": match.chicos_b}, game=1
        )
    try:
        state = MatchState.from_dict(match.state)
    except EngineError:
        return None
    return LiveScore(score=dict(state.score), games=dict(state.wins), game=len(state.games) + 1)
