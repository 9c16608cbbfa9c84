"""A match's public page: the running score of the chico being played as the headline, the
hand in progress, each hand as a line of what happened, a chart of the chico's score; a
match recorded as its result says who reported it and each side's answer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string

from tournaments import live
from tournaments.championships.words import words
from tournaments.live import code_version, part, public_page
from tournaments.models import Championship, Match, Player, Team
from tournaments.results import headline, story
from tournaments.results import selectors as result_selectors
from tournaments.stages import fixtures as fixture_selectors
from tournaments.web.public.championships import _championship, _Stored

_NOW = "\x00now\x00"


@dataclass(frozen=True)
class _StoredMatch(_Stored):
    """The match page but for the hand in progress, as cached between two hands."""

    start: story.LiveStart | None


def _line_ups(match: Match) -> list[tuple[Team, list[Player]]]:
    """Who plays (played) each side: the line-up stored when play started, else the team
    as it is (a query more only for a player substituted out since)."""
    third = match.team_c if match.team_c_id is not None else None  # a table of three
    teams = [team for team in (match.team_a, match.team_b, third) if team is not None]
    known = {m.player.record_key: m.player for team in teams for m in team.memberships.all()}
    stored = match.lineup or {}
    missing = [k for side in ("A", "B", "C") for k in stored.get(side, ()) if k not in known]
    ids = [int(key[1:]) for key in missing if key[1:].isdigit()]
    if ids:
        for player in Player.objects.filter(pk__in=ids).select_related("person"):
            known[player.record_key] = player
    shown = []
    for side, team in zip("ABC", teams, strict=False):
        keys = stored.get(side) or [m.player.record_key for m in team.memberships.all()]
        shown.append((team, [known[key] for key in keys if key in known]))
    return shown


def _reported(match: Match) -> dict[str, Any] | None:
    """A match recorded as its result, as the public sees it: who reported it (a team, or
    the organiser's desk) and each side's answer (confirmed, disputed, waiting); never what
    a side wrote to the organiser."""
    if match.recorded != Match.Recorded.RESULT or not match.is_decided:
        return None
    names = {side: team.name for side, team in match.teams_by_side().items() if team}
    answers = result_selectors.match_confirmations(match=match)
    return {
        "by": names.get(match.reported_side, "") if match.reported_side else "",
        "at": match.reported_at,
        "sides": [
            {"team": names.get(side, side), "status": getattr(answers.get(side), "status", "")}
            for side in match.teams_by_side()
        ],
    }


def _stored_match(championship: Championship, match_id: int) -> _StoredMatch:
    try:
        shown = result_selectors.match_detail(pk=match_id)
    except Match.DoesNotExist:
        raise Http404("No such match.") from None
    if shown.stage.championship_id != championship.pk:
        raise Http404("No such match.")
    shown.stage.championship = championship
    hands = list(shown.hands.all())
    running = headline.running(shown, len(hands))
    games = list(shown.games.all())
    chart_game = running.game if running is not None else (games[-1].number if games else 0)
    body = render_to_string(
        "tournaments/_match_body.html",
        {
            "championship": championship,
            "match": shown,
            "round_name": shown.round.name_in(shown.stage),
            "words": words(championship),
            "games": games,
            "headline": running,
            "hand_lines": story.hand_lines(shown, hands, version=code_version()),
            "chart": headline.chart(shown, hands, chart_game),
            "now": _NOW,
            "line_ups": _line_ups(shown),
            "postponement": fixture_selectors.last_postponement(match=shown),
            "reported": _reported(shown),
        },
    )
    head, tail = _Stored.around(body, _NOW)
    return _StoredMatch(
        championship_id=championship.pk,
        title=f"{shown} · {championship.name}",
        head=head,
        tail=tail,
        start=story.live_start(shown, len(hands)),
    )


@public_page(lambda slug, match_id: live.page_topics(slug=slug, match_id=match_id))
def match(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """A match people understand: the running score of the chico being played as the
    headline (malas/buenas or mestre, who is mano, chicos won), the hand in progress, each
    hand as a line of what happened, and a chart of the chico's score.

    All but the hand in progress is kept between two hands (``pagecache.part``): a tap at
    the table renders that section alone."""
    found = _championship(slug)
    topics = live.stored_match_topics(slug, match_id)
    stored = part("match", match_id, topics, lambda: _stored_match(found, match_id))
    if stored.championship_id != found.pk:  # a slug given to another championship since
        raise Http404("No such match.")
    now = ""
    if stored.start is not None:
        draft = result_selectors.draft_record(match_id=match_id, number=stored.start.number)
        now = render_to_string(
            "tournaments/_match_now.html",
            {"in_progress": story.live_hand(stored.start, draft), "number": stored.start.number},
        )
    return stored.page(request, now)
