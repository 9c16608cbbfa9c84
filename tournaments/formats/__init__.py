"""Championship formats as pure Python over plain data: no Django, no models.

The Django services feed these functions rows (team ids, scores, past opponents, results)
and store what they return: round-robin schedules, Swiss rounds, elimination brackets
the groups-then-knockout crossing, and tables of three (Swiss rounds of tables, a round
robin of tables for small fields, the final table).
"""

from tournaments.formats.base import FormatError, Pairing, TeamId
from tournaments.formats.elimination import (
    Bracket,
    BracketMatch,
    Outcome,
    Section,
    SlotRef,
    bracket_from_positions,
    double_elimination,
    seed_order,
    seeded_positions,
    single_elimination,
)
from tournaments.formats.groups import groups_knockout, knockout_positions, snake_groups
from tournaments.formats.round_robin import Round, round_robin
from tournaments.formats.swiss import SwissRound, SwissTeam, swiss_pairings, swiss_teams
from tournaments.formats.tables import (
    REMAINDERS,
    TablesRound,
    final_table,
    table_sizes,
    tables_swiss,
)
from tournaments.formats.tables_schedule import tables_round_robin

__all__ = [
    "REMAINDERS",
    "Bracket",
    "BracketMatch",
    "FormatError",
    "Outcome",
    "Pairing",
    "Round",
    "Section",
    "SlotRef",
    "SwissRound",
    "SwissTeam",
    "TablesRound",
    "TeamId",
    "bracket_from_positions",
    "double_elimination",
    "final_table",
    "groups_knockout",
    "knockout_positions",
    "round_robin",
    "seed_order",
    "seeded_positions",
    "single_elimination",
    "snake_groups",
    "swiss_pairings",
    "swiss_teams",
    "table_sizes",
    "tables_round_robin",
    "tables_swiss",
]
