"""Writes of results: seating a match, recording, correcting and undoing hands, walkovers.

A match's games, scores, status and winner are never typed in: they are derived from its
hand records by the engine (``scoring``), under a row lock on the match. A decided result
makes its bracket advance and its standings refresh. One module per stage of a match's
life: ``matches`` (assigned, seated, started), ``hands`` (recorded, imported, corrected,
removed, and the result derived from them), ``outcomes`` (walkovers, the sides'
confirmations and disputes), ``reported`` (a match recorded as its result, reported by a
team or typed at the desk); callers import this package.
"""

from __future__ import annotations

from tournaments.results.services.hands import (
    hand_correct,
    hand_delete_last,
    hand_record,
    hand_record_locked,
    hand_remove,
    hand_statistics_rebuild,
    match_hands_import,
)
from tournaments.results.services.matches import (
    match_assign,
    match_start,
    round_assign_referee,
    standings_invalidate,
)
from tournaments.results.services.outcomes import (
    match_confirm,
    match_dispute,
    match_walkover,
)
from tournaments.results.services.reported import (
    match_recording_change,
    match_result_correct,
    match_result_record,
    match_result_report,
    result_check,
    result_sides,
    result_text,
)

__all__ = [
    "hand_correct",
    "hand_delete_last",
    "hand_record",
    "hand_record_locked",
    "hand_remove",
    "hand_statistics_rebuild",
    "match_assign",
    "match_confirm",
    "match_dispute",
    "match_hands_import",
    "match_recording_change",
    "match_result_correct",
    "match_result_record",
    "match_result_report",
    "match_start",
    "match_walkover",
    "result_check",
    "result_sides",
    "result_text",
    "round_assign_referee",
    "standings_invalidate",
]
