"""Tanteo's rules engine for truco: Argentine (with or without flor), Trucardo, Catalan truc.

Pure Python, standard library only. The front door, after python-chess: rule sets and
their options, cards, actions, a hand as a state machine (``start_hand``,
``legal_actions``, ``apply``), whole records scored into frozen results
(``score_hand_result``, ``score_match_result``) or into the plain JSON of the command
line (``score_hand``, ``score_match``), a match recorded as its result checked and scored
(``score_reported_result``), and :class:`HandEntry` for entering a match's next hand.
Every refusal is an :class:`EngineError` with a stable ``code`` (docs/scoring.md); the
rules are in docs/rules.md, the record format in docs/hand-record.md.

>>> import scoring
>>> state = scoring.start_hand({"rules": "argentine", "teams": {"A": ["ana"], "B": ["beto"]},
...     "order": ["ana", "beto"], "score": {"A": 0, "B": 0}, "events": []})
>>> state = scoring.apply(state, scoring.Call("ana", scoring.CallName.TRUCO))
>>> state = scoring.apply(state, scoring.Answer("beto", scoring.AnswerName.QUIERO))
>>> for winner in ("A", "A"):
...     state = scoring.apply(state, scoring.Trick(winner))
>>> scoring.is_finished(state), scoring.hand_result(state).points
(True, {'A': 2, 'B': 0})
>>> [o.key for o in scoring.options_for("argentine", players=3)][:3]
['target', 'best_of', 'flor']
"""

from __future__ import annotations

from scoring.actions import (
    ANSWERS,
    Action,
    Answer,
    Call,
    EnvidoPoints,
    EnvidoWinner,
    FlorPoints,
    FlorWinner,
    Mazo,
    MestreDecision,
    Penalty,
    Play,
    Trick,
    Void,
    action_from_event,
)
from scoring.archive import (
    ARCHIVE_FORMAT,
    ARCHIVE_VERSION,
    Disagreement,
    check_archive,
    rename_players,
)
from scoring.cards import (
    CATALAN_48,
    SPANISH_40,
    Card,
    envido_points,
    flor_points,
    has_flor,
    parse_card,
)
from scoring.entry import EntryPart, HandEntry
from scoring.enums import AnswerName, CallName, Family, HandKind, HandStatus, Suit
from scoring.errors import (
    CATALOGUE,
    CardError,
    EngineError,
    IllegalActionError,
    MatchError,
    RecordError,
    RuleSetError,
)
from scoring.facts import (
    HandFacts,
    PlayerFacts,
    SideFacts,
    fact_items,
    hand_facts,
    match_hand_facts,
)
from scoring.hand import apply, hand_result, is_finished, legal_actions, needs_settlement, result
from scoring.match import (
    MatchResult,
    MatchState,
    next_hand,
    next_hand_from_state,
    score_match,
    score_match_result,
    score_next_hand,
    subhand_record,
)
from scoring.options import OPTIONS, Choice, Option, options_for
from scoring.phases import Phase, phase
from scoring.placement import PLACEMENT_KEYS, Placement, table_placement
from scoring.record import check_text, hand_from_record, score_hand, score_hand_result
from scoring.reported import ReportedResult, score_reported_result
from scoring.results import Game, HandResult, Item, MatchHand, NextHand
from scoring.rules import PRESETS, Ladder, RuleSet
from scoring.session import team_mazo
from scoring.state import HandState

#: A hand record (its ``events`` ignored) -> the state before the first event.
start_hand = hand_from_record

__all__ = [
    "ANSWERS",
    "ARCHIVE_FORMAT",
    "ARCHIVE_VERSION",
    "CATALAN_48",
    "CATALOGUE",
    "OPTIONS",
    "PLACEMENT_KEYS",
    "PRESETS",
    "SPANISH_40",
    "Action",
    "Answer",
    "AnswerName",
    "Call",
    "CallName",
    "Card",
    "CardError",
    "Choice",
    "Disagreement",
    "EngineError",
    "EntryPart",
    "EnvidoPoints",
    "EnvidoWinner",
    "Family",
    "FlorPoints",
    "FlorWinner",
    "Game",
    "HandEntry",
    "HandFacts",
    "HandKind",
    "HandResult",
    "HandState",
    "HandStatus",
    "IllegalActionError",
    "Item",
    "Ladder",
    "MatchError",
    "MatchHand",
    "MatchResult",
    "MatchState",
    "Mazo",
    "MestreDecision",
    "NextHand",
    "Option",
    "Penalty",
    "Phase",
    "Placement",
    "Play",
    "PlayerFacts",
    "RecordError",
    "ReportedResult",
    "RuleSet",
    "RuleSetError",
    "SideFacts",
    "Suit",
    "Trick",
    "Void",
    "action_from_event",
    "apply",
    "check_archive",
    "check_text",
    "envido_points",
    "fact_items",
    "flor_points",
    "hand_facts",
    "hand_from_record",
    "hand_result",
    "has_flor",
    "is_finished",
    "legal_actions",
    "match_hand_facts",
    "needs_settlement",
    "next_hand",
    "next_hand_from_state",
    "options_for",
    "parse_card",
    "phase",
    "rename_players",
    "result",
    "score_hand",
    "score_hand_result",
    "score_match",
    "score_match_result",
    "score_next_hand",
    "score_reported_result",
    "start_hand",
    "subhand_record",
    "table_placement",
    "team_mazo",
]
