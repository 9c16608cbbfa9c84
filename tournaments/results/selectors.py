"""Reads of matches and their hands, and who may write hands there and then."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet, prefetch_related_objects
from django.http import Http404
from django.utils.translation import gettext_lazy as _

from tournaments.championships.selectors import MEMBERS_IN_ORDER, can_manage, is_referee
from tournaments.errors import TournamentError
from tournaments.models import Championship, Hand, Match, Team


def match_detail(*, pk: int) -> Match:
    """A match with its teams and players, games, and hands (with who recorded them).

    In a few small queries rather than one join of nine tables: PostgreSQL spent some
    8 ms planning that join against 0.17 ms running it, on every view (bench/README.md,
    "Public pages"). The winners (of the match, of each game) are one of its two teams,
    taken from those already read, and each hand's game from the match's games.
    """
    match = Match.objects.select_related("stage__championship", "round").get(pk=pk)
    teams = Team.objects.prefetch_related(Prefetch("memberships", queryset=MEMBERS_IN_ORDER))
    prefetch_related_objects(
        [match],
        Prefetch("team_a", queryset=teams),
        Prefetch("team_b", queryset=teams),
        "group",
        "referee",
        "games",
        Prefetch("hands", queryset=Hand.objects.select_related("recorded_by")),
    )
    by_id = {team.pk: team for team in (match.team_a, match.team_b) if team is not None}
    if match.winner_id is not None:
        match.winner = by_id.get(match.winner_id) or match.winner
    games = {}
    for game in match.games.all():
        games[game.pk] = game
        if game.winner_id is not None:
            game.winner = by_id.get(game.winner_id) or game.winner
    for hand in match.hands.all():
        if hand.game_id is not None:
            hand.game = games.get(hand.game_id) or hand.game
    return match


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


def hand_write_problem(*, match: Match, user: Any | None) -> TournamentError | None:
    """Why hands of ``match`` may not be recorded, corrected or deleted by ``user`` now, or
    ``None`` when they may. The results services raise it; the tablet shows it beforehand.

    - Only while the championship is **running**: not in draft, nor while entries are open
      (registration: no match is played yet), nor once finished (the results are final;
      the organiser moves it back to running to fix one).
    - Only by a user who may referee (:func:`is_referee`: active and in the referees group,
      or a superuser) or who manages the championship (:func:`can_manage`). Which match a
      referee reaches is the pages' business (``referees.selectors.match_for_referee``: the
      ones assigned to him); this is the rule no page or API gets around.
    - ``user`` ``None`` is the system itself (demo data, commands): only the status applies.
    """
    championship = match.stage.championship
    if championship.status != Championship.Status.RUNNING:
        return TournamentError(
            _(
                "Hands can be recorded, corrected or deleted only while the championship is "
                "in play, and %(championship)s is “%(status)s”: nothing was saved."
            ),
            code="championship_not_running",
            params={
                "championship": championship.name,
                "status": Championship.Status(championship.status).label,
            },
        )
    if user is None or is_referee(user) or can_manage(user, championship):
        return None
    return TournamentError(
        _(
            "Your account may not referee (it is not among the referees, or it is disabled): "
            "nothing was saved. Ask the organiser of the championship."
        ),
        code="not_referee",
    )


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
