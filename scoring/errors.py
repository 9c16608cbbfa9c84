"""The engine's one error hierarchy: every refusal has a stable ``code`` and a message.

The message is English and written for a referee; ``params`` holds the values put into it
so the Django side can translate by ``code`` with the same parameters. Every code, its
family and its message template live in :data:`CATALOGUE` (documented in
``docs/scoring.md``).

>>> err = error("not_your_turn", player="beto", expected="ana")
>>> err.code, err.message
('not_your_turn', "It is not beto's turn to play a card: ana plays next.")
>>> isinstance(err, IllegalActionError) and isinstance(err, ValueError)
True
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "CATALOGUE",
    "CardError",
    "EngineError",
    "IllegalActionError",
    "MatchError",
    "RecordError",
    "RuleSetError",
    "error",
]


class EngineError(ValueError):
    """Anything the engine refuses: bad input or an illegal sequence of actions.

    ``event`` is the 0-based index of the offending event in a record, or ``None``;
    ``hand`` the 0-based index of the offending hand of a match record, or ``None``.
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        event: int | None = None,
        params: dict[str, Any] | None = None,
        hand: int | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.event = event
        self.hand = hand
        self.params: dict[str, Any] = dict(params or {})

    def to_dict(self) -> dict[str, Any]:
        """The error object of docs/hand-record.md (without the ``error`` wrapper)."""
        return {"code": self.code, "message": self.message, "event": self.event}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r}, event={self.event!r})"


class RecordError(EngineError):
    """The record itself is malformed: bad JSON, missing fields, wrong types."""


class RuleSetError(EngineError):
    """An unknown preset, an unknown option or a bad option value."""


class MatchError(RecordError):
    """A match record wrong as a whole, or a hand out of its place in the match."""


class CardError(EngineError):
    """A card that does not exist in the deck, or a hand that cannot be valued."""


class IllegalActionError(EngineError):
    """A well-formed action that the rules do not allow at this point of the hand."""


