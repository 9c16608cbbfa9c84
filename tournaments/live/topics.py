"""Topics: what the public pages follow, each named by a short string.

A page depends on a few topics, which its URL alone names (:func:`page_topics`); a write
touches a few (:func:`changed_topics`).

Topics (``slug`` is the championship's, the pages' URLs carry it):

- ``site``: the list of championships (the home page); every page also depends on it,
  so that a championship renamed, re-slugged or deleted is never served from the cache.
- ``c.<slug>``: anything in the championship but a hand in progress (the board, the
  schedule, the statistics: none of them shows a tap at a table).
- ``cm.<slug>``: its structure: the championship, teams, stages, rounds, brackets.
- ``r.<slug>``: its decided results (the standings, each stage's current round): a
  hand that decides nothing leaves the pages that show only these alone.
- ``s.<stage id>``: the results of a stage (its rounds and bracket, every hand).
- ``m.<match id>``: one match (its page): its hands, result, teams and table.
- ``d.<match id>``: the hand in progress at its table (the tablet's draft, a tap at a
  time): its page renders only that part again, the rest comes from the cache.
- ``t.<team id>``: one team's matches (its page): their results, tables and times.
- ``p.<person id>``: one person's matches in every championship (his page).
- ``people``: every person's page, for what changes rarely and touches many of them at
  once (teams, line-ups, rounds, a championship's name or status).
- ``k.<circuit slug>``: a circuit (its pages, its ranking): a change of its rules, of an
  event's placements or of the final's qualified teams (``what="circuit"``, announced by
  ``tournaments.circuits`` once the placements are stored), which also touches the
  ``p.`` of the persons whose line of the ranking moved (a person's page shows his
  circuit rankings), or ``people`` for a change of its rules or events.
- ``ratings``: the ratings leaderboards. A match rated touches it and the pages of the
  match's players (``p.``); a replay of later matches or a rebuild touches ``people``.

A person's page spans championships its URL does not name: a match's result or table
touches ``t.`` and ``p.`` of its teams and players (``announce`` reads them, one query),
the structure of any championship touches ``people``.
"""

from __future__ import annotations

import hashlib
import re

SITE = "site"
PEOPLE = "people"
RATINGS = "ratings"
# What a topic may look like: the consumer refuses anything else from a browser.
TOPIC = re.compile(r"^(site|people|ratings|(cm?|r|k)\.[-a-zA-Z0-9_]{1,100}|[smdtp]\.[0-9]{1,18})$")
# The changes that touch the pages of a match's teams and players (``t.``, ``p.``).
MATCH_PEOPLE_CHANGES = ("result", "match", "ratings")
MESSAGE_TYPE = "live.changed"


def championship_topic(slug: str) -> str:
    return f"c.{slug}"


def structure_topic(slug: str) -> str:
    return f"cm.{slug}"


def results_topic(slug: str) -> str:
    return f"r.{slug}"


def circuit_topic(slug: str) -> str:
    return f"k.{slug}"


def stage_topic(stage_id: int) -> str:
    return f"s.{stage_id}"


def match_topic(match_id: int) -> str:
    return f"m.{match_id}"


def draft_topic(match_id: int) -> str:
    return f"d.{match_id}"


def team_topic(team_id: int) -> str:
    return f"t.{team_id}"


def person_topic(person_id: int) -> str:
    return f"p.{person_id}"


def team_page_topics(slug: str, team_id: int) -> list[str]:
    """What a team's page shows: its championship's names and decided results (its
    standing), and its own matches' tables and times.

    >>> team_page_topics("copa", 7)
    ['site', 'cm.copa', 'r.copa', 't.7']
    """
    return [SITE, structure_topic(slug), results_topic(slug), team_topic(team_id)]


def person_page_topics(person_id: int) -> list[str]:
    """What a person's page shows: his matches everywhere, and the names around them.

    >>> person_page_topics(5)
    ['site', 'people', 'p.5']
    """
    return [SITE, PEOPLE, person_topic(person_id)]


def stored_match_topics(slug: str, match_id: int) -> list[str]:
    """What a match page shows but its hand in progress (kept as one part between hands).

    >>> stored_match_topics("copa", 12)
    ['site', 'cm.copa', 'm.12']
    """
    return [SITE, structure_topic(slug), match_topic(match_id)]


