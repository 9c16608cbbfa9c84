"""Rule sets: the presets of docs/rules.md "Presets and options" and every option they carry.

Variants differ by the data held here (deck, hierarchy, truco ladder and refusal values,
envido on or off, who answers), not by copied code. ``rules`` in a record is a preset name
or ``{"preset": ..., **options}``; an unknown preset, option or value is a
:class:`~scoring.errors.RuleSetError` naming it.

>>> RuleSet.from_spec("argentine").target
30
>>> RuleSet.from_spec({"preset": "trucardo", "target": 15}).falta_envido
'rival_to_half'
>>> RuleSet.from_spec({"preset": "argentine", "envido_chain": "free"}).envido_chain
'free'
>>> RuleSet.from_spec({"preset": "argentine", "colour": "red"})
Traceback (most recent call last):
...
scoring.errors.RuleSetError: Unknown rule option 'colour'.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from scoring.cards import CATALAN_48, SPANISH_40, Card
from scoring.errors import error

__all__ = [
    "ARGENTINE_LADDER",
    "CATALAN_LADDER",
    "FAMILY_VALUES",
    "OPTION_KEYS",
    "PRESETS",
    "Ladder",
    "RuleSet",
]


@dataclass(frozen=True, slots=True)
class Ladder:
    """The truco (or truc) ladder: call names, the value of each accepted step, and what a
    refusal of each step gives the caller (docs/rules.md "Truco")."""

    calls: tuple[str, ...]
    values: tuple[int, ...]
    refused: tuple[int, ...]
    base: int = 1  # a hand without any accepted call

    def value(self, level: int) -> int:
        """Value of the hand with ``level`` steps accepted (0: no call accepted).

        >>> ARGENTINE_LADDER.value(0), ARGENTINE_LADDER.value(2)
        (1, 3)
        """
        return self.base if level == 0 else self.values[level - 1]


# 001 and 004: truco 2, retruco 3, vale cuatro 4; a refusal gives the step before.
ARGENTINE_LADDER = Ladder(("truco", "retruco", "vale_cuatro"), (2, 3, 4), (1, 2, 3))
# 002: truc then tres; refusing truc gives 1, tres 2, so truc=2 and tres=3 (docs/rules.md).
CATALAN_LADDER = Ladder(("truc", "tres"), (2, 3), (1, 2))

# Allowed values of every option per family (rules "Presets and options" in docs/rules.md).
# An option missing from a family's table does not apply to it; an option whose catalan
# tuple holds one value may be given at that value only (``"flor": false``).
_ARGENTINE: dict[str, tuple[Any, ...]] = {
    "target": (15, 30),
    "best_of": (1, 3),
    "flor": (True, False),
    "hierarchy": ("traditional", "inverse"),
    "envido_max_calls": (2, 3, 4),
    "envido_chain": ("ladder", "free"),
    "falta_envido": ("leader_to_target", "rival_to_half", "leader_to_half", "whole_chico"),
    "mazo_envido_point": (True, False),
    "contraflor_al_resto": ("resto_plus_flores", "whole_chico"),
    "contraflor_value": (6, "per_flor"),
    "pica_pica": (True, False),
    "pica_pica_until": (25, 15),
    "gallo": ("por_turno", "fijo"),
    "penalty_max": (),  # 1 to the target: checked against the target itself
}
_CATALAN: dict[str, tuple[Any, ...]] = {
    "target": (12,),
    "best_of": (1, 3),
    "flor": (False,),
    "mazo_envido_point": (False,),
    "pica_pica": (False,),
    "mestre_penalty": ("to_opponent", "from_mestre"),
    "penalty_max": (),
}
# Catalan plays without these; given at their one neutral value they are accepted, any
# other value is an option that does not apply (rather than a value out of a list).
_NEUTRAL_ONLY = frozenset(("flor", "mazo_envido_point", "pica_pica"))
FAMILY_VALUES: dict[str, dict[str, tuple[Any, ...]]] = {
    "argentine": _ARGENTINE,
    "catalan": _CATALAN,
}
# Every option key, in the order of the rules' table.
OPTION_KEYS: tuple[str, ...] = (
    *(k for k in _ARGENTINE if k != "penalty_max"),
    "mestre_penalty",
    "penalty_max",
)


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A complete, validated rule set. Build one with :meth:`from_spec`."""

    preset: str = "argentine"
    family: str = "argentine"  # "argentine" (argentine, argentine_flor, trucardo) or "catalan"
    target: int = 30
    best_of: int = 3
    flor: bool = False
    hierarchy: str = "traditional"
    envido_max_calls: int = 4
    envido_chain: str = "ladder"  # "ladder": E, E, R, F in order (001); "free": any order (004)
    falta_envido: str = "leader_to_target"
    mazo_envido_point: bool = True
    contraflor_al_resto: str = "resto_plus_flores"
    contraflor_value: int | str = 6  # 6, or "per_flor": 3 for each flor sung (003)
    pica_pica: bool = True
    pica_pica_until: int = 25
    gallo: str = "por_turno"
    mestre_penalty: str = "to_opponent"
    penalty_max: int | None = None  # None: the target
    ladder: Ladder = field(default=ARGENTINE_LADDER)

    # -- derived data (computed once: the engine asks for them at every event) -------
    is_catalan: bool = field(init=False, repr=False, compare=False)
    deck: frozenset[Card] = field(init=False, repr=False, compare=False)  # Spanish 40 / Catalan 48
    has_envido: bool = field(init=False, repr=False, compare=False)  # the argentine family
    captain_answers: bool = field(init=False, repr=False, compare=False)  # catalan (002)
    has_mestre: bool = field(init=False, repr=False, compare=False)  # catalan rule of 11 (002)

    def __post_init__(self) -> None:
        catalan = self.family == "catalan"
        for name, value in (
            ("is_catalan", catalan),
            ("deck", CATALAN_48 if catalan else SPANISH_40),
            ("has_envido", not catalan),
            ("captain_answers", catalan),
            ("has_mestre", catalan),
        ):
            object.__setattr__(self, name, value)

    @property
    def has_halves(self) -> bool:
        """Target 30 has malas and buenas; 15 and catalan 12 have none (docs/rules.md)."""
        return self.target == 30

    @property
    def half(self) -> int:
        """15 when the target has halves, else the target itself ("half means the target")."""
        return self.target // 2 if self.has_halves else self.target

    @property
    def max_penalty(self) -> int:
        """The most one penalty may award: option ``penalty_max``, by default the target."""
        return self.target if self.penalty_max is None else self.penalty_max

    @property
    def options(self) -> dict[str, Any]:
        """Every option that applies to this rule set's family, with its value.

        >>> RuleSet.from_spec("catalan").options["penalty_max"]
        12
        """
        values = {k: getattr(self, k) for k in FAMILY_VALUES[self.family]}
        values["penalty_max"] = self.max_penalty
        return values

    # -- construction ---------------------------------------------------------------
    @classmethod
    def from_spec(cls, spec: str | Mapping[str, Any]) -> RuleSet:
        """A preset name or ``{"preset": name, **options}`` -> a validated rule set.

        >>> RuleSet.from_spec("catalan").ladder.calls
        ('truc', 'tres')
        >>> RuleSet.from_spec({"preset": "argentine", "target": 20})
        Traceback (most recent call last):
        ...
        scoring.errors.RuleSetError: Rule option 'target' cannot be 20: allowed 15, 30.
        """
        if isinstance(spec, str):
            return PRESETS.get(spec) or _preset(spec)  # _preset names an unknown one
        if not isinstance(spec, Mapping):
            raise error("bad_field", field="rules", detail="a preset name or an object")
        try:
            key = json.dumps(spec, sort_keys=True)
        except (TypeError, ValueError):
            key = None
        if key is not None:
            return _from_mapping(key)
        return _build(spec)


