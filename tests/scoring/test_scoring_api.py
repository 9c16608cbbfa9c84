"""The public API: ``scoring`` as the front door, the options table, the enums, the typed
results, and the older module paths the Django side still imports."""

from __future__ import annotations

import importlib
import json

import pytest

import scoring
from scoring import (
    OPTIONS,
    PRESETS,
    AnswerName,
    CallName,
    EngineError,
    HandStatus,
    RuleSet,
    Suit,
    options_for,
)


def test_every_public_name_is_there():
    for name in scoring.__all__:
        assert hasattr(scoring, name), name


@pytest.mark.parametrize(
    "path",
    [
        "scoring.match.score_match",
        "scoring.match.next_hand",
        "scoring.match.subhand_record",
        "scoring.record.hand_from_record",
        "scoring.record.score_hand",
        "scoring.hand.apply",
        "scoring.hand.is_finished",
        "scoring.hand.legal_actions",
        "scoring.hand.needs_settlement",
        "scoring.hand.result",
        "scoring.actions.action_from_event",
        "scoring.actions.Call",
        "scoring.state.HandState",
        "scoring.errors.EngineError",
        "scoring.rules.PRESETS",
        "scoring.rules.RuleSet",
        "scoring.simulate.random_hand",
    ],
)
def test_the_older_paths_still_import(path):
    module, name = path.rsplit(".", 1)
    assert hasattr(importlib.import_module(module), name)


def test_the_enums_are_the_engines_strings():
    from scoring import envido, flor
    from scoring.actions import ANSWERS
    from scoring.cards import SUITS
    from scoring.rules import ARGENTINE_LADDER, CATALAN_LADDER

    calls = {*ARGENTINE_LADDER.calls, *CATALAN_LADDER.calls, *envido.CALLS, *flor.CALLS}
    assert set(CallName) == calls
    assert tuple(AnswerName) == ANSWERS
    assert tuple(Suit) == SUITS
    assert json.dumps([CallName.TRUCO, HandStatus.VOID]) == '["truco", "void"]'


# -- OPTIONS and options_for: exactly what RuleSet.from_spec accepts --------------------
def test_every_option_and_default_comes_from_the_rule_sets():
    assert [o.key for o in OPTIONS][-2:] == ["mestre_penalty", "penalty_max"]
    for option in OPTIONS:
        for preset, default in option.defaults.items():
            assert PRESETS[preset].options[option.key] == default


@pytest.mark.parametrize("preset", list(PRESETS))
def test_options_for_offers_exactly_the_accepted_values(preset):
    for choice in options_for(preset):
        assert choice.default in choice.values
        for value in choice.values:
            RuleSet.from_spec({"preset": preset, choice.key: value})  # accepted
        for wrong in ("nonsense", 999, None):
            with pytest.raises(EngineError):
                RuleSet.from_spec({"preset": preset, choice.key: wrong})
    offered = {c.key for c in options_for(preset)}
    for option in OPTIONS:
        if option.key in offered:
            continue
        # Not offered: it does not apply, or only at its one neutral value.
        values = option.values[PRESETS[preset].family]
        assert len(values) <= 1, option.key


def test_options_for_a_preset_and_a_team_size():
    target = {c.key: c for c in options_for("catalan")}
    assert "target" not in target and "flor" not in target  # one value each: nothing to choose
    argentine = {c.key: c for c in options_for("argentine")}
    assert argentine["target"].values == (15, 30)
    assert argentine["penalty_max"].values == tuple(range(1, 31))
    assert argentine["contraflor_value"].needs_flor
    assert {c.key for c in options_for("argentine", players=3)} >= {"gallo"}
    assert "gallo" not in {c.key for c in options_for("argentine", players=4)}
    six = {c.key for c in options_for("trucardo", players=6)}
    assert {"pica_pica", "pica_pica_until"} <= six and "gallo" not in six


# -- typed results ------------------------------------------------------------------------
def test_typed_results_give_back_the_cli_json():
    record = {
        "rules": "argentine",
        "teams": {"A": ["ana"], "B": ["beto"]},
        "order": ["ana", "beto"],
        "score": {"A": 0, "B": 0},
        "events": [{"by": "ana", "call": "truco"}, {"by": "beto", "answer": "no_quiero"}],
    }
    typed = scoring.score_hand_result(record)
    assert typed.status is HandStatus.COMPLETE and typed.items[0].kind == "truco"
    assert typed.to_dict() == scoring.score_hand(record)
    match = {
        "rules": "argentine",
        "teams": {"A": ["ana"], "B": ["beto"]},
        "seats": ["ana", "beto"],
        "hands": [{"events": record["events"]}, {"events": [{"void": "misdeal"}]}],
    }
    result = scoring.score_match_result(match)
    assert result.to_dict() == scoring.score_match(match)
    assert [h.mano for h in result.hands] == ["ana", "beto"]
    assert result.next.mano == "beto"  # a void hand keeps the mano
    assert scoring.next_hand(match) == result.next.to_dict()
    with pytest.raises(AttributeError):
        result.winner = "A"  # frozen


@pytest.mark.parametrize(
    ("record", "code", "hand"),
    [
        ([], "match_invalid", None),
        ({"rules": "argentine", "teams": {"A": ["a"], "B": ["b"]}, "seats": ["a"], "hands": []},
         "seats_invalid", None),
        ({"rules": "argentine", "teams": {"A": ["a"], "B": ["b"]}, "seats": ["a", "b"],
          "hands": [3]}, "hand_invalid", 0),
    ],
)  # fmt: skip
def test_match_errors_are_in_the_catalogue(record, code, hand):
    with pytest.raises(EngineError) as info:
        scoring.score_match(record)
    assert (info.value.code, info.value.hand) == (code, hand)
    assert code in scoring.CATALOGUE and isinstance(info.value, scoring.MatchError)
