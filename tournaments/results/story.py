"""A match told for spectators: each hand as a line (the headline and the score chart
are in ``results.headline``).

Everything here is read from what the engine says: the next hand's record from the
match's stored engine state (``Match.state``), each hand's scoring lines (envido, truco,
flor, mazo... with their calls and whether they were accepted) from
``scoring.score_hand_result`` on the hand's stored record, and from the engine's hand
state before and after each event: the family an answer belongs to, who took each trick
(or that it was parda), when a side conceded by going to the mazo and which side was
mestre. Nothing is counted here: a hand whose record the engine refuses is shown with its
stored points only, and a hand in progress (the tablet's draft) is shown up to its last
valid event, or not at all.
"""

from __future__ import annotations

import datetime
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.utils.text import get_text_list
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from scoring import (
    Answer,
    Call,
    EngineError,
    EnvidoPoints,
    FlorPoints,
    HandState,
    Mazo,
    MestreDecision,
    Penalty,
    RuleSet,
    Trick,
    Void,
    action_from_event,
    apply,
    hand_from_record,
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
# A card in words ("7 of swords" for ``7E``): the tablet's buttons and the tricks told.
CARD_NAMES = {
    "E": gettext_lazy("%(rank)s of swords"),
    "B": gettext_lazy("%(rank)s of clubs"),
    "O": gettext_lazy("%(rank)s of coins"),
    "C": gettext_lazy("%(rank)s of cups"),
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
    gallo: str = ""  # at a table of three: the hand's gallo, as the engine's record names him

    @property
    def text(self) -> str:
        return "; ".join(s.text for s in self.segments if s.text)


# A stored hand's segments, kept for a championship day; a hand changed is another key.
TOLD_PREFIX = "story:told:"
TOLD_TIMEOUT = 24 * 3600

HAND_STATUS = {
    "complete": gettext_lazy("Played"),
    "game_over": gettext_lazy("Ends the %(game)s"),
    "void": gettext_lazy("Void"),
    "redeal": gettext_lazy("Dealt again"),
}


def hand_status(status: str, championship: Any) -> str:
    """A stored hand's status in words, in the reader's language: a hand that ends a chico
    (a *joc* in Catalan truc) says so, not that the match is over."""
    return str(HAND_STATUS.get(status, status)) % {"game": str(words(championship).game)}


def card_name(card: str) -> str:
    """A card in words, "7 of swords" (``7E``), in the reader's language."""
    return str(CARD_NAMES[card[-1]]) % {"rank": card[:-1]}


def match_rules(match: Match) -> RuleSet:
    """The rules ``match`` is played by, as the engine reads them."""
    return RuleSet.from_spec(rules_spec(match.stage.championship, best_of=match.best_of))


def shown_name(names: Mapping[str, str], key: str | None) -> str:
    """A player's or side's name from ``records.names`` (the key itself if unknown)."""
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


def _side_size(state: HandState, side: str) -> int:
    return sum(1 for player in state.order if state.team[player] == side)


def _trick_told(
    before: HandState, after: HandState, action: Any, names: Mapping[str, str], trick: str
) -> str:
    """The trick the engine has just closed (``after.tricks[-1]``): parda, or who took it.

    Card by card, the engine made the player who took it the next leader, and his card is
    the last he played; trick by trick, only the side is known."""
    number = len(after.tricks)
    winner = after.tricks[-1]
    if winner not in before.sides:
        return _("%(trick)s %(number)s: parda (tied)") % {"trick": trick, "number": number}
    team = shown_name(names, winner)
    if isinstance(action, Trick) or not after.played.get(after.leader):
        return _("%(trick)s %(number)s to %(team)s") % {
            "trick": trick,
            "number": number,
            "team": team,
        }
    told = {
        "trick": trick,
        "number": number,
        "team": team,
        "player": shown_name(names, after.leader),
        "card": card_name(str(after.played[after.leader][-1])),
    }
    # No comma inside a step: a segment's steps are joined by commas.
    if _side_size(after, winner) == 1:
        return _("%(trick)s %(number)s to %(player)s with the %(card)s") % told
    return _("%(trick)s %(number)s to %(team)s: %(player)s with the %(card)s") % told


def _mestre_told(state: HandState, action: MestreDecision, names: Mapping[str, str]) -> str:
    """The rule of 11 in words a spectator follows: which side is mestre, at what score,
    and what its cap de colla chose."""
    side = state.mestre or state.team[action.by]
    told = {
        "team": shown_name(names, side),
        "score": state.score.get(side, 0),
        "player": shown_name(names, action.by),
    }
    if action.decision == "play":
        return _("%(team)s is mestre at %(score)s: %(player)s chooses to play (no calls)") % told
    return _("%(team)s is mestre at %(score)s: %(player)s passes (the hand is not played)") % told


def _folded(players: Sequence[str]) -> str:
    if len(players) == 1:
        return _("%(player)s: to the mazo") % {"player": players[0]}
    return _("%(players)s: to the mazo") % {"players": get_text_list(list(players), _("and"))}


def _segments(
    state: HandState, events: Sequence[Any], names: Mapping[str, str], trick: str = ""
) -> tuple[list[Segment], HandState]:
    """The hand's calls, answers, tricks and folds grouped by bet, in the order they began,
    up to the first event the engine refuses.

    Folds are told per side: the players of one side who go to the mazo between two
    tricks make one step, and a side that concedes (all its players folded) one step
    where it did, its earlier folds folded into it."""
    segments: dict[str, Segment] = {}
    # Each side's fold steps so far (segment, index), the one still open to more names
    # (closed by the next trick), and the steps a conceding side's one step replaces.
    fold_steps: dict[str, list[tuple[Segment, int]]] = {}
    open_folds: dict[str, tuple[Segment, int, list[str]]] = {}
    replaced: set[tuple[str, int]] = set()

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
        player = shown_name(names, getattr(action, "by", None))
        if isinstance(action, Call):
            word = CALL_NAMES.get(action.call, action.call)
            segment(_family_of_call(action.call)).steps.append(f"{player}: {word}")
        elif isinstance(action, Answer):
            word = ANSWER_NAMES.get(action.answer, action.answer)
            segment(_family_of_answer(state, after)).steps.append(f"{player}: {word}")
        elif isinstance(action, EnvidoPoints | FlorPoints):
            family = "envido" if isinstance(action, EnvidoPoints) else "flor"
            values = ", ".join(f"{shown_name(names, p)} {n}" for p, n in action.points)
            segment(family).steps.append(values)
        elif isinstance(action, Mazo):
            side = state.team[action.by]
            told = segment("truco")
            if after.decided == "mazo" and state.decided is None and _side_size(state, side) > 1:
                replaced |= {(s.family, index) for s, index in fold_steps.pop(side, [])}
                open_folds.pop(side, None)
                told.steps.append(
                    _("%(team)s: the whole side to the mazo") % {"team": shown_name(names, side)}
                )
            elif side in open_folds:
                earlier, index, players = open_folds[side]
                players.append(player)
                earlier.steps[index] = _folded(players)
            else:
                told.steps.append(_folded([player]))
                open_folds[side] = (told, len(told.steps) - 1, [player])
                fold_steps.setdefault(side, []).append((told, len(told.steps) - 1))
        elif isinstance(action, MestreDecision):
            segment("mestre").steps.append(_mestre_told(state, action, names))
        elif isinstance(action, Penalty):
            segment(f"penalty{len(segments)}").steps.append(
                _("penalty: %(reason)s") % {"reason": action.reason}
            )
        elif isinstance(action, Void):
            segment("void").steps.append(_("void: %(reason)s") % {"reason": action.reason})
        if len(after.tricks) > len(state.tricks):
            segment("truco").steps.append(_trick_told(state, after, action, names, trick))
            open_folds.clear()
        state = after
    for told in segments.values():
        told.steps = [s for n, s in enumerate(told.steps) if (told.family, n) not in replaced]
    return list(segments.values()), state


def _attach(segments: list[Segment], items: Sequence[Any], names: Mapping[str, str]) -> None:
    """Give each segment the points the engine's items gave (same bet, in order); the hand
    won on its tricks, without a call, gets them on the line of its tricks."""
    for item in items:
        family = {"mazo": "truco"}.get(item.kind, item.kind)
        target = next((s for s in segments if s.side is None and s.family.startswith(family)), None)
        if target is None:
            target = Segment(family=family)
            segments.append(target)
        target.side = item.side
        target.team = shown_name(names, item.side)
        target.points = item.points


def _hand_names(state: HandState, names: Mapping[str, str]) -> Mapping[str, str]:
    """At a table of three the pair plays as one side, named after its first player's:
    that side is told by both its players' names ("Ana and Bea took the trick"), not the
    first one's alone. Other hands: the names as they are."""
    if state.gallo is None:
        return names
    pair = next(side for side in state.sides if side != state.team[state.gallo])
    return {**names, pair: side_players(state, pair, names)}


def side_players(state: HandState, side: str, names: Mapping[str, str]) -> str:
    """The names of a side's players in this hand: "Ana and Alba"."""
    # Team order, not playing order: a side's buttons read the same every hand.
    players = [names.get(p, p) for p, s in state.team.items() if s == side]
    return str(get_text_list(players, _("and")))


def _told(record: dict[str, Any], names: Mapping[str, str], trick: str) -> list[Segment]:
    """A stored hand's segments, as the engine scores its record ([] if it refuses it);
    ``trick`` is the game's word for a trick (baza, donada)."""
    try:
        result = score_hand_result(record)
        events = record.get("events", [])
        begun = hand_from_record(record)
        names = _hand_names(begun, names)
        segments, _state = _segments(begun, events, names, trick)
        _attach(segments, result.items, names)
    except (EngineError, TypeError, ValueError, KeyError):
        return []
    return segments


def _told_key(record: dict[str, Any], names: Mapping[str, str], trick: str, version: str) -> str:
    # Everything a hand's segments are made of: its whole record (rules, players, order,
    # the score before, the events), the players' names and the words, in this language.
    told = json.dumps(
        [record, sorted(names.items()), trick, get_language() or "", version],
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
    names = records.names(match, public=True)
    vocabulary = words(match.stage.championship)
    trick = str(vocabulary.trick)
    standalone = {
        hand.pk: records.standalone_record(match, hand)
        for hand in hands
        if "pica_pica" not in hand.record
    }
    keys = {pk: _told_key(record, names, trick, version) for pk, record in standalone.items()}
    known = cache.get_many(list(keys.values())) if version else {}
    fresh = {}
    lines = []
    for hand in hands:
        segments: list[Segment] = []
        if hand.pk in standalone:
            key = keys[hand.pk]
            segments = known.get(key) or []
            if key not in known:
                segments = fresh[key] = _told(standalone[hand.pk], names, trick)
        lines.append(
            HandLine(
                number=hand.number,
                game=hand.game.number if hand.game else None,
                segments=segments,
                points={"A": hand.points_a, "B": hand.points_b, **_c(match, hand.points_c)},
                score={"A": hand.score_a, "B": hand.score_b, **_c(match, hand.score_c)},
                status=hand_status(hand.status, match.stage.championship),
                mano=shown_name(names, hand.order[0] if hand.order else None),
                unusual=hand.status != "complete",
                corrected_at=hand.corrected_at,
                gallo=shown_name(names, standalone.get(hand.pk, hand.record).get("gallo")),
            )
        )
    if version and fresh:
        cache.set_many(fresh, TOLD_TIMEOUT)
    lines.reverse()
    return lines


def _c(match: Match, value: int) -> dict[str, int]:
    """The third side's figure, at a table of three only (three running scores)."""
    return {"C": value} if match.team_c_id is not None else {}


@dataclass(frozen=True)
class LiveStart:
    """What the hand in progress is told from, taken from the stored hands: the next
    hand's record as the engine deals it (mano, seats), the players' names and the game's
    word for a trick. Kept with the match page's stored part (one per language), so a tap
    tells only the draft's events."""

    number: int
    record: dict[str, Any]
    names: dict[str, str]
    trick: str = ""


def live_start(match: Match, hands: int) -> LiveStart | None:
    """The start of hand ``hands + 1`` of ``match``; None when the match is not in play
    or the engine cannot deal it (a pica-pica hand)."""
    if match.status != Match.Status.IN_PROGRESS:
        return None
    state = records.stored_state(match, hands)
    if state is None:
        return None
    try:
        upcoming = state.next_hand(records.match_head(match))
    except (EngineError, TypeError, ValueError, KeyError):
        return None
    if upcoming is None or upcoming.record is None:
        return None
    trick = str(words(match.stage.championship).trick)
    return LiveStart(hands + 1, dict(upcoming.record), records.names(match, public=True), trick)


def live_hand(start: LiveStart | None, draft: Any) -> list[Segment] | None:
    """The hand in progress at the table, from the record of the tablet's draft for hand
    ``start.number`` (``results.selectors.draft_record``): its calls, answers, tricks and
    folds so far, up to the last event the engine accepts. None when there is no such draft, or it
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
    segments, _after = _segments(begun, events, _hand_names(begun, start.names), start.trick)
    return segments