PRESETS: dict[str, RuleSet] = {
    "argentine": RuleSet(preset="argentine"),
    "argentine_flor": RuleSet(preset="argentine_flor", flor=True),
    "trucardo": RuleSet(
        preset="trucardo",
        flor=True,
        envido_max_calls=3,
        envido_chain="free",
        falta_envido="rival_to_half",
        contraflor_al_resto="whole_chico",
    ),
    "catalan": RuleSet(
        preset="catalan",
        family="catalan",
        target=12,
        flor=False,
        hierarchy="catalan",
        mazo_envido_point=False,
        pica_pica=False,
        ladder=CATALAN_LADDER,
    ),
}


def _preset(name: Any) -> RuleSet:
    rules = PRESETS.get(name) if isinstance(name, str) else None
    if rules is None:
        raise error("unknown_preset", preset=name)
    return rules


@lru_cache(maxsize=256)
def _from_mapping(key: str) -> RuleSet:
    # Rule sets repeat across every hand of a championship: cache by canonical JSON.
    return _build(json.loads(key))


def _build(spec: Mapping[str, Any]) -> RuleSet:
    if "preset" not in spec:
        raise error("missing_preset")
    base = _preset(spec["preset"])
    family = FAMILY_VALUES[base.family]
    changes: dict[str, Any] = {}
    for option, value in spec.items():
        if option == "preset":
            continue
        if option not in OPTION_KEYS:
            raise error("unknown_option", option=option)
        if option not in family:
            raise error("option_not_applicable", option=option, preset=base.preset)
        if option == "penalty_max":
            continue  # its range depends on the target, checked below
        allowed = family[option]
        # bool is an int in Python: True must not pass for 1, nor 1 for True.
        if not any(type(value) is type(a) and value == a for a in allowed):
            if base.is_catalan and option in _NEUTRAL_ONLY:
                raise error("option_not_applicable", option=option, preset=base.preset)
            raise _bad_value(option, value, ", ".join(_show(a) for a in allowed))
        changes[option] = value
    if "penalty_max" in spec:
        value, target = spec["penalty_max"], changes.get("target", base.target)
        if type(value) is not int or not 1 <= value <= target:
            raise _bad_value("penalty_max", value, f"1 to {target}")
        changes["penalty_max"] = value
    return replace(base, **changes) if changes else base


def _show(value: Any) -> str:
    return json.dumps(value) if isinstance(value, bool) else str(value)


def _bad_value(option: str, value: Any, allowed: str) -> Exception:
    if _jsonable(value):
        shown = json.dumps(value, ensure_ascii=True)
    else:
        shown = f"a {type(value).__name__} value"
    return error("bad_option_value", option=option, value=shown, allowed=allowed)


def _jsonable(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):  # ValueError: an int too long to print
        return False
    return True
