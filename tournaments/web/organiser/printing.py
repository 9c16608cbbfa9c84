"""Printed sheets for the organiser: a round's pairings and table list with a scoresheet
per match (for tables without a tablet), and the standings for the notice board.

A scoresheet is one of two kinds: the hands' grid, where a referee keeps the score, or the
tally, where the players keep it themselves (docs/tournaments.md, "The printed
scoresheet"): each chico's points marked in boxes of five, malas and buenas apart where
the target has halves, and the result box the desk copies, signed by each side.

Each sheet is a print-ready HTML page (``static/css/print.css``, no script) and the same
page as PDF, drawn by WeasyPrint from the same template with the same stylesheet (read
from the static files, never fetched over HTTP). WeasyPrint needs Pango from the system;
without it the PDF answers 503 with a translated message and the HTML page still prints.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import segno
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.championships import selectors as championship_selectors
from tournaments.championships.selectors import MEMBERS_IN_ORDER
from tournaments.championships.words import words
from tournaments.models import Championship, Match, Scorekeeping, Stage
from tournaments.stages import selectors as stage_selectors
from tournaments.standings import selectors as standing_selectors
from tournaments.web.shared.result_form import chico_slots

logger = logging.getLogger(__name__)

STYLESHEET = "css/print.css"
# Rows for hands on a scoresheet: a best-of-three match rarely needs more.
SCORESHEET_ROWS = 30


def pdf_unavailable_reason() -> str | None:
    """Why PDFs cannot be drawn here (WeasyPrint or its system libraries missing), or
    ``None`` when they can. Tests skip on it."""
    try:
        import weasyprint  # noqa: F401
    except (ImportError, OSError) as error:
        return f"WeasyPrint cannot load: {error}"
    return None


def _pdf(request: HttpRequest, html: str, filename: str) -> HttpResponse:
    problem = pdf_unavailable_reason()
    if problem is not None:
        logger.error("PDF requested but %s", problem)
        return HttpResponse(
            _("PDF printing is not available on this server: print the page instead."),
            status=503,
            content_type="text/plain; charset=utf-8",
        )
    from weasyprint import CSS, HTML

    stylesheet = CSS(filename=finders.find(STYLESHEET))
    document = HTML(string=html, base_url=request.build_absolute_uri("/"))
    response = HttpResponse(document.write_pdf(stylesheets=[stylesheet]), "application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def _render(request: HttpRequest, template: str, context: dict[str, Any], *, pdf: bool) -> str:
    return render_to_string(template, {**context, "pdf": pdf}, request=request)


def qr_data_uri(url: str) -> str:
    """The QR code of ``url`` as an inline SVG data URI (allowed by the pages' CSP)."""
    return segno.make(url, error="m").svg_data_uri(scale=3, border=2)


@dataclass(frozen=True)
class TallyHalf:
    """A part of a chico's tally: its name (malas, buenas; empty for a target without
    halves) and its boxes, each the strokes it holds (5; fewer in the last box of a target
    that is not a multiple of five: catalan 12 is 5, 5 and 2)."""

    name: str
    boxes: tuple[int, ...]


def tally_halves(championship: Championship) -> list[TallyHalf]:
    """How a chico of ``championship`` is tallied: the engine's target and halves
    (``scoring.RuleSet``: 30 has malas and buenas of 15, 15 and catalan 12 none), in boxes
    of five strokes, the four sides and the diagonal."""
    rules = championship_selectors.rule_set(championship)
    if rules.has_halves:
        phases = words(championship).phases
        parts = [(phases["malas"], rules.half), (phases["buenas"], rules.target - rules.half)]
    else:
        parts = [("", rules.target)]
    return [TallyHalf(str(name), _boxes(points)) for name, points in parts]


def _boxes(points: int) -> tuple[int, ...]:
    full, rest = divmod(points, 5)
    return (5,) * full + ((rest,) if rest else ())


@dataclass(frozen=True)
class SheetSide:
    """A side of a scoresheet: its letter, its team and the team's players."""

    side: str
    team: Any
    players: list[Any]


@dataclass(frozen=True)
class Scoresheet:
    match: Match
    sides: list[SheetSide]  # A and B; a table of three's C too
    tablet_url: str
    qr: str
    rows: range
    # The tally's chicos: the best of, one more at a table of three (A, B and C may each
    # win one before a second decides it), as the desk's form counts them.
    chicos: range


def _scoresheet(request: HttpRequest, match: Match) -> Scoresheet:
    url = request.build_absolute_uri(reverse("referees:sheet", args=[match.pk]))
    sides = [
        SheetSide(side=s.side, team=s.team, players=list(s.team.memberships.all()))
        for s in match.sides
    ]
    return Scoresheet(
        match=match,
        tablet_url=url,
        qr=qr_data_uri(url),
        rows=range(1, SCORESHEET_ROWS + 1),
        sides=sides,
        chicos=range(1, chico_slots(match) + 1),
    )


def _with_players(matches: Any) -> list[Match]:
    return list(
        matches.prefetch_related(
            Prefetch("team_a__memberships", queryset=MEMBERS_IN_ORDER),
            Prefetch("team_b__memberships", queryset=MEMBERS_IN_ORDER),
            Prefetch("team_c__memberships", queryset=MEMBERS_IN_ORDER),
        )
    )


SHEET_KINDS = ("hands", "tally")


def _sheet_kind(request: HttpRequest, stage: Stage) -> str:
    """``?sheet=hands`` or ``?sheet=tally``, else by who keeps the score in the stage: the
    hands' grid for a referee, the tally where the players keep it."""
    asked = request.GET.get("sheet", "")
    if asked in SHEET_KINDS:
        return asked
    return "hands" if stage.scorekeeping_in_force == Scorekeeping.REFEREES else "tally"


def _sheet_context(request: HttpRequest, championship: Championship, stage: Stage) -> dict:
    kind = _sheet_kind(request, stage)
    return {
        "sheet_kind": kind,
        "other_kind": SHEET_KINDS[1 - SHEET_KINDS.index(kind)],
        "halves": tally_halves(championship) if kind == "tally" else [],
        "target": championship_selectors.rule_set(championship).target,
    }


def _table_key(match: Match) -> tuple[int, int | str, int]:
    # Tables "2" before "10"; named tables after the numbered ones; no table last.
    table = match.table.strip()
    if table.isdigit():
        return (0, int(table), match.pk)
    return (1, table, match.pk) if table else (2, "", match.pk)


def _round_context(request: HttpRequest, slug: str, stage_id: int, number: int) -> dict[str, Any]:
    championship = championship_selectors.championship_for_organiser(user=request.user, slug=slug)
    stage = stage_selectors.stage_of(championship=championship, stage_id=stage_id)
    round_ = stage_selectors.round_of(stage=stage, number=number)
    matches = sorted(_with_players(stage_selectors.round_matches(round=round_)), key=_table_key)
    for match in matches:
        match.stage = stage  # with its championship: a table of three's rules, no query
    played = [m for m in matches if not m.is_bye]
    # ?sheets=0: the table list alone, a one-page PDF drawn at once whatever the round's
    # size (the scoresheets of a round of 50 tables take WeasyPrint tens of seconds).
    with_sheets = request.GET.get("sheets") != "0"
    return {
        "championship": championship,
        "stage": stage,
        "round": round_,
        "round_name": round_.name_in(stage),
        "matches": played,
        # A round of tables of three: the table list has a column for the third player.
        "three": any(m.is_table_of_three for m in played),
        "byes": [m for m in matches if m.is_bye and not m.is_absence],
        "absent": [m for m in matches if m.is_absence],
        "sheets": [_scoresheet(request, m) for m in played] if with_sheets else [],
        "with_sheets": with_sheets,
        "rules_summary": championship_selectors.rules_summary(championship),
        "words": words(championship),
        **_sheet_context(request, championship, stage),
    }


@login_required
def round_sheets(request: HttpRequest, slug: str, stage_id: int, number: int) -> HttpResponse:
    """The round's pairings and table list, then a scoresheet per match, ready to print."""
    context = _round_context(request, slug, stage_id, number)
    return HttpResponse(_render(request, "print/round.html", context, pdf=False))


@login_required
def round_sheets_pdf(request: HttpRequest, slug: str, stage_id: int, number: int) -> HttpResponse:
    context = _round_context(request, slug, stage_id, number)
    html = _render(request, "print/round.html", context, pdf=True)
    return _pdf(request, html, f"{slug}-{context['stage'].pk}-round-{number}.pdf")


def _match_context(request: HttpRequest, slug: str, match_id: int) -> dict[str, Any]:
    championship = championship_selectors.championship_for_organiser(user=request.user, slug=slug)
    matches = Match.objects.filter(
        stage__championship=championship, pk=match_id, team_b__isnull=False
    ).select_related("stage", "round", "group", "team_a", "team_b", "team_c", "referee")
    found = _with_players(matches)
    if not found:
        raise Http404("No such match.")
    match = found[0]
    return {
        "championship": championship,
        "stage": match.stage,
        "round": match.round,
        "round_name": match.round_name,
        "matches": [],
        "byes": [],
        "absent": [],
        "sheets": [_scoresheet(request, match)],
        "rules_summary": championship_selectors.rules_summary(championship),
        "words": words(championship),
        **_sheet_context(request, championship, match.stage),
    }


@login_required
def scoresheet(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """One match's scoresheet, ready to print."""
    context = _match_context(request, slug, match_id)
    return HttpResponse(_render(request, "print/round.html", context, pdf=False))


@login_required
def scoresheet_pdf(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    context = _match_context(request, slug, match_id)
    html = _render(request, "print/round.html", context, pdf=True)
    return _pdf(request, html, f"{slug}-match-{match_id}.pdf")


def _standings_context(request: HttpRequest, slug: str, stage_id: int) -> dict[str, Any]:
    championship: Championship = championship_selectors.championship_for_organiser(
        user=request.user, slug=slug
    )
    stage = stage_selectors.stage_of(championship=championship, stage_id=stage_id)
    columns = standing_selectors.stage_tiebreak_columns(stage)
    tables = []
    for group in list(stage.groups.all()) or [None]:
        lines = standing_selectors.stage_standings(stage=stage, group=group)
        rows = [
            {"line": line, "values": [line.metrics.get(c.key) for c in columns]} for line in lines
        ]
        tables.append({"title": str(group) if group else "", "rows": rows})
    # Head-to-head is only computed for the teams level before it: a dash for the others.
    not_needed = any(v is None for table in tables for row in table["rows"] for v in row["values"])
    provisional = stage.matches.filter(
        status=Match.Status.FINISHED, confirmed_at__isnull=True, team_b__isnull=False
    ).count()
    return {
        "championship": championship,
        "stage": stage,
        "columns": columns,
        "tables": tables,
        "provisional": provisional,
        "not_needed": not_needed,
    }


@login_required
def standings(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """The stage's standings for the notice board, ready to print."""
    context = _standings_context(request, slug, stage_id)
    return HttpResponse(_render(request, "print/standings.html", context, pdf=False))


@login_required
def standings_pdf(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    context = _standings_context(request, slug, stage_id)
    html = _render(request, "print/standings.html", context, pdf=True)
    return _pdf(request, html, f"{slug}-{stage_id}-standings.pdf")
