"""Hand records (docs/hand-record.md, format v1): validate one, play it, score it.

:func:`score_hand` is the whole ``python -m scoring hand`` command minus the I/O.

>>> score_hand({"rules": "argentine", "teams": {"A": ["ana"], "B": ["beto"]},
...             "order": ["ana", "beto"], "score": {"A": 0, "B": 0},
...             "events": [{"trick": "B"}, {"trick": "A"}, {"trick": "A"}]})["points"]
{'A': 1, 'B': 0}
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from scoring.cards import CARD_TEXTS, Card, parse_card
from scoring.errors import EngineError, error
from scoring.hand import is_finished, needs_settlement, new_hand, play_events, result
from scoring.results import HandResult
from scoring.rules import RuleSet
from scoring.state import HandState
from scoring.tricks import PARDA

__all__ = ["check_text", "hand_from_record", "score_hand", "score_hand_result"]

# docs/rules.md "Presets and options": argentine family 2, 3 (gallo), 4, 6, 8 players.
_ARGENTINE_SIZES = {(1, 1), (1, 2), (2, 2), (3, 3), (4, 4)}


def hand_from_record(record: Mapping[str, Any], *, card_by_card: bool = False) -> HandState:
    """Validate everything in ``record`` but its events and build the initial state.

    A record whose first card or trick event is a card (``play``) is entered card by card
    from its first event: a truco call before the first card must come from the player
    to lead it (docs/rules.md "Truco"). ``card_by_card`` says so of a record whose events
    are still to come (the tablet's card-by-card entry, the random hands of
    :mod:`scoring.simulate`).

    >>> state = hand_from_record({"rules": "catalan", "teams": {"A": ["anna"], "B": ["biel"]},
    ...     "order": ["biel", "anna"], "score": {"A": 11, "B": 4}, "events": []})
    >>> state.mestre, state.to_play()
    ('A', 'biel')
    >>> hand_from_record({"rules": "argentine", "teams": {"A": ["ana"], "B": ["beto"]},
    ...     "order": ["ana", "beto"], "score": {"A": 0, "B": 0},
    ...     "events": [{"by": "ana", "call": "envido"}, {"by": "ana", "play": "7E"}]}).mode
    'detailed'
    """
    if type(record) is not dict and not isinstance(record, Mapping):
        raise error("bad_record")
    check_text(record)
    for name in ("rules", "teams", "order", "score", "events"):
        if name not in record:
            raise error("missing_field", field=name)
    rules = RuleSet.from_spec(record["rules"])
    teams = _teams(record["teams"], rules)
    first, second = teams.values()
    players = [*first, *second]
    order = _order(record["order"], players)
    score = _score(record["score"], teams, rules)
    # Only catalan has a cap de colla; argentine records may carry one anyway.
    captains = _captains(record.get("captains"), teams, rules) if rules.is_catalan else {}
    given = record.get("cards")
    cards = {} if given is None else _cards(given, players, rules)
    pica_pica = record.get("pica_pica", False)
    if pica_pica is None:
        pica_pica = False
    if not isinstance(pica_pica, bool):
        raise error("bad_field", field="pica_pica", detail="it must be true or false")
    if pica_pica:
        if rules.is_catalan or not rules.pica_pica:
            raise error("bad_pica_pica", detail="the rule set has no pica-pica")
        if len(players) != 2:
            raise error("bad_pica_pica", detail="a pica-pica hand is played by two players")
    gallo = record.get("gallo")
    if gallo is not None:
        if len(players) != 3:
            raise error("bad_gallo", detail="there is a gallo only with three players")
        if gallo not in players or len(teams[_side_of(teams, gallo)]) != 1:
            raise error("bad_gallo", detail=f"{gallo} must be a player alone on his side")
    return new_hand(
        rules,
        teams,
        order,
        score,
        cards=cards,
        captains=captains,
        pica_pica=pica_pica,
        gallo=gallo,
        card_by_card=card_by_card or _card_by_card(record["events"]),
    )


def _card_by_card(events: Any) -> bool:
    """Is the first card or trick event of ``events`` a card? (Anything malformed is left
    for the events' own checks, in order.)"""
    if type(events) is not list:
        return False
    for event in events:
        if type(event) is dict or isinstance(event, Mapping):
            if "play" in event:
                return True
            if "trick" in event:
                return False
    return False


def score_hand_result(record: Mapping[str, Any]) -> HandResult:
    """:func:`score_hand` as a typed, frozen :class:`~scoring.results.HandResult`.

    >>> score_hand_result({"rules": "argentine", "teams": {"A": ["ana"], "B": ["beto"]},
    ...     "order": ["ana", "beto"], "score": {"A": 0, "B": 29},
    ...     "events": [{"by": "ana", "mazo": True}]}).winner
    'B'
    """
    return HandResult.from_dict(score_hand(record))


def score_hand(record: Mapping[str, Any]) -> dict[str, Any]:
    """Validate ``record``, play its events and return the docs/hand-record.md output object.

    Raises :class:`~scoring.errors.EngineError`, with ``event`` the 0-based index of the
    offending event (None when no single event is at fault).

    >>> try:
    ...     score_hand({"rules": "argentine", "teams": {"A": ["ana"], "B": ["beto"]},
    ...                 "order": ["ana", "beto"], "score": {"A": 0, "B": 0},
    ...                 "events": [{"by": "ana", "call": "truco"}, {"by": "ana", "mazo": True}]})
    ... except EngineError as exc:
    ...     print(exc.code, exc.event)
    mazo_own_call 1
    """
    state = hand_from_record(record)
    events = record["events"]
    if not isinstance(events, list):
        raise error("bad_field", field="events", detail="it must be a list")
    play_events(state, events)
    if is_finished(state):
        return result(state)
    # Not finished: acceptable only when the chico is already over on what was counted.
    missing = needs_settlement(state) if state.decided is not None else None
    try:
        outcome = result(state)
    except EngineError:
        outcome = None
    if outcome is not None and outcome["status"] == "game_over":
        return outcome
    if missing is not None:
        raise error("settlement_missing", what=missing)
    raise error("hand_incomplete")


# -- hostile input ------------------------------------------------------------------------
_BAD_TEXT = re.compile("[\x00\ud800-\udfff]")
_MAX_DEPTH = 32


def check_text(record: Mapping[str, Any]) -> None:
    """Refuse a record holding a string no database or UTF-8 output can carry: a NUL byte
    or a lone surrogate (``"\\ud800"`` in JSON), anywhere, keys included.

    >>> try:
    ...     check_text({"teams": {"A": ["ana\\x00"]}})
    ... except EngineError as exc:
    ...     print(exc.code, exc.params)
    bad_text {'where': "'teams'"}
    """
    if _plainly_clean(record):
        return
    try:
        # The C encoder escapes a NUL as \\u0000 and leaves a lone surrogate for the UTF-8
        # encoder to refuse; only a suspect record is walked.
        text = json.dumps(record, ensure_ascii=False, check_circular=False)
        if "\\u0000" not in text:
            text.encode("utf-8")
            return
    except (TypeError, ValueError, RecursionError):
        pass  # UnicodeEncodeError is a ValueError; not JSON-able values: walk them
    for key, value in record.items():
        if key == "events" and isinstance(value, list):
            for index, event in enumerate(value):
                if not _clean(event, 0):
                    raise error("bad_text", event=index, where=f"event {index + 1}")
        elif not (_clean(key, 0) and _clean(value, 0)):
            raise error("bad_text", where=_show_key(key))


_PLAIN = frozenset((int, float, bool, type(None)))


def _plainly_clean(record: Any) -> bool:
    """The hot path of :func:`check_text`: True when ``record`` is plain JSON data (dicts,
    lists, strings, numbers, booleans, null) at most ``_MAX_DEPTH`` deep and no string in
    it, keys included, holds a NUL or a surrogate; False means "look closer".

    One level at a time, gathering the strings for a single search: cheaper than encoding
    the whole record (it was a sixth of the time of scoring a hand). Keys, and lists that
    start with a string, are taken whole; should one of them hold anything but strings,
    the final join fails and the record is looked at closer."""
    if type(record) is not dict:
        return False
    texts: list[str] = []
    keep = texts.append
    level: list[Any] = [record]
    for _ in range(_MAX_DEPTH):
        deeper: list[Any] = []
        for value in level:
            kind = type(value)
            if kind is str:
                keep(value)
            elif kind is dict:
                texts += value  # its keys: strings in JSON (if not, the join below says so)
                deeper += value.values()
            elif kind is list:
                if value and type(value[0]) is str:
                    texts += value  # names, cards: strings all (else the join says so)
                else:
                    deeper += value
            elif kind not in _PLAIN:
                return False
        if not deeper:
            try:
                text = "".join(texts)
            except TypeError:
                return False  # a key that is not a string: look closer
            # A NUL is found by memchr; a surrogate cannot be in an ASCII string (known
            # without reading it): the regular expression reads only the rare others.
            if "\x00" in text:
                return False
            return text.isascii() or _BAD_TEXT.search(text) is None
        level = deeper
    return False


def _show_key(key: Any) -> str:
    return f"'{key}'" if isinstance(key, str) and _clean(key, 0) else "a field name"


def _clean(value: Any, depth: int) -> bool:
    kind = type(value)
    if kind is str:
        return _BAD_TEXT.search(value) is None
    if kind is dict:
        if depth > _MAX_DEPTH:
            return False
        return all(_clean(k, depth + 1) and _clean(v, depth + 1) for k, v in value.items())
    if kind is list or kind is tuple:
        if depth > _MAX_DEPTH:
            return False
        return all(_clean(v, depth + 1) for v in value)
    if isinstance(value, Mapping):
        return _clean(dict(value), depth)
    return True


# -- the parts of a record ----------------------------------------------------------------
def _side_of(teams: Mapping[str, list[str]], player: str) -> str:
    return next(side for side, members in teams.items() if player in members)


def _teams(value: Any, rules: RuleSet) -> dict[str, list[str]]:
    if (type(value) is not dict and not isinstance(value, Mapping)) or len(value) != 2:
        raise error("bad_teams", detail="there must be exactly two sides")
    teams: dict[str, list[str]] = {}
    seen: set[str] = set()
    for side, members in value.items():
        if not isinstance(side, str) or not side or side == PARDA:
            raise error("bad_teams", detail=f"'{side}' cannot name a side")
        if not isinstance(members, list) or not members:
            raise error("bad_teams", detail=f"side {side} must list its players")
        for player in members:
            if not isinstance(player, str) or not player:
                raise error("bad_teams", detail=f"side {side} has a player without a name")
            if player in seen:
                raise error("bad_teams", detail=f"{player} appears twice")
            seen.add(player)
        teams[side] = list(members)
    first, second = map(len, teams.values())
    sizes = (first, second) if first <= second else (second, first)
    ok = (sizes[0] == sizes[1] and sizes[0] <= 4) if rules.is_catalan else sizes in _ARGENTINE_SIZES
    if not ok:
        raise error(
            "bad_player_count",
            count=sum(sizes),
            sizes=" and ".join(map(str, sizes)),
            family=rules.family,
        )
    return teams


def _order(value: Any, players: list[str]) -> list[str]:
    # The usual order, every player once, in one comparison; anything else (an unhashable
    # name included) takes the checks below, which name the fault.
    if type(value) is list and len(value) == len(players):
        try:
            if set(value) == set(players):
                return list(value)
        except TypeError:
            pass
    if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
        raise error("bad_order", detail="it must be a list of player names")
    for player in value:
        if player not in players:
            raise error("unknown_player", player=player)
    if len(value) != len(players) or len(set(value)) != len(value):
        raise error("bad_order", detail="a player is missing or repeated")
    return list(value)


def _score(value: Any, teams: Mapping[str, list[str]], rules: RuleSet) -> dict[str, int]:
    if (type(value) is not dict and not isinstance(value, Mapping)) or value.keys() != teams.keys():
        raise error("bad_score", detail="it must give the points of both sides")
    score = {}
    for side in teams:
        points = value[side]
        if type(points) is not int or not 0 <= points < rules.target:
            raise error(
                "bad_score",
                detail=f"side {side} needs a whole number of points from 0 to {rules.target - 1}",
            )
        score[side] = points
    return score


def _captains(value: Any, teams: Mapping[str, list[str]], rules: RuleSet) -> dict[str, str]:
    if not rules.is_catalan:
        return {}  # only catalan has a cap de colla; argentine records may carry one anyway
    if value is None:
        if all(len(m) == 1 for m in teams.values()):
            return {side: members[0] for side, members in teams.items()}
        raise error("bad_captains", detail="catalan sides need a cap de colla each")
    if not isinstance(value, Mapping):
        raise error("bad_captains", detail="map each side to its cap de colla")
    captains = {}
    for side, members in teams.items():
        captain = value.get(side)
        if captain not in members:
            raise error("bad_captains", detail=f"side {side} needs one of its players as captain")
        captains[side] = captain
    return captains


def _cards(value: Any, players: list[str], rules: RuleSet) -> dict[str, tuple[Card, ...]]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise error("bad_field", field="cards", detail="map players to their three cards")
    cards: dict[str, tuple[Card, ...]] = {}
    seen: set[Card] = set()
    deck = rules.deck
    texts = CARD_TEXTS[deck]
    for player, hand in value.items():
        if player not in players:
            raise error("unknown_player", player=player)
        if not isinstance(hand, list) or len(hand) != 3:
            raise error("bad_cards", player=player, detail="a hand is three cards")
        # The usual hand, three cards of the deck written plainly, all new: three lookups.
        # Anything else takes the card-by-card way, which names the first fault.
        a, b, c = hand
        x = texts.get(a) if type(a) is str else None
        y = texts.get(b) if type(b) is str else None
        z = texts.get(c) if type(c) is str else None
        parsed = (x, y, z)
        # One object per card: "is" tells two cards apart.
        unusual = x is None or y is None or z is None or x is y or x is z or y is z
        if unusual or not seen.isdisjoint(parsed):
            parsed = _parse_hand(player, hand, deck, seen)
        seen.update(parsed)
        cards[player] = parsed
    return cards


def _parse_hand(
    player: str, hand: list[Any], deck: frozenset[Card], seen: set[Card]
) -> tuple[Card, ...]:
    parsed: list[Card] = []
    for text in hand:
        if not isinstance(text, str):
            raise error("bad_cards", player=player, detail="cards are written like 7E")
        card = parse_card(text, deck)
        if card in seen or card in parsed:
            raise error("duplicate_card", card=str(card))
        parsed.append(card)
    return tuple(parsed)
