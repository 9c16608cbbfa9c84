"""The desk: the organiser types a round's results as the paper sheets come back
(docs/tournaments.md, "No referee at the table", "The desk").

One row per table of the round, each its own form (its inputs name it with the ``form``
attribute: HTML has no form per table row), saved on its own by the results service
(``match_result_record``: confirmed for every side, a result a team reported differently
refused with its sentence). Each row is checked by the engine as it is typed
(:func:`desk_check`, ``result_check``: nothing stored). ``static/js/desk.js`` saves a row
without leaving the page and moves to the next empty one; without a script every row
posts to the page, which comes back with that row saved or with its sentence.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.championships import selectors as championship_selectors
from tournaments.championships.words import words
from tournaments.models import Championship, Match, Round
from tournaments.results import records
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services
from tournaments.stages import registry
from tournaments.stages import selectors as stage_selectors
from tournaments.web.shared.forms import add_service_error
from tournaments.web.shared.result_form import ResultForm, chico_slots

# What a row says while it is not a result yet: typed so far, not wrong (shown quietly).
INCOMPLETE = {"score_missing", "match_not_decided"}


def _prefix(match: Match) -> str:
    return f"m{match.pk}"


def _form(match: Match, data: Any = None) -> ResultForm:
    """A row's result form: its fields belong to the row's own form element."""
    form = ResultForm(data, match=match, prefix=_prefix(match))
    for bound in form.fields.values():
        bound.widget.attrs.update({"form": f"desk-form-{match.pk}", "autocomplete": "off"})
    return form


@dataclass
class Row:
    """A table of the round as the desk shows it.

    ``state``: ``open`` (to be typed), ``reported`` (a team reported its result: typing the
    paper sheet confirms it), ``saved`` (a result, typed or confirmed), ``hands`` (kept
    hand by hand), ``walkover``, ``bye`` or ``absent`` (neither typed)."""

    match: Match
    state: str
    names: list[tuple[str, str]]
    form: ResultForm | None = None
    text: str = ""
    reported_by: str = ""
    scores: list[list[int]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    just_saved: bool = False
    # Empty chico cells, for a row with fewer chicos than the round's widest.
    padding: range = range(0)

    @property
    def typable(self) -> bool:
        return self.form is not None

    @property
    def correctable(self) -> bool:
        return self.match.recorded == Match.Recorded.RESULT and self.match.is_decided


def _state(match: Match) -> str:
    if match.is_absence:
        return "absent"
    if match.is_bye:
        return "bye"
    if match.status == Match.Status.WALKOVER:
        return "walkover"
    if match.recorded == Match.Recorded.HANDS and match.has_hands:
        return "hands"
    if match.status == Match.Status.FINISHED:
        return "saved" if match.confirmed_at else "reported"
    return "open"


def _stored_scores(match: Match) -> list[list[int]]:
    """Each stored chico's score by side, in the row's order (prefetched games)."""
    columns = records.column_sides(match)
    sides = result_services.result_sides(match)
    by_side = {side: column for column, side in columns.items()}
    return [
        [getattr(game, f"score_{by_side[side]}") for side in sides] for game in match.games.all()
    ]


def _row(match: Match, *, posted: ResultForm | None = None, saved: int | None = None) -> Row:
    state = _state(match)
    names = records.side_names(match)
    row = Row(match=match, state=state, names=[(side, name) for side, name in names.items()])
    if state in ("bye", "absent"):
        return row
    if match.is_decided:
        row.text = result_services.result_text(match)
        row.scores = _stored_scores(match)
    if match.reported_side and state == "reported":
        row.reported_by = names.get(match.reported_side, match.reported_side)
    if posted is not None:
        row.form = posted
        row.errors = [str(message) for message in _messages(posted)]
    elif state in ("open", "reported"):
        row.form = _form(match)
    row.just_saved = saved == match.pk and state == "saved"
    return row


def _messages(form: ResultForm) -> list[str]:
    """A form's sentences: its own, then each field's named by its chico and side."""
    found = [str(message) for message in form.non_field_errors()]
    for name, errors in form.errors.items():
        if name == "__all__":
            continue
        found.extend(f"{_field_label(form, name)}: {message}" for message in errors)
    return found


def _field_label(form: ResultForm, name: str) -> str:
    chico, _sep, side = name.partition("_")
    label = form.names.get(side) or form.fields[name].label
    return f"{str(form.word.game).capitalize()} {chico[1:]}, {label}"


@dataclass(frozen=True)
class Progress:
    done: int
    total: int
    to_confirm: int


def _progress(rows: list[Row]) -> Progress:
    tables = [row for row in rows if row.state not in ("bye", "absent")]
    return Progress(
        done=sum(1 for row in tables if row.match.is_decided),
        total=len(tables),
        to_confirm=sum(1 for row in tables if row.state == "reported"),
    )


def _first_empty(rows: list[Row]) -> Row | None:
    """The first row to type: open, nothing typed in it."""
    return next((r for r in rows if r.state == "open" and not (r.form and r.form.is_bound)), None)


def _round_label(round_: Round) -> str:
    return f"{registry.stage_name(round_.stage)}: {round_.name_in(round_.stage)}"


def _default_round(championship: Championship, rounds: list[Round]) -> Round | None:
    """The current round of the first stage with results still to come (each stage's
    current round: ``stages.selectors.current_rounds``), else the last current one."""
    current = stage_selectors.current_rounds(championship=championship)
    candidates = [r for r in rounds if current.get(r.stage_id) == r.number]
    return next((r for r in candidates if r.open), candidates[-1] if candidates else None)


@login_required
def desk(request: HttpRequest, slug: str) -> HttpResponse:
    """The desk of the round chosen (``?round=<stage>-<number>``), else of the current one."""
    championship = championship_selectors.championship_for_organiser(user=request.user, slug=slug)
    rounds = stage_selectors.championship_rounds(championship=championship)
    wanted = request.GET.get("round", "")
    chosen = next((r for r in rounds if f"{r.stage_id}-{r.number}" == wanted), None)
    target = chosen or _default_round(championship, rounds)
    if target is None:
        return render(request, "organiser/desk.html", {"championship": championship, "rows": []})
    return redirect(
        "organiser:round_desk", slug=slug, stage_id=target.stage_id, number=target.number
    )


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _save(request: HttpRequest, matches: list[Match]) -> tuple[Match, ResultForm | None]:
    """Save the row posted: its match, and its form when refused (None once saved)."""
    wanted = request.POST.get("match", "")
    match = next((m for m in matches if str(m.pk) == wanted and not m.is_bye), None)
    if match is None:
        raise Http404("No such match in this round.")
    form = _form(match, request.POST)
    if form.is_valid():
        try:
            result_services.match_result_record(
                match=match, games=form.cleaned_data["games"], by=request.user
            )
        except ValidationError as error:
            add_service_error(form, error)
        else:
            return match, None
    return match, form


@login_required
def round_desk(request: HttpRequest, slug: str, stage_id: int, number: int) -> HttpResponse:
    """A round's tables, each typed and saved on its own."""
    championship = championship_selectors.championship_for_organiser(user=request.user, slug=slug)
    stage = stage_selectors.stage_of(championship=championship, stage_id=stage_id)
    round_ = stage_selectors.round_of(stage=stage, number=number)
    matches = result_selectors.desk_matches(round=round_)
    url = reverse("organiser:round_desk", args=[slug, stage_id, number])
    posted: dict[int, ResultForm] = {}
    saved: int | None = None
    if request.method == "POST":
        match, refused = _save(request, matches)
        if refused is None:
            saved = match.pk
            if not _wants_json(request):
                return redirect(f"{url}?saved={match.pk}#row-{match.pk}")
            matches = result_selectors.desk_matches(round=round_)
        else:
            posted[match.pk] = refused
    elif request.GET.get("saved", "").isdigit():
        saved = int(request.GET["saved"])
    rows = [_row(m, posted=posted.get(m.pk), saved=saved) for m in matches]
    progress = _progress(rows)
    slots = max((chico_slots(r.match) for r in rows if r.state not in ("bye", "absent")), default=0)
    for row in rows:
        row.padding = range(slots - (chico_slots(row.match) if row.form else len(row.scores)))
    context = {
        "championship": championship,
        "stage": stage,
        "round": round_,
        "round_label": _round_label(round_),
        "rows": rows,
        "progress": progress,
        "slots": range(1, slots + 1),
        "desk_url": url,
        "three_sides": any(len(r.names) == 3 for r in rows),
        "words": words(championship),
    }
    focus = next((r for r in rows if r.errors), None) or _first_empty(rows)
    if focus is not None and focus.form is not None:
        first = next(iter(focus.form.fields.values()))
        first.widget.attrs["autofocus"] = True
    context["rounds"] = [
        (f"{r.stage_id}-{r.number}", _round_label(r), r.open)
        for r in stage_selectors.championship_rounds(championship=championship)
    ]
    context["chosen"] = f"{stage.pk}-{number}"
    if request.method == "POST":
        row = next(r for r in rows if r.match.pk == (saved or next(iter(posted))))
        if _wants_json(request):
            return JsonResponse(
                {
                    "saved": saved is not None,
                    "row": render_to_string(
                        "organiser/_desk_row.html", {**context, "row": row}, request=request
                    ),
                    "progress": render_to_string(
                        "organiser/_desk_progress.html", context, request=request
                    ),
                    # The round picker's "n to decide", counted again with this result in.
                    "rounds": render_to_string(
                        "organiser/_desk_rounds.html", context, request=request
                    ),
                },
                status=200,
            )
    return render(request, "organiser/desk.html", context)


