"""Reads of the notices, for the organiser: what was told, to whom, when, and whether it
went (queued, sent, failed, not sent). Never the address it went to."""

from __future__ import annotations

from collections import Counter

from django.db.models import QuerySet

from tournaments.models import Championship, Notice, Round

# The organiser's list shows the latest notices: a day of 400 teams called 8 times is
# more than a page needs.
SHOWN = 400


def _listed(notices: QuerySet[Notice]) -> list[Notice]:
    return list(
        notices.select_related("match__round", "match__team_a", "match__team_b", "by").order_by(
            "-pk"
        )[:SHOWN]
    )


def round_notices(*, round_: Round) -> list[Notice]:
    """The latest notices about the matches of ``round_``, newest first."""
    return _listed(Notice.objects.filter(match__round=round_))


def championship_notices(*, championship: Championship) -> list[Notice]:
    """The latest notices of ``championship``, newest first."""
    return _listed(Notice.objects.filter(championship=championship))


def notices_of(*, championship: Championship) -> QuerySet[Notice]:
    """Every notice of ``championship``, newest first, with its match's round and stage
    (the API's list, which pages and filters them)."""
    return (
        Notice.objects.filter(championship=championship)
        .select_related("team", "match__round")
        .order_by("-pk")
    )


def states_told(notices: list[Notice]) -> list[tuple[str, int]]:
    """How many of ``notices`` are in each state, as (label, count), in the states' order."""
    counts = Counter(notice.state for notice in notices)
    return [(label, counts[value]) for value, label in Notice.State.choices if counts[value]]
