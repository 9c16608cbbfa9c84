"""The one user error of the championships, and the translation of engine errors.

``TournamentError`` is a ``ValidationError``: views show ``error.messages`` (translated
in the language active when they are read). Engine errors (``scoring.errors.EngineError``)
and format errors (``tournaments.formats.FormatError``) are translated here, at the edge,
by their stable ``code`` with the error's ``params``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from scoring import EngineError
from tournaments.formats.base import FormatError


class TournamentError(ValidationError):
    """A user error with a translated message; ``hand`` and ``event`` locate a bad record.

    ``hand`` is the 1-based number of the offending hand, ``event`` the 0-based index of
    its offending event (docs/hand-record.md), both ``None`` when they do not apply.
    """

    def __init__(
        self,
        message: Any,
        *,
        code: str = "invalid",
        params: Mapping[str, Any] | None = None,
        hand: int | None = None,
        event: int | None = None,
    ) -> None:
        super().__init__(message, code=code, params=dict(params or {}))
        self.hand = hand
        self.event = event

    @property
    def text(self) -> str:
        """The message in the active language."""
        return " ".join(self.messages)


# Engine code -> message template (the engine's own English, with %-style parameters).
ENGINE_MESSAGES: dict[str, Any] = {
    "bad_json": _("The input is not valid JSON: %(detail)s."),
    "bad_text": _(
        "The record holds text that cannot be stored: a NUL byte or a lone surrogate in %(where)s."
    ),
    "bad_draft": _("The hand being entered is damaged or out of date: %(detail)s."),
    "penalty_too_big": _("A penalty is more than these rules allow: at most %(limit)s points."),
    "pairs_invalid": _("Each player must be in exactly one pair, facing an opponent."),
    "bad_encoding": _("The input is not valid UTF-8 text."),
    "bad_record": _("The hand record must be a JSON object."),
    "missing_field": _("The record has no '%(field)s' field."),
    "bad_field": _("The field '%(field)s' is invalid: %(detail)s."),
    "bad_teams": _("The teams are invalid: %(detail)s."),
    "bad_player_count": _("%(count)s players in sides of %(sizes)s cannot play %(family)s truco."),
    "bad_order": _("'order' must list every player exactly once: %(detail)s."),
    "bad_score": _("The score is invalid: %(detail)s."),
    "bad_captains": _("The captains are invalid: %(detail)s."),
    "bad_gallo": _("The gallo is invalid: %(detail)s."),
    "bad_pica_pica": _("A pica-pica hand is not possible here: %(detail)s."),
    "bad_cards": _("The cards of %(player)s are invalid: %(detail)s."),
    "bad_event": _("Event %(number)s is not a valid event: %(detail)s."),
    "unknown_player": _("%(player)s is not a player of this hand."),
    "unknown_side": _("%(side)s is not a side of this hand."),
    "unknown_command": _(
        "Unknown command '%(command)s': use hand, match, result, archive-check, envido or flor."
    ),
    "bad_arguments": _("Bad arguments: %(detail)s."),
    "archive_invalid": _("The archive is invalid at %(path)s: %(detail)s."),
    "unknown_preset": _(
        "Unknown rule preset '%(preset)s': use argentine, argentine_flor, trucardo or catalan."
    ),
    "missing_preset": _("The rules object must name its 'preset'."),
    "unknown_option": _("Unknown rule option '%(option)s'."),
    "bad_option_value": _("Rule option '%(option)s' cannot be %(value)s: allowed %(allowed)s."),
    "option_not_applicable": _("Rule option '%(option)s' does not apply to the %(preset)s preset."),
    "bad_card": _("'%(card)s' is not a card of the %(deck)s deck."),
    "duplicate_card": _("The card %(card)s appears twice."),
    "not_a_flor": _("%(cards)s is not a flor: a flor is three cards of one suit."),
    "hand_decided": _(
        "The hand is already decided: only envido or flor settlements and penalties may follow."
    ),
    "hand_incomplete": _("The record stops before the hand is decided."),
    "settlement_missing": _(
        "The accepted %(what)s was never settled: record the points or the winner."
    ),
    "player_folded": _("%(player)s has gone to the mazo and takes no part."),
    "mixed_entry": _("A hand is entered either trick by trick or card by card, not both."),
    "not_your_turn": _("It is not %(player)s's turn to play a card: %(expected)s plays next."),
    "card_not_yours": _("%(card)s is not in %(player)s's hand."),
    "card_unavailable": _("%(card)s has already been played or dealt."),
    "no_cards_left": _("%(player)s has no card left to play."),
    "answer_pending": _("The %(what)s call of side %(side)s must be answered first."),
    "mestre_first": _(
        "Side %(side)s is mestre: its cap de colla must first decide to play or pass."
    ),
    "unknown_call": _("'%(call)s' is not a call of %(family)s truco."),
    "nothing_to_answer": _("There is no call waiting for an answer."),
    "not_answering_side": _("%(player)s cannot answer: the call was made by his own side."),
    "not_captain": _(
        "In catalan truc only the cap de colla (%(captain)s) answers for side %(side)s."
    ),
    "bad_answer": _("'%(answer)s' is not an answer to a %(what)s call."),
    "no_announcements": _("The mestre decided to play: nobody may announce in this hand."),
    "call_not_in_turn": _(
        "%(player)s may call only on his turn to play or right after playing his card."
    ),
    "truco_order": _("'%(call)s' is not the next step: the next step is '%(expected)s'."),
    "truco_top": _("The %(call)s is already at its top value."),
    "raise_not_allowed": _(
        "Only side %(side)s, which accepted the last step, may raise the %(call)s."
    ),
    "envido_disabled": _("There is no envido in %(family)s truc."),
    "envido_too_late": _("The envido can no longer be called: %(detail)s."),
    "envido_closed": _("The envido of this hand has already been played."),
    "envido_chain": _("'%(call)s' cannot follow %(chain)s in the envido chain."),
    "envido_limit": _("The envido chain allows at most %(limit)s calls."),
    "nothing_to_settle": _("There is no accepted %(what)s to settle."),
    "bad_settlement": _("The %(what)s settlement is invalid: %(detail)s."),
    "value_contradicts_cards": _(
        "%(player)s declared %(declared)s for the %(what)s but his cards are worth %(actual)s."
    ),
    "winner_contradicts_cards": _(
        "The cards give the %(what)s to side %(actual)s, not %(declared)s."
    ),
    "flor_disabled": _("This rule set is played without flor."),
    "flor_too_late": _("The flor can no longer be sung: %(detail)s."),
    "flor_already_sung": _("%(player)s has already sung his flor."),
    "no_flor": _("%(player)s's cards are not a flor."),
    "flor_answer_not_allowed": _("'%(call)s' is not possible now: %(detail)s."),
    "mazo_own_call": _("Side %(side)s cannot go to the mazo while its own call awaits an answer."),
    "not_mestre": _("The rule of 11 does not apply in this hand."),
    "mestre_decided": _("The mestre has already decided."),
    "void_after_decided": _("A decided hand cannot be voided; record a penalty instead."),
    "match_invalid": _("The match record is invalid."),
    "match_over": _("The match was already won by %(winner)s; hand %(number)s cannot be added."),
    "hand_invalid": _("Hand %(number)s must be a JSON object."),
    "seats_invalid": _("The seats must list every player of both teams exactly once."),
    "gallo_teams": _("The teams do not fit the gallo rule of this championship."),
    "redondo_expected": _("Hand %(number)s is a redondo hand: everyone plays it together."),
    "pica_pica_expected": _("Hand %(number)s is a pica-pica hand: record each pair's sub-hand."),
    "gallo_mismatch": _("The gallo of this hand is %(gallo)s, not %(named)s."),
    "placement_invalid": _(
        "A table's placement ranks by chicos, last chico and tantos, each once."
    ),
    "pica_pica_invalid": _(
        "The pica-pica sub-hands are invalid: each player plays exactly one, against one opponent."
    ),
    "result_invalid": _("The reported result is invalid."),
    "chico_unfinished": _(
        "Nobody reached %(target)s in %(word)s %(number)s: a %(word)s ends when a side "
        "reaches %(target)s."
    ),
    "chico_past_target": _(
        "%(side)s has %(points)s in %(word)s %(number)s: a %(word)s ends the moment a side "
        "reaches %(target)s, and points beyond it are not counted."
    ),
    "chico_tied": _(
        "Both %(side)s and %(other)s reached %(target)s in %(word)s %(number)s: only one side "
        "wins a %(word)s."
    ),
    "chico_winner_needed": _(
        "Both %(side)s and %(other)s reached %(target)s in %(word)s %(number)s: say which of "
        "them won it."
    ),
    "chico_winner_contradicts": _(
        "%(winner)s did not win %(word)s %(number)s: a %(word)s is won by reaching "
        "%(target)s, and %(winner)s has %(points)s."
    ),
    "chico_after_match": _(
        "%(winner)s had already won the match in %(word)s %(decided)s: %(word)s %(number)s "
        "cannot follow."
    ),
    "match_not_decided": _(
        "The match is not over: the %(words)s played (%(played)s) give no side the %(need)s it "
        "needs."
    ),
    "winner_contradicts_result": _("The %(words)s give the match to %(actual)s, not %(stated)s."),
}

FORMAT_MESSAGES: dict[str, Any] = {
    "too_few_teams": _("At least two teams are needed."),
    "duplicate_team": _("A team is listed twice."),
    "no_bye_left": _("Every team has already had its bye."),
    "bad_group_count": _("There are not enough teams for that many groups of at least two."),
    "group_too_small": _("A group has fewer teams than the number that advance."),
    "bad_advance": _("At least one team per group must advance."),
    "bad_cycles": _("A round robin has one or two cycles."),
    "already_decided": _("This match is already decided."),
    "not_ready": _("This match is still waiting for its teams."),
    "not_in_match": _("That team does not play this match."),
    "empty_chain": _("Choose at least one tie-break."),
    "unknown_tiebreak": _("Unknown tie-break."),
    "repeated_tiebreak": _("A tie-break appears twice in the chain."),
    "lots_not_last": _("The drawing of lots must be the last tie-break."),
    "bad_remainder": _("Players left over are seated at tables of two or given a bye."),
    "tables_size": _("A round robin of tables is made for 3, 6, 7, 9, 12 or 15 players."),
    "bad_places": _("A table has two or three players, placed from first to last."),
    "bad_chain": _("Choose the tie-breaks of the tables from the list, each once."),
}


def _fits(template: Any, params: Mapping[str, Any]) -> bool:
    with translation.override("en"):
        try:
            str(template) % params
        except (KeyError, TypeError, ValueError):
            return False
    return True


def from_engine(
    error: EngineError, *, names: Mapping[str, str] | None = None, hand: int | None = None
) -> TournamentError:
    """The translated user error for an engine error.

    ``names`` maps record keys (players ``p<id>``, sides ``A``/``B``) to what users call
    them, so messages name people and teams. ``hand`` is the 1-based hand number.
    """
    names = names or {}

    def show(value: Any) -> Any:
        if isinstance(value, str):
            return names.get(value, value)
        if isinstance(value, list | tuple):
            return ", ".join(str(show(v)) for v in value)
        return value

    params = {key: show(value) for key, value in error.params.items()}
    template = ENGINE_MESSAGES.get(error.code)
    if template is None or not _fits(template, params):
        template = _("The hand record is not valid: %(detail)s")
        params = {"detail": error.message}
    return TournamentError(template, code=error.code, params=params, hand=hand, event=error.event)


def from_format(error: FormatError) -> TournamentError:
    """The translated user error for an error of the championship formats."""
    template = FORMAT_MESSAGES.get(error.code)
    if template is None:
        return TournamentError(
            _("The format cannot do that: %(detail)s"),
            code=error.code,
            params={"detail": str(error)},
        )
    return TournamentError(template, code=error.code)
