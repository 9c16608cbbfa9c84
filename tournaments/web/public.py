"""Public pages of a championship: detail, standings, bracket, rounds and matches.

No login. Drafts are not public: their pages answer 404. Reads go through the selectors
of each sub-package, whose prefetching keeps each page at a fixed number of queries
whatever the number of teams. Every page is cached under the versions of what it shows
and follows it live (``tournaments.web.pagecache``, ``tournaments.web.live``): its
topics come from its URL alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.championships import selectors as championship_selectors
from tournaments.formats import Section
from tournaments.models import Match, Team
from tournaments.results import selectors as result_selectors
from tournaments.stages import registry
from tournaments.stages import selectors as stage_selectors
from tournaments.standings import selectors as standing_selectors
from tournaments.web import live
from tournaments.web.pagecache import public_page

HAND_STATUS = {
    "complete": gettext_lazy("Played"),
    "game_over": gettext_lazy("Game over"),
    "void": gettext_lazy("Void"),
    "redeal": gettext_lazy("Dealt again"),
}


@public_page(lambda slug: live.page_topics(slug=slug))
def championship(request: HttpRequest, slug: str) -> HttpResponse:
    """Rules in words, stages, teams with their players."""
    found = championship_selectors.championship_public(slug=slug)
    found = championship_selectors.championship_detail(slug=found.slug)
    return render(
        request,
        "tournaments/championship.html",
        {
            "championship": found,
            "rules_summary": championship_selectors.rules_summary(found),
            "stages": found.stages.all(),
            "teams": found.teams.all(),
        },
    )


@dataclass(frozen=True)
class StandingsTable:
    title: str
    lines: list[Any]


def _metric(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


@public_page(lambda slug, stage_id: live.page_topics(slug=slug, stage_id=stage_id))
def standings(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """Rank, team, played, won, lost and the tie-break columns, per group when there are."""
    found = championship_selectors.championship_public(slug=slug)
    stage = stage_selectors.stage_of(championship=found, stage_id=stage_id)
    columns = standing_selectors.tiebreak_columns(found)
    groups = list(stage.groups.all())
    tables = []
    for group in groups or [None]:
        lines = standing_selectors.stage_standings(stage=stage, group=group)
        rows = [
            {
                "line": line,
                "values": [_metric(line.metrics.get(column.key)) for column in columns],
            }
            for line in lines
        ]
        tables.append(StandingsTable(title=str(group) if group else "", lines=rows))
    return render(
        request,
        "tournaments/standings.html",
        {
            "championship": found,
            "stage": stage,
            "columns": columns,
            "tables": tables,
        },
    )


@dataclass(frozen=True)
class BracketCell:
    id: str
    teams: list[tuple[str, bool]]  # (name, won) per slot
    match: Match | None


@dataclass(frozen=True)
class BracketColumn:
    title: str
    cells: list[BracketCell]


def _column_title(section: Section, number: int, last_winners_round: int, double: bool) -> str:
    if section == Section.WINNERS:
        if number == last_winners_round and double:
            return _("Winners' final")
        if number == last_winners_round:
            return _("Final")
        if number == last_winners_round - 1 and not double:
            return _("Semi-finals")
        return _("Round %(number)s") % {"number": number}
    if section == Section.LOSERS:
        return _("Losers' round %(number)s") % {"number": number}
    if section == Section.FINAL:
        return _("Grand final")
    if section == Section.RESET:
        return _("Reset final")
    return _("Third place")


def bracket_columns(view: stage_selectors.BracketView) -> list[BracketColumn]:
    """The bracket as columns of matches, winners' rounds first, then losers', finals."""
    bracket = view.bracket
    order = [Section.WINNERS, Section.LOSERS, Section.FINAL, Section.RESET, Section.THIRD_PLACE]
    last_winners = max(
        (m.round for m in bracket.matches.values() if m.section == Section.WINNERS), default=1
    )
    grouped: dict[tuple[int, int], list[BracketCell]] = {}
    titles: dict[tuple[int, int], str] = {}
    for slot in bracket.matches.values():
        if slot.void:
            continue
        key = (order.index(slot.section), slot.round)
        stored = view.matches.get(slot.id)
        names = []
        for team_id, empty in zip(slot.teams, slot.empty, strict=True):
            team: Team | None = view.teams.get(team_id) if team_id is not None else None
            if team is not None:
                names.append((team.name, slot.winner == team_id))
            elif empty:
                names.append((_("bye"), False))
            else:
                names.append(("…", False))
        grouped.setdefault(key, []).append(BracketCell(id=slot.id, teams=names, match=stored))
        titles[key] = _column_title(slot.section, slot.round, last_winners, bracket.double)
    return [BracketColumn(title=titles[key], cells=grouped[key]) for key in sorted(grouped)]


@public_page(lambda slug, stage_id: live.page_topics(slug=slug, stage_id=stage_id))
def bracket(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """The elimination bracket, rounds as columns (scrolls sideways on a phone)."""
    found = championship_selectors.championship_public(slug=slug)
    stage = stage_selectors.stage_of(championship=found, stage_id=stage_id)
    if not registry.get(stage.format).has_bracket:
        raise Http404("This stage has no bracket.")
    view = stage_selectors.stage_bracket(stage=stage)
    champion = None
    if view is not None and view.bracket.champion is not None:
        champion = view.teams.get(view.bracket.champion)
    return render(
        request,
        "tournaments/bracket.html",
        {
            "championship": found,
            "stage": stage,
            "columns": bracket_columns(view) if view is not None else [],
            "champion": champion,
        },
    )


@public_page(lambda slug, stage_id, number: live.page_topics(slug=slug, stage_id=stage_id))
def round_matches(request: HttpRequest, slug: str, stage_id: int, number: int) -> HttpResponse:
    """The matches of one round: teams, table, time, status and score."""
    found = championship_selectors.championship_public(slug=slug)
    stage = stage_selectors.stage_of(championship=found, stage_id=stage_id)
    round_ = stage_selectors.round_of(stage=stage, number=number)
    rounds = list(stage.rounds.values_list("number", "label"))
    return render(
        request,
        "tournaments/round.html",
        {
            "championship": found,
            "stage": stage,
            "round": round_,
            "rounds": rounds,
            "matches": stage_selectors.round_matches(round=round_),
        },
    )


@public_page(lambda slug, match_id: live.page_topics(slug=slug, match_id=match_id))
def match(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """A match with its games and hands; follows each hand live (static/js/live.js)."""
    found = championship_selectors.championship_public(slug=slug)
    try:
        shown = result_selectors.match_detail(pk=match_id)
    except Match.DoesNotExist:
        raise Http404("No such match.") from None
    if shown.stage.championship_id != found.pk:
        raise Http404("No such match.")
    hands = [
        {"hand": hand, "status": HAND_STATUS.get(hand.status, hand.status)}
        for hand in shown.hands.all()
    ]
    return render(
        request,
        "tournaments/match.html",
        {
            "championship": found,
            "match": shown,
            "games": shown.games.all(),
            "hands": hands,
            "live": shown.status == Match.Status.IN_PROGRESS,
        },
    )


@public_page(lambda: live.page_topics())
def home(request: HttpRequest) -> HttpResponse:
    """The home page: the championships open to the public."""
    return render(
        request,
        "tournaments/home.html",
        {"championships": championship_selectors.championship_list_public()},
    )
