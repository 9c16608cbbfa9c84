"""The statistics pages: a championship's (tables, a bar chart of how points were made,
its biggest hand and longest match, the CSV), and the sections of a person's and a
team's pages.

Everything is read from what is kept with the hands (``ratings.statistics_selectors``:
sums by SQL, a fixed number of queries); the chart is an SVG drawn here, no script.
Cached and live like the championship's other pages: every hand announces ``c.<slug>``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

from scoring import RuleSet
from tournaments import live
from tournaments.championships.selectors import rules_spec
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


def source_labels(rules: RuleSet | None) -> dict[str, Any]:
    """Each source of points in words: those of the championship's ``rules`` (no envido
    nor flor in catalan), the truco's steps named by its calls; every source, the steps
    by their number, when the rules are not known (a person's page)."""
    ladder = None if rules is None else rules.ladder.calls
    labels: dict[str, Any] = {}
    if rules is None or rules.has_envido:
        labels |= {"envido_points": _("envido"), "flor_points": _("flor")}
    labels["truco_points_0"] = STEP_NAMES[0]
    for level in (1, 2, 3):
        key = f"truco_points_{level}"
        if ladder is None:
            labels[key] = STEP_NAMES[level]
        elif level <= len(ladder):
            labels[key] = CALL_NAMES.get(ladder[level - 1], ladder[level - 1])
    labels |= {
        "mazo_points": _("mazo"),
        "penalty_points": _("penalties"),
        "mestre_points": _("mestre"),
    }
    return labels


def points_chart(totals: Totals, labels: dict[str, Any]) -> Chart:
    """Horizontal bars of the points made by each source (those named in ``labels``;
    mestre and the flor only where they were made)."""
    shown = [
        (key, value)
        for key, value in totals.sources
        if key in labels and (value or key not in ("mestre_points", "flor_points"))
    ]
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


def _rules(championship: Championship) -> RuleSet:
    return RuleSet.from_spec(rules_spec(championship))


@dataclass(frozen=True)
class Section:
    """A person's or a team's statistics section: the sums and their chart."""

    totals: Totals
    chart: Chart
    labels: dict[str, Any]


def team_section(team: Any, championship: Championship) -> Section:
    """The statistics section of a team's page (one query)."""
    totals = selectors.team_statistics(team=team)
    labels = source_labels(_rules(championship))
    return Section(totals, points_chart(totals, labels), labels)


def person_section(person: Any) -> Section:
    """The statistics section of a person's page, over his public championships (one
    query)."""
    totals = selectors.person_statistics(person=person)
    labels = source_labels(None)
    return Section(totals, points_chart(totals, labels), labels)


@public_page(lambda slug: live.page_topics(slug=slug))
def championship_statistics(request: HttpRequest, slug: str) -> HttpResponse:
    """A championship's statistics: its sums, a chart of how points were made, each
    team's and each player's numbers, the biggest hand and the longest match."""
    found = _championship(slug)
    statistics = selectors.championship_statistics(championship=found)
    labels = source_labels(_rules(found))
    return render(
        request,
        "tournaments/statistics.html",
        {
            "championship": found,
            "words": words(found),
            "statistics": statistics,
            "chart": points_chart(statistics.totals, labels),
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
