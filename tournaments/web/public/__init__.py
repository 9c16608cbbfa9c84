"""The public's pages: whoever opens the site, with no account.

A championship (detail, board, standings, bracket, rounds, a match hand by hand), a
person's and a team's pages and the schedule search, a league's fixtures (printable) and
calendar feeds, statistics, circuits and the ratings' leaderboards. Nothing private
reaches them (contacts, licences, what a team writes to the organiser): they read the
domain's public selectors only, and are cached and renewed live (``tournaments.live``).

May import: ``tournaments.web.shared`` and the domain packages below ``web``; never
``players`` nor ``organiser``.
"""
