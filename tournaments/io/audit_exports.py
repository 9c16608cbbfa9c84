"""The audit log as CSV: every change of the championship's results, and the teams' acts
(docs/csv.md), written with the exports' CSV writer and its formula guard."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from django.db.models import QuerySet

from tournaments.io.exports import (
    CHUNK_SIZE,
    csv_lines,
    local_moment,
    match_contexts,
    record_names,
    third_cells,
    with_names,
)
from tournaments.models import Championship, HandRevision, TeamAct
from tournaments.stages import registry

AUDIT_COLUMNS = [
    "at",
    "stage",
    "round",
    "match",
    "team_a",
    "team_b",
    "hand",
    "action",
    "side",
    "by",
    "reason",
    "before",
    "after",
]


def export_audit(championship: Championship, changes: QuerySet[HandRevision]) -> Iterator[str]:
    """The audit log's ``changes`` (``results.selectors.championship_revisions``, with the
    page's filters), newest first: when, in the championship's time zone like every other
    export (:func:`local_moment`), and each hand before and after with its players named as in
    the hands export (:func:`record_names`, :func:`with_names`); a gallo's, ``team_c``."""
    zone, three = championship.zone, championship.plays_gallo

    def rows() -> Iterator[list[Any]]:
        contexts = match_contexts(championship)
        renames: dict[int, dict[str, str]] = {}
        for r in changes.iterator(chunk_size=CHUNK_SIZE):
            match = r.match
            if match.pk not in renames:
                played = contexts.get(match.pk)
                renames[match.pk] = record_names(played) if played is not None else {}
            names = renames[match.pk]
            yield [
                local_moment(r.at, zone),
                registry.stage_name(match.stage),
                match.round.label or match.round.number,
                match.pk,
                match.team_a.name,
                match.team_b.name if match.team_b else "",
                r.number or "",
                r.action,
                r.side,
                r.by.get_username() if r.by else "",
                r.reason,
                _json(with_names(r.before, names)),
                _json(with_names(r.after, names)),
                *(third_cells(match) if three else ()),
            ]

    return csv_lines([*AUDIT_COLUMNS, *(("team_c",) if three else ())], rows())


TEAM_ACT_COLUMNS = [
    "at",
    "action",
    "team",
    "via",
    "by",
    "match",
    "stage",
    "round",
    "detail",
]


def export_team_acts(championship: Championship, acts: QuerySet[TeamAct]) -> Iterator[str]:
    """The teams' audit log (``results.selectors.championship_team_acts``, with the page's
    filters), newest first: when (in the championship's time zone), the act's key, the
    team's name as it was, the way in (``form``, ``link``, ``organiser``, ``api``), the
    user (empty for a team acting through its link or form), the match it concerns, and
    the detail (a withdrawal's reason, a dispute's comment, the stages checked in)."""
    zone = championship.zone

    def rows() -> Iterator[list[Any]]:
        for act in acts.iterator(chunk_size=CHUNK_SIZE):
            match = act.match
            yield [
                local_moment(act.at, zone),
                act.action,
                act.team_name,
                act.via,
                act.by.get_username() if act.by else "",
                match.pk if match else "",
                registry.stage_name(match.stage) if match else "",
                (match.round.label or match.round.number) if match else "",
                act.detail,
            ]

    return csv_lines(TEAM_ACT_COLUMNS, rows())


def _json(value: Any) -> str:
    return "" if value is None else json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# The statistics' columns after ``kind`` and ``name``: the sums of docs/csv.md, in the
# order the statistics' totals hold them (one list, not two to keep in step).
