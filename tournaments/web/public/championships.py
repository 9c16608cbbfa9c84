"""Public pages of a championship: detail, board (and its TV mode), standings, bracket,
rounds and matches.

No login. Drafts are not public: their pages answer 404. Reads go through the selectors
of each sub-package, whose prefetching keeps each page at a fixed number of queries
whatever the number of teams. The parts of a page that change while a championship is
played are separate includes, each in one element marked ``data-live`` (the match's
headline and hands, the board's tables in play, a standings table), so each can be
rendered again alone (docs/tournaments.md, "Public pages").
Every page is cached under the versions of what it shows and follows it live
(``tournaments.live``): its topics come from its URL
alone.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from tournaments import live
from tournaments.championships import selectors as championship_selectors
from tournaments.championships import zones
from tournaments.championships.words import words
from tournaments.entries import selectors as entry_selectors
from tournaments.formats import Section
from tournaments.live import fragments, part, public_page
from tournaments.models import Championship, Match, Round, Stage, Team, round_name
from tournaments.results import headline
from tournaments.stages import fixtures as fixture_selectors
from tournaments.stages import registry
from tournaments.stages import selectors as stage_selectors
from tournaments.standings import selectors as standing_selectors
from tournaments.standings.tiebreaks import deciders


def _championship(slug: str) -> Championship:
    """The championship of a public page (``Http404`` for a draft or none), kept between
    two changes of its names or status like the parts of pages: one query less for every
    page rendered again after a hand. A copy: the views may set attributes on it."""
    kept = part(
        "championship",
        0,
        [live.SITE, live.structure_topic(slug)],
        lambda: championship_selectors.championship_public(slug=slug),
    )
    return zones.page_championship(copy.copy(kept))  # its zone: no query either


# Teams, rules and each stage's current round: renewed by a decided result, not by a hand.
@public_page(lambda slug: live.page_topics(slug=slug, decided_only=True))
def championship(request: HttpRequest, slug: str) -> HttpResponse:
    """Rules in words, stages (with their current round), teams with their players."""
    found = _championship(slug)
    found = championship_selectors.championship_detail(slug=found.slug)
    stages = _stages_with_current_round(found)
    vocabulary = words(found)

    def draw_teams() -> str:
        teams = championship_selectors.championship_teams(championship=found)
        context = {"championship": found, "words": vocabulary, "teams": teams}
        return render_to_string("tournaments/_team_list.html", context)

    # The teams and their players (most of the page: 400 teams drawn took 0.4 s) are kept,
    # as the championship is, until its teams, line-ups or names change, not drawn again
    # by every result. Drawn here by our own template (escaped there), kept as it was.
    team_list = mark_safe(part("team-list", 0, [live.SITE, live.structure_topic(slug)], draw_teams))
    return render(
        request,
        "tournaments/championship.html",
        {
            "championship": found,
            "rules_summary": championship_selectors.rules_summary(found),
            "words": vocabulary,
            "stages": stages,
            "team_list": team_list,
            "entries_open": _entries_open(found),
            "has_fixtures": fixture_selectors.has_fixtures(championship=found),
        },
    )


def _entries_open(championship: Championship) -> bool:
    """Whether the page links to the entry form (a query only while registration is
    open). A policy saved announces the championship, which renews the cached page."""
    if championship.status != Championship.Status.REGISTRATION:
        return False
    policy = entry_selectors.entry_policy(championship)
    return entry_selectors.entries_closed_problem(championship, policy) is None


@dataclass(frozen=True)
class CurrentRound:
    number: int
    name: str
    open: bool  # False: every round is over, this is the last one played


def _stages_with_current_round(championship: Championship) -> list[Stage]:
    """The championship's stages, each with ``current_round`` (None before its first)."""
    current = stage_selectors.rounds_now(championship=championship)
    stages = list(championship.stages.prefetch_related("rounds"))
    for stage in stages:
        stage.championship = championship
        now = current.get(stage.pk)
        stage.current_round = None
        if now:
            round_ = next((r for r in stage.rounds.all() if r.number == now.number), None)
            name = round_.name_in(stage) if round_ is not None else ""
            stage.current_round = CurrentRound(number=now.number, name=name, open=now.open)
    return stages


