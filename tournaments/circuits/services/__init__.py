"""Writes to circuits: the circuit and its rules, its events, a team moved between its
qualifiers.

Every function is keyword-only, typed and atomic, and acts for ``by``: a user who manages
the circuit (``circuits.access``: its organisers, staff who manage every championship)
and, for an event, its championship too. A bad request raises ``TournamentError`` with a
sentence (``params["field"]`` names the form's field when there is one) and changes
nothing. The qualification into the final and the ranking are circuit-core's
(``circuits.qualification``, ``circuits.selectors``).
"""

from tournaments.circuits.services.circuits import (
    circuit_create,
    circuit_event_add,
    circuit_event_remove,
    circuit_event_update,
    circuit_update,
)
from tournaments.circuits.services.moves import team_move_to_event

__all__ = [
    "circuit_create",
    "circuit_event_add",
    "circuit_event_remove",
    "circuit_event_update",
    "circuit_update",
    "team_move_to_event",
]
