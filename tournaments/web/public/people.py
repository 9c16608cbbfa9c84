"""Public pages of people and teams, and the schedule: a person across championships, a
team in one, and where everyone plays now (with "find my team or my name").

No login, no contact data: the pages read ``people.history``, which never give a
person's email, phone or licence number, and show each player as his person asked ("Ana
R."). Drafts are not public: a team of a draft answers 404, and so does a person whose
every team is in a draft; a person merged into another redirects to him. Cached and live
like the other public pages (``tournaments.live``; docs/architecture.md): a person's page
follows ``p.<id>`` (a result or a table of one of his matches) and ``people`` (teams,
line-ups, rounds, names), a team's page ``t.<id>`` and its championship's structure and
decided results, the schedule its championship (``c.<slug>``).
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string

from tournaments import live
from tournaments.championships.words import words
from tournaments.circuits import selectors as circuit_selectors
from tournaments.live import part, public_page
from tournaments.models import Championship, Match
from tournaments.people import history as people_history
from tournaments.people import selectors as people_selectors
from tournaments.ratings import selectors as rating_selectors
from tournaments.stages import selectors as stage_selectors
from tournaments.web.public.championships import _championship, match_parts
from tournaments.web.public.statistics import person_sections, team_section

# A search longer than any name is cut: every distinct query is a page in the cache.
QUERY_MAX = 60


@public_page(lambda person_id: live.person_page_topics(person_id))
def person(request: HttpRequest, person_id: int) -> HttpResponse:
    """A person: every public championship he played, with his team, partners,
    placement, record and matches, and his next match."""
    history = people_history.person_public(person_id=person_id)
    if history is None:
        kept = people_selectors.merged_into(person_id)
        if kept is not None:
            # A record merged into another: its links and bookmarks lead to the one kept.
            return redirect("tournaments:person", person_id=kept, permanent=True)
        raise Http404("No such person.")
    for stint in history.stints:
        stint.words = words(stint.championship)
    return render(
        request,
        "tournaments/person.html",
        {
            "history": history,
            "name": history.person.public_name,
            "person_statistics": person_sections(history.person),
            "ratings": rating_selectors.person_ratings(person_id=person_id),
            "circuits": circuit_selectors.person_circuit_lines(person=history.person),
        },
    )


@public_page(lambda slug, team_id: live.team_page_topics(slug, team_id))
def team(request: HttpRequest, slug: str, team_id: int) -> HttpResponse:
    """A team: its line-up (and who replaced whom), its standing, its next match, its
    matches and results."""
    found = _championship(slug)
    page = people_history.team_page(championship=found, team_id=team_id)
    if page is None:
        raise Http404("No such team.")
    return render(
        request,
        "tournaments/team.html",
        {
            "championship": found,
            "words": words(found),
            "page": page,
            "team_statistics": team_section(page.team, found),
        },
    )


@public_page(lambda slug: live.page_topics(slug=slug))
def schedule(request: HttpRequest, slug: str) -> HttpResponse:
    """Every match of the current rounds by time and table, and ``?q=`` a team's or a
    player's name, answered with the table(s) where it plays (a plain GET form).

    Every hand renews the page (its championship's topic); each match's row comes from
    the cache while its match and the championship's names are unchanged, so a day of 200
    tables draws one row again, not 200."""
    found = _championship(slug)
    rows = stage_selectors.schedule_rows(championship=found)
    query = request.GET.get("q", "").strip()[:QUERY_MAX]
    results = None
    if query:
        # Every distinct query is a page of its own: the names it looks in are folded once
        # per change of the championship's names and line-ups, not at every search.
        names = part(
            "schedule-names",
            found.pk,
            [live.structure_topic(slug)],
            lambda: stage_selectors.schedule_names(championship=found),
        )
        results = stage_selectors.schedule_search(
            championship=found, rows=rows, names=names, query=query
        )
        for result in results:
            _titled(result.matches)
    return render(
        request,
        "tournaments/schedule.html",
        {
            "championship": found,
            "words": words(found),
            "rows": _schedule_rows(found, [row.pk for row in rows]),
            # Every match decided: the championship's last round, not one being played.
            "playing": any(not row.decided for row in rows),
            "query": query,
            "results": results,
        },
    )


def _titled(matches: list[Match]) -> list[Match]:
    for shown in matches:
        shown.round_title = shown.round.name_in(shown.stage)
    return matches


def _schedule_rows(championship: Championship, ids: list[int]) -> list[str]:
    """Each match of ``ids`` as its row of the schedule, in order, kept as a round's rows
    are (``match_parts``)."""

    def render_rows(missing: list[int]) -> dict[int, str]:
        shown = stage_selectors.schedule(championship=championship, ids=missing)
        return {
            match.pk: render_to_string(
                "tournaments/_schedule_row.html", {"championship": championship, "match": match}
            )
            for match in _titled(shown)
        }

    return match_parts("schedule-row", championship, ids, render_rows)
