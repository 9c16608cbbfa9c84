"""The statistics pages: a championship's (tables, a bar chart of how points were made,
its biggest hand and longest match, the CSV), and the sections of a person's (one per
rules family he played) and a team's pages.

Everything is read from what is kept with the hands (``ratings.statistics_selectors``:
sums by SQL, a fixed number of queries); the chart is an SVG drawn here, no script. A
page shows only the numbers its rules have (``statistics_selectors.rules_items``, from the
engine): no envido nor flor columns in catalan, no flor where it is not played.
Cached and live like the championship's other pages: every hand announces ``c.<slug>``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring import RuleSet
from tournaments import live
from tournaments.championships.words import words
from tournaments.io import exports
from tournaments.live import public_page
from tournaments.models import Championship
from tournaments.ratings import statistics_selectors as selectors
from tournaments.ratings.statistics_selectors import Totals
from tournaments.results.story import CALL_NAMES
from tournaments.web.public.championships import _championship

CHART_WIDTH = 320
BAR_HEIGHT = 18
BAR_GAP = 8
LABEL_WIDTH = 100
VALUE_ROOM = 40

# The steps of the truco by level, when the family is not known (a person's page).
STEP_NAMES = (
    _("without truco"),
    _("first step"),
    _("second step"),
    _("third step"),
)


@dataclass(frozen=True)
class Bar:
    """One bar of the chart; coordinates as strings, never localised ("12.5")."""

    key: str
    label: str
    points: int
    y: str
    width: str
    text_y: str
    value_x: str


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    label_width: int
    bars: list[Bar]


def source_labels(rules: RuleSet | None, items: frozenset[str] | None = None) -> dict[str, Any]:
    """Each source of points in words: those the rules have (``items``, by default those
    of ``rules``: no envido nor flor in catalan, no flor where it is not played, mestre in
    catalan only), the truco's steps named by ``rules``' calls; every source, the steps by
    their number, when the rules are not known."""
    if items is None and rules is not None:
        items = selectors.rules_items(rules)
    ladder = None if rules is None else rules.ladder.calls
    sources = {
        "envido_points": _("envido"),
        "flor_points": _("flor"),
        "mazo_points": _("mazo"),
        "penalty_points": _("penalties"),
        "mestre_points": _("mestre"),
    }
    labels: dict[str, Any] = {
        key: label
        for key, label in sources.items()
        if key in ("envido_points", "flor_points") and (items is None or key in items)
    }
    labels["truco_points_0"] = STEP_NAMES[0]
    for level in (1, 2, 3):
        key = f"truco_points_{level}"
        if ladder is None:
            labels[key] = STEP_NAMES[level]
        elif level <= len(ladder):
            labels[key] = CALL_NAMES.get(ladder[level - 1], ladder[level - 1])
    labels |= {
        key: label
        for key, label in sources.items()
        if key not in labels
        and key not in ("envido_points", "flor_points")
        and (items is None or key in items)
    }
    return labels


def points_chart(totals: Totals, labels: dict[str, Any]) -> Chart:
    """Horizontal bars of the points made by each source named in ``labels`` (those the
    rules have)."""
    shown = [(key, value) for key, value in totals.sources if key in labels]
    top = max([value for _key, value in shown] + [1])
    room = CHART_WIDTH - LABEL_WIDTH - VALUE_ROOM
    bars = []
    for index, (key, value) in enumerate(shown):
        y = index * (BAR_HEIGHT + BAR_GAP)
        width = round(room * value / top, 1)
        bars.append(
            Bar(
                key=key,
                label=str(labels[key]),
                points=value,
                y=str(y),
                width=str(width),
                text_y=str(y + BAR_HEIGHT - 5),
                value_x=str(round(LABEL_WIDTH + width + 4, 1)),
            )
        )
    height = max(len(bars) * (BAR_HEIGHT + BAR_GAP) - BAR_GAP, BAR_HEIGHT)
    return Chart(width=CHART_WIDTH, height=height, label_width=LABEL_WIDTH, bars=bars)


@dataclass(frozen=True)
class Column:
    """A column of the statistics tables: the statistic it needs (``None``: every game
    has it), its heading (with the words an abbreviation stands for) and its cell."""

    needs: str | None
    label: Any
    title: Any
    cell: Callable[[Totals], Any]


COLUMNS = (
    Column(None, pgettext_lazy("hands", "H"), _("Hands played"), lambda t: t.hands),
    Column(None, pgettext_lazy("points", "Pts"), _("Points"), lambda t: t.points),
    Column(
        None,
        pgettext_lazy("points per hand", "Pts/H"),
        _("Points per hand"),
        lambda t: t.points_per_hand,
    ),
    Column("envido_points", _("Envido"), None, lambda t: t.envido_points),
    Column("flor_points", _("Flor"), None, lambda t: t.flor_points),
    Column(None, _("Truco"), None, lambda t: t.truco_points),
    Column("mazo_points", _("Mazo"), None, lambda t: t.mazo_points),
    Column("penalty_points", _("Penalties"), None, lambda t: t.penalty_points),
    Column(
        "mestre_points", _("Mestre"), _("Points of the mestre's rule"), lambda t: t.mestre_points
    ),
    Column(
        "envido_called",
        pgettext_lazy("envido called accepted refused", "Env. c/a/r"),
        _("Envido called, accepted, refused"),
        lambda t: f"{t.envido_called}/{t.envido_accepted}/{t.envido_refused}",
    ),
    Column(
        "envido_won",
        pgettext_lazy("envido won", "Env. won"),
        _("Envido won of played"),
        lambda t: f"{t.envido_won}/{t.envido_played}",
    ),
    Column(
        "truco_calls",
        pgettext_lazy("truco calls answered", "Truco c: a/r/r"),
        _("Truco calls: accepted, refused, raised"),
        lambda t: f"{t.truco_calls}: {t.truco_accepted}/{t.truco_refused}/{t.truco_raised}",
    ),
    Column(
        "flor_sung", pgettext_lazy("flores sung", "Flores"), _("Flores sung"), lambda t: t.flor_sung
    ),
    Column("comebacks", _("Comebacks"), _("Chicos won from the malas"), lambda t: t.comebacks),
)


def columns_for(items: frozenset[str]) -> list[Column]:
    """The columns of a table of statistics under rules that have ``items``."""
    return [column for column in COLUMNS if column.needs is None or column.needs in items]


def table_rows(rows: list[Any], columns: list[Column]) -> list[tuple[Any, list[Any]]]:
    """Each row (a team's or a player's) with its cells."""
    return [(row, [column.cell(row.totals) for column in columns]) for row in rows]


def _drawn_rows(
    kind: str, championship: Championship, rows: list[tuple[Any, list[Any]]]
) -> list[str]:
    """The statistics table's rows (``kind``: "team" or "person") as HTML, each kept while
    what it shows is unchanged (``live.by_content``): a hand changes the rows of its two
    teams and their players, and the other 600 of a 400-team championship were drawn again
    at every renewal of the page (most of its time)."""

    def content(row: Any, cells: list[Any]) -> str:
        if kind == "team":
            shown = (championship.slug, row.team.pk, row.team.name)
        else:
            shown = (row.person_id, row.name, row.team.name if row.team else "")
        return repr((*shown, cells))

    def draw(indexes: list[int]) -> dict[int, str]:
        return {
            index: render_to_string(
                "tournaments/_statistics_row.html",
                {"kind": kind, "row": rows[index][0], "cells": rows[index][1],
                 "championship": championship},
            )
            for index in indexes
        }  # fmt: skip

    return live.by_content(f"statistics-{kind}", [content(*row) for row in rows], draw)


@dataclass(frozen=True)
class Section:
    """A person's (in one rules family) or a team's statistics section: the sums, their
    chart, and the statistics its rules have (``items``)."""

    totals: Totals
    chart: Chart
    labels: dict[str, Any]
    items: frozenset[str]
    family: str = ""


def team_section(team: Any, championship: Championship) -> Section:
    """The statistics section of a team's page (one query)."""
    totals = selectors.team_statistics(team=team)
    rules = selectors.championship_rules(championship)
    items = selectors.rules_items(rules)
    labels = source_labels(rules, items)
    return Section(totals, points_chart(totals, labels), labels, items)