def desk_check(request: HttpRequest, slug: str, match_id: int) -> JsonResponse:
    """The engine's verdict on a row as typed (``?m<id>-c1_A=30...``), stored nowhere:
    ``state`` ``empty``, ``incomplete`` (typed so far, not wrong), ``refused`` or ``ok``,
    and ``message``, the sentence in the reader's language (or the result in words). Only
    the championship's organisers: 404 for anyone else, logged in or not."""
    championship = championship_selectors.championship_for_organiser(user=request.user, slug=slug)
    match = result_selectors.match_of(championship=championship, match_id=match_id)
    if match.is_bye:
        raise Http404("No such match.")
    form = _form(match, request.GET)
    if not form.is_valid():
        codes = {error.code for error in form.errors.as_data().get("__all__", [])}
        if codes == {"score_empty"} and len(form.errors) == 1:
            return JsonResponse({"state": "empty", "message": ""})
        state = "incomplete" if codes <= INCOMPLETE and len(form.errors) == 1 else "refused"
        return JsonResponse({"state": state, "message": " ".join(_messages(form))})
    try:
        result = result_services.result_check(match=match, games=form.cleaned_data["games"])
    except ValidationError as error:
        state = "incomplete" if getattr(error, "code", "") in INCOMPLETE else "refused"
        return JsonResponse({"state": state, "message": " ".join(error.messages)})
    winner = records.side_names(match).get(result.winner, result.winner)
    message = _("%(result)s, won by %(team)s") % {
        "result": result_services.result_text(match, result),
        "team": winner,
    }
    return JsonResponse({"state": "ok", "message": message})
