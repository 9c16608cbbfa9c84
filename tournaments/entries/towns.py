"""Entries by town: a circuit's qualifier may take only teams from its towns.

A qualifier (``CircuitEvent``) with ``towns`` asks the entry form for the team's town, one
for the team: a team enters one phase, so it is placed by one town (a pair from two towns
chooses the one it plays for; the organiser may move it later). The town typed is
compared without case, accents or extra spaces (``models.name_key``); a team from another
town is refused with a sentence naming the qualifier of its town when the circuit has one.

Here, below the circuits' package in the layers, because the entry form's services check
it; it reads the circuit's models only.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from tournaments.errors import TournamentError
from tournaments.models import Championship, CircuitEvent, name_key


@dataclass(frozen=True)
class TownRule:
    """The towns a qualifier admits, and every town of its circuit's qualifiers (the
    form's suggestions and the refusal's pointer)."""

    event: CircuitEvent
    towns: tuple[str, ...]
    # Each town key of the circuit's other qualifiers -> that qualifier (championship
    # loaded) and the town as it lists it.
    elsewhere: dict[str, tuple[CircuitEvent, str]]

    @property
    def all_towns(self) -> list[str]:
        """Every town of the circuit's qualifiers, by name: the form's suggestions."""
        names = {name_key(town): town for town in self.towns}
        for _event, town in self.elsewhere.values():
            names.setdefault(name_key(town), town)
        return sorted(names.values(), key=name_key)

    def admits(self, town: str) -> bool:
        return name_key(town) in {name_key(t) for t in self.towns}

    def as_listed(self, town: str) -> str:
        """``town`` as the qualifier writes it ("inca" -> "Inca"), else as typed."""
        town = " ".join(town.split())
        return next((t for t in self.towns if name_key(t) == name_key(town)), town)

    def qualifier_of(self, town: str) -> tuple[CircuitEvent, str] | None:
        """The circuit's qualifier that admits ``town`` and the town as it writes it
        (None when none does)."""
        return self.elsewhere.get(name_key(town))


def town_rule(championship: Championship) -> TownRule | None:
    """The town restriction of ``championship``'s entries, or None when it takes anyone
    (not a qualifier, or a qualifier without towns). A query for its event unless it was
    fetched with the championship (``select_related("circuit_event")``), one for the
    circuit's other qualifiers when it restricts."""
    try:
        event = championship.circuit_event
    except CircuitEvent.DoesNotExist:
        return None
    if event is None or event.kind != CircuitEvent.Kind.QUALIFIER or not event.towns:
        return None
    elsewhere: dict[str, tuple[CircuitEvent, str]] = {}
    others = (
        CircuitEvent.objects.filter(circuit_id=event.circuit_id, kind=CircuitEvent.Kind.QUALIFIER)
        .exclude(pk=event.pk)
        .select_related("championship")
        .order_by("championship__start_date", "pk")
    )
    for other in others:
        for town in other.towns:
            elsewhere.setdefault(name_key(town), (other, town))
        # A region's qualifier ("Llevant") is found by its place as well as its towns.
        if other.place:
            elsewhere.setdefault(name_key(other.place), (other, other.place))
    return TownRule(event=event, towns=tuple(event.towns), elsewhere=elsewhere)


def town_problem(rule: TownRule | None, town: str) -> TournamentError | None:
    """Why a team from ``town`` cannot enter under ``rule`` (None: it can). The error's
    ``params`` name the form's field (``town``) and, when the circuit has a qualifier for
    that town, its championship's short name (``slug``) for a link."""
    if rule is None:
        return None
    town = " ".join(town.split())
    listed = ", ".join(rule.towns)
    if not town:
        return TournamentError(
            _("Give your team's town: this qualifier is for teams from %(towns)s."),
            code="town_missing",
            params={"field": "town", "towns": listed},
        )
    if rule.admits(town):
        return None
    found = rule.qualifier_of(town)
    if found is not None:
        other, town = found
        return TournamentError(
            _("Your town, %(town)s, plays the %(qualifier)s qualifier: enter there."),
            code="town_elsewhere",
            params={
                "field": "town",
                "town": town,
                "qualifier": other.place or other.championship.name,
                "championship": other.championship.name,
                "slug": other.championship.slug,
            },
        )
    return TournamentError(
        _("This qualifier is only for teams from %(towns)s."),
        code="town_not_admitted",
        params={"field": "town", "town": town, "towns": listed},
    )