def page_topics(
    *,
    slug: str | None = None,
    stage_id: int | None = None,
    match_id: int | None = None,
    decided_only: bool = False,
) -> list[str]:
    """The topics a public page depends on, from its URL's arguments alone.

    ``decided_only``: the page shows the championship's decided results and none of its
    hands (the standings, the championship's page), so a hand that decides nothing does
    not renew it.

    >>> page_topics()
    ['site']
    >>> page_topics(slug="copa")
    ['site', 'c.copa']
    >>> page_topics(slug="copa", decided_only=True)
    ['site', 'cm.copa', 'r.copa']
    >>> page_topics(slug="copa", stage_id=3)
    ['site', 'cm.copa', 's.3']
    >>> page_topics(slug="copa", match_id=12)
    ['site', 'cm.copa', 'm.12', 'd.12']
    """
    if slug is None:
        return [SITE]
    if decided_only:
        return [SITE, structure_topic(slug), results_topic(slug)]
    if stage_id is not None:
        return [SITE, structure_topic(slug), stage_topic(stage_id)]
    if match_id is not None:
        return [*stored_match_topics(slug, match_id), draft_topic(match_id)]
    return [SITE, championship_topic(slug)]


def changed_topics(
    *,
    slug: str,
    what: str,
    stage_id: int | None = None,
    match_id: int | None = None,
    persons: list[int] | None = None,
) -> list[str]:
    """The topics a change touches: the pages showing it depend on one of them, and no
    other page does.

    >>> changed_topics(slug="copa", what="hand", stage_id=3, match_id=12)
    ['c.copa', 's.3', 'm.12', 'd.12']
    >>> changed_topics(slug="copa", what="result", stage_id=3, match_id=12)
    ['c.copa', 'r.copa', 's.3', 'm.12']
    >>> changed_topics(slug="copa", what="draft", stage_id=3, match_id=12)
    ['d.12']
    >>> changed_topics(slug="copa", what="round", stage_id=3)
    ['c.copa', 'cm.copa', 'people', 's.3']
    >>> changed_topics(slug="copa", what="championship")
    ['c.copa', 'cm.copa', 'people', 'site']
    >>> changed_topics(slug="copa", what="ratings", match_id=12)
    ['ratings']
    >>> changed_topics(slug="", what="ratings")
    ['ratings', 'people']
    >>> changed_topics(slug="obert", what="circuit")
    ['k.obert', 'people']
    >>> changed_topics(slug="obert", what="circuit", persons=[4, 9])
    ['k.obert', 'p.4', 'p.9']
    """
    if what == "circuit":
        # The slug is the circuit's; its ranking shows on the pages of its people too:
        # those whose line moved when the refresh of its placements names them.
        if persons is not None:
            return [circuit_topic(slug), *(person_topic(pk) for pk in persons)]
        return [circuit_topic(slug), PEOPLE]
    if what == "ratings":
        # Ratings span championships: the leaderboards, and the pages of the match's
        # players (``announce`` adds them) or, for a replay or a rebuild, everyone's.
        return [RATINGS] if match_id is not None else [RATINGS, PEOPLE]
    if what == "draft":
        # A tap at a table shows on its match's page alone: the board reads the stored
        # hands' state, the statistics the stored hands, the schedule the match's status.
        # Touching the championship would render those again at every tap of every
        # table (tests/tournaments/test_page_cache.py renders them before and after one).
        return [] if match_id is None else [draft_topic(match_id)]
    topics = [championship_topic(slug)]
    if what in ("championship", "team", "round"):
        # Names, teams, new rounds and bracket slots show on every page of the championship,
        # and on the pages of its people (which no URL of the championship names).
        topics += [structure_topic(slug), PEOPLE]
    if what == "championship":
        topics.append(SITE)
    if what == "result":
        # A match decided, undecided or given another winner: standings, current rounds.
        topics.append(results_topic(slug))
    if stage_id is not None:
        topics.append(stage_topic(stage_id))
    if match_id is not None:
        topics.append(match_topic(match_id))
        if what == "hand":
            # A hand stored empties the hand in progress (``drafts.draft_hand_stored``):
            # one announcement, so its pages are rendered again once, not twice.
            topics.append(draft_topic(match_id))
    return topics


def group_name(topic: str) -> str:
    """The channel layer's group of a topic (group names are ASCII, under 100 characters).

    >>> group_name("m.12")
    'live.m.12'
    >>> len(group_name("cm." + "x" * 100))
    45
    """
    name = f"live.{topic}"
    if len(name) < 90:
        return name
    return "live.h." + hashlib.sha1(topic.encode()).hexdigest()[:38]
