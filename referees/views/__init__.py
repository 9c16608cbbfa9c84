"""The referee's pages: my matches, the match sheet with the hand entry, undo, the sides'
confirmation, and the offline tablet's files.

Every view needs a login and finds its match through ``selectors.match_for_referee`` (the
match's referee, whoever manages its championship; 404 for anyone else). The hand
being entered travels with the page (``referees.entry``) and, after every step, is kept
on the server as the match's draft (``tournaments.results.drafts``): reopening the sheet
on any device resumes it. The device is told apart by a cookie (``tanteo_device``); one
device holds a match, another must take it over. Hand writes go through
``referees.services`` to ``tournaments.results.services``. One module per page family:
``matches`` (the lists), ``sheet`` (the match sheet), ``seats`` (seats, undo),
``team`` (the same sheet on a player's phone, through his team's link), ``context`` (what the
sheet gives its script), ``confirmation``, ``correction`` (a recorded hand corrected with
the sheet's buttons), ``files`` (the tablet's code).
"""

from __future__ import annotations

from referees.views.confirmation import (
    confirm,
)
from referees.views.correction import hand_editor
from referees.views.device import DEVICE_COOKIE, DEVICE_COOKIE_AGE
from referees.views.files import (
    WORKER_POLICY,
    engine,
    manifest,
    service_worker,
    worker,
)
from referees.views.matches import (
    my_matches,
    organised_matches,
)
from referees.views.seats import seats, undo
from referees.views.sheet import sheet
from referees.views.team import team_seats, team_sheet, team_undo

__all__ = [
    "DEVICE_COOKIE",
    "DEVICE_COOKIE_AGE",
    "WORKER_POLICY",
    "confirm",
    "engine",
    "hand_editor",
    "manifest",
    "my_matches",
    "organised_matches",
    "seats",
    "service_worker",
    "sheet",
    "team_seats",
    "team_sheet",
    "team_undo",
    "undo",
    "worker",
]