# code -> (family, message template). Templates use str.format with the error's params.
CATALOGUE: dict[str, tuple[type[EngineError], str]] = {
    # -- input and record format
    "bad_json": (RecordError, "The input is not valid JSON: {detail}."),
    "bad_encoding": (RecordError, "The input is not valid UTF-8 text."),
    "bad_record": (RecordError, "The hand record must be a JSON object."),
    "missing_field": (RecordError, "The record has no '{field}' field."),
    "bad_field": (RecordError, "The field '{field}' is invalid: {detail}."),
    "bad_teams": (RecordError, "The teams are invalid: {detail}."),
    "bad_player_count": (
        RecordError,
        "{count} players in sides of {sizes} cannot play {family} truco.",
    ),
    "bad_order": (RecordError, "'order' must list every player exactly once: {detail}."),
    "bad_score": (RecordError, "The score is invalid: {detail}."),
    "bad_captains": (RecordError, "The captains are invalid: {detail}."),
    "bad_gallo": (RecordError, "The gallo is invalid: {detail}."),
    "bad_pica_pica": (RecordError, "A pica-pica hand is not possible here: {detail}."),
    "bad_cards": (RecordError, "The cards of {player} are invalid: {detail}."),
    "bad_event": (RecordError, "Event {number} is not a valid event: {detail}."),
    "bad_text": (
        RecordError,
        "The record holds text that cannot be stored: a NUL byte or a lone surrogate in {where}.",
    ),
    "unknown_player": (RecordError, "{player} is not a player of this hand."),
    "unknown_side": (RecordError, "{side} is not a side of this hand."),
    "unknown_command": (
        RecordError,
        "Unknown command '{command}': use hand, match, result, archive-check, envido or flor.",
    ),
    "bad_arguments": (RecordError, "Bad arguments: {detail}."),
    "archive_invalid": (RecordError, "The archive is invalid at {path}: {detail}."),
    # -- rule sets
    "unknown_preset": (
        RuleSetError,
        "Unknown rule preset '{preset}': use argentine, argentine_flor, trucardo or catalan.",
    ),
    "missing_preset": (RuleSetError, "The rules object must name its 'preset'."),
    "unknown_option": (RuleSetError, "Unknown rule option '{option}'."),
    "bad_option_value": (
        RuleSetError,
        "Rule option '{option}' cannot be {value}: allowed {allowed}.",
    ),
    "option_not_applicable": (
        RuleSetError,
        "Rule option '{option}' does not apply to the {preset} preset.",
    ),
    # -- cards
    "bad_card": (CardError, "'{card}' is not a card of the {deck} deck."),
    "duplicate_card": (CardError, "The card {card} appears twice."),
    "not_a_flor": (CardError, "{cards} is not a flor: a flor is three cards of one suit."),
    # -- the hand: order of play
    "hand_decided": (
        IllegalActionError,
        "The hand is already decided: only envido or flor settlements and penalties may follow.",
    ),
    "hand_incomplete": (
        IllegalActionError,
        "The record stops before the hand is decided.",
    ),
    "settlement_missing": (
        IllegalActionError,
        "The accepted {what} was never settled: record the points or the winner.",
    ),
    "player_folded": (IllegalActionError, "{player} has gone to the mazo and takes no part."),
    "mixed_entry": (
        IllegalActionError,
        "A hand is entered either trick by trick or card by card, not both.",
    ),
    "not_your_turn": (
        IllegalActionError,
        "It is not {player}'s turn to play a card: {expected} plays next.",
    ),
    "card_not_yours": (IllegalActionError, "{card} is not in {player}'s hand."),
    "card_unavailable": (IllegalActionError, "{card} has already been played or dealt."),
    "no_cards_left": (IllegalActionError, "{player} has no card left to play."),
    "answer_pending": (
        IllegalActionError,
        "The {what} call of side {side} must be answered first.",
    ),
    "mestre_first": (
        IllegalActionError,
        "Side {side} is mestre: its cap de colla must first decide to play or pass.",
    ),
    # -- calls and answers
    "unknown_call": (IllegalActionError, "'{call}' is not a call of {family} truco."),
    "nothing_to_answer": (IllegalActionError, "There is no call waiting for an answer."),
    "not_answering_side": (
        IllegalActionError,
        "{player} cannot answer: the call was made by his own side.",
    ),
    "not_captain": (
        IllegalActionError,
        "In catalan truc only the cap de colla ({captain}) answers for side {side}.",
    ),
    "bad_answer": (IllegalActionError, "'{answer}' is not an answer to a {what} call."),
    "no_announcements": (
        IllegalActionError,
        "The mestre decided to play: nobody may announce in this hand.",
    ),
    "call_not_in_turn": (
        IllegalActionError,
        "{player} may call only on his turn to play or right after playing his card.",
    ),
    "truco_order": (
        IllegalActionError,
        "'{call}' is not the next step: the next step is '{expected}'.",
    ),
    "truco_top": (IllegalActionError, "The {call} is already at its top value."),
    "raise_not_allowed": (
        IllegalActionError,
        "Only side {side}, which accepted the last step, may raise the {call}.",
    ),
    "envido_disabled": (IllegalActionError, "There is no envido in {family} truc."),
    "envido_too_late": (
        IllegalActionError,
        "The envido can no longer be called: {detail}.",
    ),
    "envido_closed": (IllegalActionError, "The envido of this hand has already been played."),
    "envido_chain": (
        IllegalActionError,
        "'{call}' cannot follow {chain} in the envido chain.",
    ),
    "envido_limit": (
        IllegalActionError,
        "The envido chain allows at most {limit} calls.",
    ),
    "nothing_to_settle": (IllegalActionError, "There is no accepted {what} to settle."),
    "bad_settlement": (IllegalActionError, "The {what} settlement is invalid: {detail}."),
    "value_contradicts_cards": (
        IllegalActionError,
        "{player} declared {declared} for the {what} but his cards are worth {actual}.",
    ),
    "winner_contradicts_cards": (
        IllegalActionError,
        "The cards give the {what} to side {actual}, not {declared}.",
    ),
    "flor_disabled": (IllegalActionError, "This rule set is played without flor."),
    "flor_too_late": (IllegalActionError, "The flor can no longer be sung: {detail}."),
    "flor_already_sung": (IllegalActionError, "{player} has already sung his flor."),
    "no_flor": (IllegalActionError, "{player}'s cards are not a flor."),
    "flor_answer_not_allowed": (
        IllegalActionError,
        "'{call}' is not possible now: {detail}.",
    ),
    "mazo_own_call": (
        IllegalActionError,
        "Side {side} cannot go to the mazo while its own call awaits an answer.",
    ),
    "not_mestre": (IllegalActionError, "The rule of 11 does not apply in this hand."),
    "mestre_decided": (IllegalActionError, "The mestre has already decided."),
    "penalty_too_big": (
        IllegalActionError,
        "A penalty is more than these rules allow: at most {limit} points.",
    ),
    "void_after_decided": (
        IllegalActionError,
        "A decided hand cannot be voided; record a penalty instead.",
    ),
    # -- the match layer (errors carry ``hand``)
    "match_invalid": (MatchError, "{detail}"),
    "seats_invalid": (
        MatchError,
        "'seats' must list every player of the teams exactly once, counter-clockwise.",
    ),
    "hand_invalid": (MatchError, "Hand {number} must be a JSON object."),
    "match_over": (
        MatchError,
        "The match was already won by {winner}; hand {number} cannot be added.",
    ),
    "gallo_teams": (MatchError, "{detail}"),
    "gallo_mismatch": (MatchError, "The gallo of this hand is {gallo}, not {named}."),
    "redondo_expected": (
        MatchError,
        "Hand {number} is a redondo hand: everyone plays it together.",
    ),
    "pica_pica_expected": (
        MatchError,
        "Hand {number} is a pica-pica hand: record each pair's sub-hand.",
    ),
    "pica_pica_invalid": (MatchError, "{detail}"),
    "pairs_invalid": (
        MatchError,
        "Each player must be in exactly one pair, facing an opponent.",
    ),
    "bad_draft": (MatchError, "The hand being entered is damaged or out of date: {detail}."),
    "placement_invalid": (MatchError, "{detail}"),
    # -- a match recorded as its result (``scoring.reported``; ``params["index"]``: the chico)
    "result_invalid": (MatchError, "The reported result is invalid: {detail}."),
    "chico_unfinished": (
        MatchError,
        "Nobody reached {target} in {word} {number}: a {word} ends when a side reaches {target}.",
    ),
    "chico_past_target": (
        MatchError,
        "{side} has {points} in {word} {number}: a {word} ends the moment a side reaches "
        "{target}, and points beyond it are not counted.",
    ),
    "chico_tied": (
        MatchError,
        "Both {side} and {other} reached {target} in {word} {number}: only one side wins a {word}.",
    ),
    "chico_winner_needed": (
        MatchError,
        "Both {side} and {other} reached {target} in {word} {number}: say which of them won it.",
    ),
    "chico_winner_contradicts": (
        MatchError,
        "{winner} did not win {word} {number}: a {word} is won by reaching {target}, and "
        "{winner} has {points}.",
    ),
    "chico_after_match": (
        MatchError,
        "{winner} had already won the match in {word} {decided}: {word} {number} cannot follow.",
    ),
    "match_not_decided": (
        MatchError,
        "The match is not over: the {words} played ({played}) give no side the {need} it needs.",
    ),
    "winner_contradicts_result": (
        MatchError,
        "The {words} give the match to {actual}, not {stated}.",
    ),
}


def error(
    code: str, *, event: int | None = None, hand: int | None = None, **params: Any
) -> EngineError:
    """Build the error of ``code`` from the catalogue, its message filled from ``params``."""
    family, template = CATALOGUE[code]
    return family(code, template.format(**params), event=event, params=params, hand=hand)
