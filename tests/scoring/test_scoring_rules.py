"""Rule sets: presets and options (docs/rules.md "Presets and options")."""

from __future__ import annotations

import dataclasses

import pytest

from scoring.cards import CATALAN_48, SPANISH_40
from scoring.errors import EngineError, RuleSetError
from scoring.rules import ARGENTINE_LADDER, CATALAN_LADDER, RuleSet

# The preset table of docs/rules.md, column by column.
PRESET_TABLE = {
    "argentine": dict(
        target=30,
        best_of=3,
        flor=False,
        hierarchy="traditional",
        envido_max_calls=4,
        envido_chain="ladder",
        falta_envido="leader_to_target",
        mazo_envido_point=True,
        pica_pica=True,
        pica_pica_until=25,
        gallo="por_turno",
    ),
    "argentine_flor": dict(
        target=30,
        best_of=3,
        flor=True,
        hierarchy="traditional",
        envido_max_calls=4,
        envido_chain="ladder",
        falta_envido="leader_to_target",
        mazo_envido_point=True,
        contraflor_al_resto="resto_plus_flores",
        pica_pica=True,
        pica_pica_until=25,
        gallo="por_turno",
    ),
    "trucardo": dict(
        target=30,
        best_of=3,
        flor=True,
        hierarchy="traditional",
        envido_max_calls=3,
        envido_chain="free",
        falta_envido="rival_to_half",
        mazo_envido_point=True,
        contraflor_al_resto="whole_chico",
        pica_pica=True,
        pica_pica_until=25,
        gallo="por_turno",
    ),
    "catalan": dict(target=12, best_of=3, flor=False, mestre_penalty="to_opponent"),
}


@pytest.mark.parametrize("preset", sorted(PRESET_TABLE))
def test_preset_defaults(preset):
    rules = RuleSet.from_spec(preset)
    for option, value in PRESET_TABLE[preset].items():
        assert getattr(rules, option) == value, option


def test_derived_data():
    argentine, catalan = RuleSet.from_spec("argentine"), RuleSet.from_spec("catalan")
    assert argentine.deck == SPANISH_40 and catalan.deck == CATALAN_48
    assert argentine.ladder == ARGENTINE_LADDER and catalan.ladder == CATALAN_LADDER
    assert argentine.has_envido and not catalan.has_envido
    assert catalan.is_catalan and catalan.captain_answers and not argentine.captain_answers
    assert argentine.has_halves and argentine.half == 15
    fifteen = RuleSet.from_spec({"preset": "argentine", "target": 15})
    assert not fifteen.has_halves and fifteen.half == 15
    assert not catalan.has_halves


def test_options_override_the_preset_and_rule_sets_are_frozen():
    rules = RuleSet.from_spec(
        {"preset": "trucardo", "hierarchy": "inverse", "target": 15, "best_of": 1}
    )
    assert (rules.hierarchy, rules.target, rules.best_of, rules.flor) == ("inverse", 15, 1, True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.target = 30  # type: ignore[misc]


@pytest.mark.parametrize(
    ("spec", "code", "named"),
    [
        ("truquito", "unknown_preset", "truquito"),
        ({"target": 30}, "missing_preset", "preset"),
        ({"preset": "argentine", "colour": "red"}, "unknown_option", "colour"),
        ({"preset": "argentine", "target": 20}, "bad_option_value", "target"),
        ({"preset": "argentine", "target": "30"}, "bad_option_value", "target"),
        ({"preset": "argentine", "flor": 1}, "bad_option_value", "flor"),
        ({"preset": "argentine", "best_of": True}, "bad_option_value", "best_of"),
        ({"preset": "argentine", "envido_max_calls": 5}, "bad_option_value", "envido_max_calls"),
        ({"preset": "argentine", "falta_envido": "all"}, "bad_option_value", "falta_envido"),
        ({"preset": "trucardo", "envido_chain": "loose"}, "bad_option_value", "envido_chain"),
        ({"preset": "catalan", "envido_chain": "free"}, "option_not_applicable", "envido_chain"),
        ({"preset": "catalan", "target": 30}, "bad_option_value", "target"),
        ({"preset": "catalan", "flor": True}, "option_not_applicable", "flor"),
        ({"preset": "catalan", "falta_envido": "whole_chico"}, "option_not_applicable", "falta"),
        ({"preset": "argentine", "mestre_penalty": "to_opponent"}, "option_not_applicable", "mes"),
        (["argentine"], "bad_field", "rules"),
    ],
)
def test_bad_rule_specs_say_which(spec, code, named):
    with pytest.raises(RuleSetError if code != "bad_field" else EngineError) as info:
        RuleSet.from_spec(spec)
    assert info.value.code == code
    assert named in info.value.message
