"""Writes to people: found or created for a line-up (``players``), edited (``edits``),
merged (``merges``). Callers import from here."""

from tournaments.people.services.edits import EDITABLE, FILLED_ON_MERGE, person_update
from tournaments.people.services.merges import (
    person_merge,
    person_merge_agree,
    person_merge_decline,
)
from tournaments.people.services.players import PersonDetails, details_check, players_create

__all__ = [
    "EDITABLE",
    "FILLED_ON_MERGE",
    "PersonDetails",
    "details_check",
    "person_merge",
    "person_merge_agree",
    "person_merge_decline",
    "person_update",
    "players_create",
]