@dataclass(frozen=True)
class StandingsTable:
    title: str
    lines: list[Any]
    qualify: int  # places that go on (highlighted), 0 when none do
    # A tie-break shown without a value for some team: one that splits only the teams the
    # earlier ones left level (head-to-head) had nothing to break there (a dash, a legend).
    not_needed: bool = False


def _metric(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def standings_tables(
    championship: Championship, stage: Stage
) -> tuple[list[Any], list[StandingsTable]]:
    """The tie-break columns to show and the stage's standings tables (one per group).

    The lots column is shown only when the drawing of lots separated two teams
    somewhere; the places that qualify (the ``advance`` of a groups-then-knockout stage)
    are marked. Head-to-head has a value only for the teams level on the tie-breaks
    before it (a mini-table of their matches): for the others the page shows a dash and
    says why (``not_needed``), never a blank a reader takes for missing data."""
    columns = standing_selectors.stage_tiebreak_columns(stage)
    groups = list(stage.groups.all())
    qualify = 0
    if registry.FORMATS.get(stage.format) is not None and registry.get(stage.format).has_groups:
        qualify = int(stage.settings.get("advance", 0) or 0)
    computed = [
        (group, standing_selectors.stage_standings(stage=stage, group=group))
        for group in groups or [None]
    ]
    chain = [c.key for c in columns]
    decided: set[str] = set()
    for _group, lines in computed:
        decided |= deciders([line.metrics for line in lines], chain)
    shown = [c for c in columns if c.key != "lots" or "lots" in decided]
    tables = []
    for group, lines in computed:
        rows = [
            {
                "line": line,
                "values": [_metric(line.metrics.get(column.key)) for column in shown],
                "qualifies": bool(qualify) and line.position <= qualify,
            }
            for line in lines
        ]
        title = str(group) if group else ""
        not_needed = any(value is None for row in rows for value in row["values"])
        tables.append(
            StandingsTable(title=title, lines=rows, qualify=qualify, not_needed=not_needed)
        )
    return shown, tables


# The table and the current round change only when a match is decided.
@public_page(lambda slug, stage_id: live.page_topics(slug=slug, decided_only=True))
def standings(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """Rank and team (fixed on a phone), played, won, lost and the tie-break columns, per
    group when there are, with the qualifying places marked and a legend."""
    found = _championship(slug)
    stage = stage_selectors.stage_of(championship=found, stage_id=stage_id)
    columns, tables = standings_tables(found, stage)
    return render(
        request,
        "tournaments/standings.html",
        {
            "championship": found,
            "stage": stage,
            "columns": columns,
            "tables": tables,
            "qualify": tables[0].qualify if tables else 0,
            "not_needed": any(table.not_needed for table in tables),
            "postponed": fixture_selectors.postponed_matches(stage=stage),
            **_rounds_context(stage),
        },
    )


def _rounds_context(stage: Stage) -> dict[str, Any]:
    """The stage's rounds named by stage, and the current one (for the rounds nav)."""
    rounds, current = stage_selectors.rounds_in_play(stage=stage)
    return {
        "round_links": [
            {
                "number": r.number,
                "label": r.label,
                "name": r.name_in(stage),
                "current": r.number == current,
                "open": r.open > 0,
            }
            for r in rounds
        ],
        "current_round": current,
    }


@dataclass(frozen=True)
class BracketCell:
    id: str
    number: int  # "Match 3": the bracket's matches numbered in order, for people
    teams: list[tuple[str, bool, bool, int | None]]  # (name, won, known, team id) per slot
    match: Match | None


@dataclass(frozen=True)
class BracketColumn:
    title: str
    cells: list[BracketCell]
    current: bool = False


_LABEL_PREFIX = {Section.WINNERS: "W", Section.LOSERS: "L"}
_SECTION_LABEL = {Section.FINAL: "GF", Section.RESET: "GF2", Section.THIRD_PLACE: "P3"}


def _slot_source(source: str, numbers: dict[str, int]) -> str:
    """Where a future slot's team comes from, in words: "Winner of match 3" (the
    bracket's own codes, W1-3, mean nothing to a reader)."""
    kind, _sep, match_id = source.partition(" ")
    if kind == "winner" and match_id in numbers:
        return _("Winner of match %(number)s") % {"number": numbers[match_id]}
    if kind == "loser" and match_id in numbers:
        return _("Loser of match %(number)s") % {"number": numbers[match_id]}
    if source == "losers-bracket champion":
        return _("Losers' bracket champion")
    return _("To be decided")


def bracket_columns(
    view: stage_selectors.BracketView, stage: Stage, current_label: str = ""
) -> list[BracketColumn]:
    """The bracket as columns of matches, winners' rounds first, then losers', finals;
    each column named by stage (``round_name``), the current round's marked."""
    bracket = view.bracket
    order = [Section.WINNERS, Section.LOSERS, Section.FINAL, Section.RESET, Section.THIRD_PLACE]
    grouped: dict[tuple[int, int], list[BracketCell]] = {}
    labels: dict[tuple[int, int], str] = {}
    slots = sorted(
        (slot for slot in bracket.matches.values() if not slot.void),
        key=lambda slot: (order.index(slot.section), slot.round, slot.index),
    )
    numbers = {slot.id: number for number, slot in enumerate(slots, start=1)}
    for slot in slots:
        key = (order.index(slot.section), slot.round)
        stored = view.matches.get(slot.id)
        names = []
        for team_id, empty, source in zip(slot.teams, slot.empty, slot.sources, strict=True):
            team: Team | None = view.teams.get(team_id) if team_id is not None else None
            if team is not None:
                names.append((team.name, slot.winner == team_id, True, team.pk))
            elif empty:
                names.append((_("bye"), False, False, None))
            else:
                names.append((_slot_source(source, numbers), False, False, None))
        cell = BracketCell(id=slot.id, number=numbers[slot.id], teams=names, match=stored)
        grouped.setdefault(key, []).append(cell)
        prefix = _LABEL_PREFIX.get(slot.section)
        labels[key] = f"{prefix}{slot.round}" if prefix else _SECTION_LABEL[slot.section]
    return [
        BracketColumn(
            title=round_name(number=0, label=labels[key], settings=stage.settings),
            cells=grouped[key],
            current=bool(current_label) and labels[key] == current_label,
        )
        for key in sorted(grouped)
    ]


@public_page(lambda slug, stage_id: live.page_topics(slug=slug, stage_id=stage_id))
def bracket(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """The elimination bracket, rounds as columns (scrolls sideways on a phone)."""
    found = _championship(slug)
    stage = stage_selectors.stage_of(championship=found, stage_id=stage_id)
    if not registry.get(stage.format).has_bracket:
        raise Http404("This stage has no bracket.")
    view = stage_selectors.stage_bracket(stage=stage)
    champion = None
    if view is not None and view.bracket.champion is not None:
        champion = view.teams.get(view.bracket.champion)
    rounds = _rounds_context(stage)
    current_label = next((r["label"] for r in rounds["round_links"] if r["current"]), "")
    return render(
        request,
        "tournaments/bracket.html",
        {
            "championship": found,
            "stage": stage,
            "columns": bracket_columns(view, stage, current_label) if view is not None else [],
            "champion": champion,
            **rounds,
        },
    )


def _with_live_scores(matches: list[Match]) -> list[Match]:
    for shown in matches:
        shown.live = headline.live_score(shown)
    return matches


@dataclass(frozen=True)
class _Stored:
    """A page kept in the cache but for the section that changes most often: its body
    rendered around a mark, as ``head`` and ``tail`` (``pagecache.part``)."""

    championship_id: int
    title: str
    head: str
    tail: str

    @staticmethod
    def around(body: str, mark: str) -> tuple[str, str]:
        head, _mark, tail = body.partition(mark)
        return head, tail

    def page(self, request: HttpRequest, middle: str) -> HttpResponse:
        """The whole page, ``middle`` rendered fresh where the mark was."""
        return render(
            request,
            "tournaments/assembled.html",
            {"title": self.title, "body": mark_safe(self.head + middle + self.tail)},
        )


# Where a round's rows go in its stored part (never in a name).
_ROWS = "\x00rows\x00"


@dataclass(frozen=True)
class _StoredRound(_Stored):
    """A round's page but for its rows: its names and the current round, kept until the
    championship's structure or its decided results change (not at every hand)."""

    ids: list[int]


def _stored_round(championship: Championship, stage_id: int, number: int) -> _StoredRound:
    stage = stage_selectors.stage_of(championship=championship, stage_id=stage_id)
    round_: Round = stage_selectors.round_of(stage=stage, number=number)
    ids = stage_selectors.round_match_ids(round=round_)
    round_title = round_.name_in(stage)
    body = render_to_string(
        "tournaments/_round_body.html",
        {
            "championship": championship,
            "stage": stage,
            "round": round_,
            "round_title": round_title,
            "rows": [_ROWS] if ids else [],
            **_rounds_context(stage),
        },
    )
    head, tail = _Stored.around(body, _ROWS)
    return _StoredRound(
        championship_id=championship.pk,
        title=f"{round_title} · {registry.stage_name(stage)} · {championship.name}",
        head=head,
        tail=tail,
        ids=ids,
    )


@public_page(lambda slug, stage_id, number: live.page_topics(slug=slug, stage_id=stage_id))
def round_matches(request: HttpRequest, slug: str, stage_id: int, number: int) -> HttpResponse:
    """The matches of one round: teams, table, time, status and score (the running
    score of the chico being played for a match in play). A hand renews the page, but
    only its match's row is rendered again (``match_rows``); the rest of the page (names,
    the current round) is kept until the structure or a decided result changes it."""
    found = _championship(slug)
    stored = part(
        "round",
        f"{stage_id}.{number}",
        [live.SITE, live.structure_topic(slug), live.results_topic(slug)],
        lambda: _stored_round(found, stage_id, number),
    )
    if stored.championship_id != found.pk:  # a slug given to another championship since
        raise Http404("No such round.")
    return stored.page(request, "".join(match_rows(found, words(found), stored.ids)))


def match_rows(championship: Championship, vocabulary: Any, ids: list[int]) -> list[str]:
    """Each match of ``ids`` as its row of a list (``_match_card.html``), in order: from
    the cache while its match and the championship's names are unchanged."""

    def render_rows(missing: list[int]) -> dict[int, str]:
        shown = _with_live_scores(list(stage_selectors.match_cards(ids=missing)))
        return {
            match.pk: render_to_string(
                "tournaments/_match_row.html",
                {"championship": championship, "words": vocabulary, "match": match},
            )
            for match in shown
        }

    return match_parts("match-row", championship, ids, render_rows)


def match_parts(
    name: str,
    championship: Championship,
    ids: list[int],
    draw: Callable[[list[int]], dict[int, str]],
) -> list[str]:
    """One part of a page per match of ``ids``, in order (``pagecache.fragments``), each
    kept while its match and the championship's names are unchanged; ``draw(missing)``
    renders the missing ones (a round's rows, the schedule's)."""
    slug = championship.slug
    return fragments(name, ids, lambda pk: [live.structure_topic(slug), live.match_topic(pk)], draw)


# Every table of the championship: a hand anywhere in it renews the board.
@public_page(lambda slug: live.page_topics(slug=slug))
def board(request: HttpRequest, slug: str) -> HttpResponse:
    """The championship board: every table in play with its live score, the current
    round of each stage, the latest results and the standings of the stage being
    played. ``?tv=1`` is the venue's screen: full screen, large type, no navigation."""
    found = _championship(slug)
    stages = _stages_with_current_round(found)
    playing, recent = stage_selectors.board_matches(championship=found)
    shown_stage = next((s for s in reversed(stages) if s.current_round is not None), None)
    columns: list[Any] = []
    tables: list[StandingsTable] = []
    if shown_stage is not None:
        columns, tables = standings_tables(found, shown_stage)
    for listed in (*playing, *recent):
        listed.round_title = listed.round.name_in(listed.stage)
    tv = request.GET.get("tv") == "1"
    return render(
        request,
        "tournaments/tv.html" if tv else "tournaments/board.html",
        {
            "championship": found,
            "words": words(found),
            "stages": stages,
            "playing": _with_live_scores(playing),
            "recent": recent,
            "standings_stage": shown_stage,
            "columns": columns,
            "tables": tables,
            "qualify": tables[0].qualify if tables else 0,
            "not_needed": any(table.not_needed for table in tables),
            "tv": tv,
        },
    )


# Where the hand in progress goes in the match's stored part (never in a name or a hand).
@public_page(lambda: live.page_topics())
def home(request: HttpRequest) -> HttpResponse:
    """The home page: the championships open to the public."""
    return render(
        request,
        "tournaments/home.html",
        {"championships": championship_selectors.championship_list_public()},
    )
