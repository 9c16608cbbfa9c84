"""The site's pages, one package per audience.

- ``public``: everyone, with no account: the championships, their standings, brackets,
  rounds and matches, people and teams, fixtures and calendar feeds, statistics,
  circuits and the ratings. Cached and live (``tournaments.live``).
- ``players``: a team's players, with no account: the entry form and the team's own page
  behind its personal link (check-in, its next match, its result answered).
- ``organiser``: the organisers, logged in: setting a championship up, its teams, stages
  and rounds, entries, people, circuits and leagues, the day of play, results, printing.
- ``shared``: what more than one audience's pages use (a form's service errors, a side's
  answer, a link shown once, a team's link as a URL); it holds no view.

The referee's tablet is the ``referees`` app. An audience never imports another's
modules: each imports ``shared`` and the domain packages below ``web`` (an import-linter
contract in pyproject.toml). ``urls`` joins the public's and the players' URLs under the
``tournaments:`` namespace; the organiser's are ``organiser/urls.py`` (``organiser:``).
"""
