"""Topics: what the public pages follow, each named by a short string.

A page depends on a few topics, which its URL alone names (:func:`page_topics`); a write
touches a few (:func:`changed_topics`).

Topics (``slug`` is the championship's, the pages' URLs carry it):

- ``site``: the list of championships (the home page); every page also depends on it,
  so that a championship renamed, re-slugged or deleted is never served from the cache.
- ``c.<slug>``: anything in the championship (its page, the board).
- ``cm.<slug>``: its structure: the championship, teams, stages, rounds, brackets.
- ``r.<slug>``: its decided results (the standings, each stage's current round): a
  hand that decides nothing leaves the pages that show only these alone.
- ``s.<stage id>``: the results of a stage (its rounds and bracket, every hand).
- ``m.<match id>``: one match (its page): its hands, result, teams and table.
- ``d.<match id>``: the hand in progress at its table (the tablet's draft, a tap at a
  time): its page renders only that part again, the rest comes from the cache.
"""

from __future__ import annotations

import hashlib
import re

SITE = "site"
# What a topic may look like: the consumer refuses anything else from a browser.
TOPIC = re.compile(r"^(site|(cm?|r)\.[-a-zA-Z0-9_]{1,100}|[smd]\.[0-9]{1,18})$")
MESSAGE_TYPE = "live.changed"


def championship_topic(slug: str) -> str:
    return f"c.{slug}"


def structure_topic(slug: str) -> str:
    return f"cm.{slug}"


def results_topic(slug: str) -> str:
    return f"r.{slug}"


def stage_topic(stage_id: int) -> str:
    return f"s.{stage_id}"


def match_topic(match_id: int) -> str:
    return f"m.{match_id}"


def draft_topic(match_id: int) -> str:
    return f"d.{match_id}"


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
    *, slug: str, what: str, stage_id: int | None = None, match_id: int | None = None
) -> list[str]:
    """The topics a change touches: the pages showing it depend on one of them, and no
    other page does.

    >>> changed_topics(slug="copa", what="hand", stage_id=3, match_id=12)
    ['c.copa', 's.3', 'm.12', 'd.12']
    >>> changed_topics(slug="copa", what="result", stage_id=3, match_id=12)
    ['c.copa', 'r.copa', 's.3', 'm.12']
    >>> changed_topics(slug="copa", what="draft", stage_id=3, match_id=12)
    ['c.copa', 'd.12']
    >>> changed_topics(slug="copa", what="round", stage_id=3)
    ['c.copa', 'cm.copa', 's.3']
    >>> changed_topics(slug="copa", what="championship")
    ['c.copa', 'cm.copa', 'site']
    """
    topics = [championship_topic(slug)]
    if what in ("championship", "team", "round"):
        # Names, teams, new rounds and bracket slots show on every page of the championship.
        topics.append(structure_topic(slug))
    if what == "championship":
        topics.append(SITE)
    if what == "result":
        # A match decided, undecided or given another winner: standings, current rounds.
        topics.append(results_topic(slug))
    # The hand in progress shows on its match's page (and the board), not in the standings.
    if stage_id is not None and what != "draft":
        topics.append(stage_topic(stage_id))
    if match_id is not None:
        topics.append(draft_topic(match_id) if what == "draft" else match_topic(match_id))
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