def person_sections(person: Any) -> list[Section]:
    """The statistics sections of a person's page, one per rules family he played (his
    Argentine hands are never added to his Catalan ones), over his public championships
    (two queries)."""
    sections = []
    for found in selectors.person_statistics_by_family(person=person):
        labels = source_labels(found.rules, found.items)
        chart = points_chart(found.totals, labels)
        sections.append(Section(found.totals, chart, labels, found.items, found.family))
    return sections


@public_page(lambda slug: live.page_topics(slug=slug))
def championship_statistics(request: HttpRequest, slug: str) -> HttpResponse:
    """A championship's statistics: its sums, a chart of how points were made, each
    team's and each player's numbers (the columns its rules have), the biggest hand and
    the longest match."""
    found = _championship(slug)
    statistics = selectors.championship_statistics(championship=found)
    rules = selectors.championship_rules(found)
    items = selectors.rules_items(rules)
    labels = source_labels(rules, items)
    columns = columns_for(items)
    return render(
        request,
        "tournaments/statistics.html",
        {
            "championship": found,
            "words": words(found),
            "statistics": statistics,
            "chart": points_chart(statistics.totals, labels),
            "items": items,
            "columns": columns,
            "team_rows": _drawn_rows("team", found, table_rows(statistics.teams, columns)),
            "people_rows": _drawn_rows("person", found, table_rows(statistics.people, columns)),
        },
    )


def statistics_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The championship's statistics as CSV: a row per team, then a row per player."""
    found = _championship(slug)
    response = StreamingHttpResponse(
        exports.export_statistics(found), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = (
        f'attachment; filename="{exports.filename(found, "statistics")}"'
    )
    return response
