"""The table of rule options, built from :mod:`scoring.rules` (never retyped), for forms.

:data:`OPTIONS` lists every option key with the values each family accepts, its default in
each preset, the rule book it comes from and when it can matter (player counts, flor on);
:func:`options_for` gives the options an organiser can choose for one preset, with exactly
the values :meth:`RuleSet.from_spec` accepts.

>>> [o.key for o in options_for("catalan")]
['best_of', 'mestre_penalty', 'penalty_max']
>>> option = next(o for o in options_for("argentine") if o.key == "target")
>>> option.values, option.default
((15, 30), 30)
>>> [o.key for o in options_for("argentine", players=4) if o.key in ("gallo", "pica_pica")]
[]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.rules import FAMILY_VALUES, OPTION_KEYS, PRESETS

__all__ = ["OPTIONS", "Choice", "Option", "options_for", "options_table"]

# Where each option comes from (docs/rules.md names the books) and when it can matter.
_SOURCE = {
    "target": "001, 003",
    "best_of": "003",
    "flor": "003, 004",
    "hierarchy": "004",
    "envido_max_calls": "001, 004",
    "envido_chain": "001, 004",
    "falta_envido": "003, 004",
    "mazo_envido_point": "001",
    "contraflor_al_resto": "003, 004",
    "contraflor_value": "003, 004",
    "pica_pica": "003",
    "pica_pica_until": "003",
    "gallo": "003",
    "mestre_penalty": "002",
    "penalty_max": "003",
}
_PLAYERS: dict[str, tuple[int, ...]] = {
    "gallo": (3,),
    "pica_pica": (6, 8),
    "pica_pica_until": (6, 8),
}
_NEEDS_FLOR = frozenset(("contraflor_al_resto", "contraflor_value"))


@dataclass(frozen=True, slots=True)
class Option:
    """One rule option.

    ``values``: family -> the values it accepts (an empty tuple: it does not apply; for
    ``penalty_max`` 1 to the largest target of the family). ``defaults``: preset -> its
    value there (absent where it does not apply). ``players``: the player counts where it
    can matter (empty: all). ``needs_flor``: it matters only with ``flor: true``.
    """

    key: str
    values: Mapping[str, tuple[Any, ...]]
    defaults: Mapping[str, Any]
    source: str
    players: tuple[int, ...] = ()
    needs_flor: bool = False


@dataclass(frozen=True, slots=True)
class Choice:
    """One option an organiser can set for a given preset: its allowed values and default."""

    key: str
    values: tuple[Any, ...]
    default: Any
    source: str
    players: tuple[int, ...] = ()
    needs_flor: bool = False


def _values(family: str, key: str, target: int) -> tuple[Any, ...]:
    table = FAMILY_VALUES[family]
    if key not in table:
        return ()
    if key == "penalty_max":
        return tuple(range(1, target + 1))
    return table[key]


def _build() -> tuple[Option, ...]:
    options = []
    for key in OPTION_KEYS:
        values = {}
        for family, table in FAMILY_VALUES.items():
            top = max(table["target"])
            values[family] = _values(family, key, top)
        defaults = {
            name: rules.options[key]
            for name, rules in PRESETS.items()
            if key in FAMILY_VALUES[rules.family]
        }
        options.append(
            Option(
                key=key,
                values=values,
                defaults=defaults,
                source=_SOURCE[key],
                players=_PLAYERS.get(key, ()),
                needs_flor=key in _NEEDS_FLOR,
            )
        )
    return tuple(options)


OPTIONS: tuple[Option, ...] = _build()


def options_for(preset: str, *, players: int | None = None) -> list[Choice]:
    """The options an organiser may set for ``preset``: those with a real choice (more than
    one value), with the values the engine accepts and the preset's default; with
    ``players``, only those that can matter for that many players.

    >>> [(c.key, c.values) for c in options_for("argentine_flor") if c.key == "contraflor_value"]
    [('contraflor_value', (6, 'per_flor'))]
    """
    rules = PRESETS[preset]
    choices = []
    for option in OPTIONS:
        values = _values(rules.family, option.key, rules.target)
        if len(values) < 2:
            continue  # not applicable, or its one neutral value (catalan "flor": false)
        if players is not None and option.players and players not in option.players:
            continue
        choices.append(
            Choice(
                key=option.key,
                values=values,
                default=option.defaults[preset],
                source=option.source,
                players=option.players,
                needs_flor=option.needs_flor,
            )
        )
    return choices


def options_table() -> str:
    """The options as a Markdown table: what docs/rules.md shows (a test keeps them equal).

    >>> options_table().splitlines()[2]
    '| `target` | 15, 30 | 12 | 30 | 30 | 30 | 12 | all | 001, 003 |'
    """

    def show(value: Any) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        return f"`{value}`" if isinstance(value, str) else str(value)

    def values(option: Option, family: str) -> str:
        allowed = option.values[family]
        if not allowed:
            return "–"
        if option.key == "penalty_max":
            return "1 to the target"
        return ", ".join(show(v) for v in allowed)

    presets = list(PRESETS)
    head = ["option", "argentine family", "catalan", *presets, "matters for", "books"]
    rows = [
        "| " + " | ".join(head) + " |",
        "|---" * (len(presets) + 5) + "|",
    ]
    for option in OPTIONS:
        defaults = [show(option.defaults[p]) if p in option.defaults else "–" for p in presets]
        when = []
        if option.players:
            when.append(" and ".join(map(str, option.players)) + " players")
        if option.needs_flor:
            when.append("flor on")
        rows.append(
            f"| `{option.key}` | {values(option, 'argentine')} | {values(option, 'catalan')} | "
            + " | ".join(defaults)
            + f" | {', '.join(when) or 'all'} | {option.source} |"
        )
    return "\n".join(rows)
