"""Reads of matches and their hands."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet
from django.http import Http404

from tournaments.models import Championship, Hand, Match, Membership

_MEMBERS = Membership.objects.select_related("player").order_by("order")


def match_detail(*, pk: int) -> Match:
    """A match with its teams and players, games, and hands (with who recorded them)."""
    return (
        Match.objects.select_related(
            "stage__championship", "round", "group", "team_a", "team_b", "winner", "referee"
        )
        .prefetch_related(
            Prefetch("team_a__memberships", queryset=_MEMBERS),
            Prefetch("team_b__memberships", queryset=_MEMBERS),
            "games__winner",
            Prefetch("hands", queryset=Hand.objects.select_related("recorded_by", "game")),
        )
        .get(pk=pk)
    )


def match_of(*, championship: Championship, match_id: int) -> Match:
    """A match of ``championship`` with its teams and stage, else ``Http404``."""
    match = (
        Match.objects.select_related("stage", "round", "team_a", "team_b", "winner")
        .filter(stage__championship=championship, pk=match_id)
        .first()
    )
    if match is None:
        raise Http404("No such match.")
    match.stage.championship = championship
    return match


def championship_matches(*, championship: Championship) -> QuerySet[Match]:
    """Every match of a championship, in stage and round order, with teams and referee."""
    return (
        Match.objects.filter(stage__championship=championship)
        .select_related("round", "group", "team_a", "team_b", "referee")
        .order_by("stage__order", "round__number", "pk")
    )


def match_hands(*, match: Match) -> QuerySet[Hand]:
    """The hands of a match in order, with who recorded them and their game."""
    return match.hands.select_related("recorded_by", "game").order_by("number")
