"""Who may read and write what, through the API: the selectors' rules, in API terms.

A resource the user may not see is a 404 whatever he asked (a draft is never revealed);
one he may see but not change is a 403. The rules themselves live in
``tournaments.championships.selectors`` (``championships_visible``, ``can_manage``,
``may_referee``); nothing here re-decides them.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from rest_framework.exceptions import PermissionDenied

from api.teamlink import team_link
from tournaments.championships import selectors as championship_selectors
from tournaments.models import Championship, Match
from tournaments.results.selectors import team_scorer_problem
from tournaments.stages import selectors as stage_selectors


def championship(request: Any, slug: str) -> Championship:
    """A championship the user may read (public, or a draft he manages), else 404."""
    return championship_selectors.championship_visible(user=request.user, slug=slug)


def managed_championship(request: Any, slug: str) -> Championship:
    """A championship the user manages: 404 if he cannot even see it, else 403."""
    found = championship(request, slug)
    if not championship_selectors.can_manage(request.user, found):
        raise PermissionDenied()
    return found


def stage(request: Any, slug: str, stage_id: int) -> Any:
    return stage_selectors.stage_of(championship=championship(request, slug), stage_id=stage_id)


def match(request: Any, match_id: int) -> Match:
    """A match the user may read (its referee, or any reader of its championship), with
    its stage and championship, else 404.

    Fetched by its key with three tables, then checked: the same rule as a filter, with
    the nine tables joined before, took PostgreSQL milliseconds to plan on every tap,
    against well under one to run.
    """
    # No ordering: the model's joins the round and orders by the championship's fields.
    found = (
        Match.objects.select_related("stage__championship").filter(pk=match_id).order_by().first()
    )
    user = request.user
    if found is None or not (
        (user.is_authenticated and found.referee_id == user.pk)
        or championship_selectors.may_read(user, found.stage.championship)
    ):
        raise Http404("No such match.")
    return found


def managed_match(request: Any, match_id: int) -> Match:
    """A match of a championship the user manages: 404 if unseen, else 403."""
    found = match(request, match_id)
    if not championship_selectors.can_manage(request.user, found.stage.championship):
        raise PermissionDenied()
    return found


def refereed_match(request: Any, match_id: int) -> Match:
    """A match whose hands the user may record (its referee, organisers, staff)."""
    found = match(request, match_id)
    if not championship_selectors.may_referee(request.user, found):
        raise PermissionDenied()
    return found


def scored_match(request: Any, match_id: int) -> Match:
    """A match whose hands the caller may record: :func:`refereed_match` for a user; for a
    team through its link (``api.teamlink``), one of its own matches (404 for any other)
    in a stage where a player of the table keeps the score (else 403 with the sentence of
    ``results.selectors.team_scorer_problem``). The services check it again under the
    match's lock, with whether the championship is in play."""
    link = team_link(request)
    if link is None:
        return refereed_match(request, match_id)
    found = (
        Match.objects.select_related("stage__championship").filter(pk=match_id).order_by().first()
    )
    if found is None or found.side_of(link.team_id) is None:
        raise Http404("No such match.")
    problem = team_scorer_problem(match=found, team=link.team)
    if problem is not None and problem.code in ("referees_keep_score", "results_only"):
        raise PermissionDenied(detail=problem.text, code=problem.code)
    return found
