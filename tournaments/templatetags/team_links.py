"""Panels of the teams' personal links on the organiser's pages that belong to others:
the self check-in window on a stage's check-in page, the link's state on a team's page
(``{% load team_links %}``). Each reads through ``entries``; the forms post to
``web.links_organiser``."""

from __future__ import annotations

import datetime
from typing import Any

from django import template
from django.utils import timezone

from tournaments.entries import acts, link_selectors
from tournaments.models import Championship, Stage, Team

register = template.Library()


@register.inclusion_tag("organiser/_self_check_in.html", takes_context=True)
def self_check_in_panel(
    context: template.Context, championship: Championship, stage: Stage
) -> dict[str, Any]:
    """The window in which teams check in through their links, with its open and close
    forms; the time field starts at the window's end, or an hour from now."""
    open_ = acts.self_check_in_open(championship)
    until = championship.self_check_in_until if open_ else None
    start = until or timezone.now() + datetime.timedelta(hours=1)
    return {
        "request": context.get("request"),
        "csrf_token": context.get("csrf_token"),
        "championship": championship,
        "stage": stage,
        "open": open_,
        "until_value": timezone.localtime(start, championship.zone).strftime("%Y-%m-%dT%H:%M"),
    }


@register.inclusion_tag("organiser/_team_link_panel.html", takes_context=True)
def team_link_panel(
    context: template.Context, championship: Championship, team: Team
) -> dict[str, Any]:
    """Whether the team has a live personal link, with "Issue" and "Revoke"."""
    return {
        "request": context.get("request"),
        "csrf_token": context.get("csrf_token"),
        "championship": championship,
        "team": team,
        "live": link_selectors.live_link(team=team),
    }
