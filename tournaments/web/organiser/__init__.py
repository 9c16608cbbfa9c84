"""The organisers' pages, under ``/organiser/``: every page needs a login and rights over
its championship (or circuit).

Setting a championship up (``championships``: details, rules, teams, stages, rounds),
entries and the poster (``entries``), the teams' links (``links``), people (``people``),
circuits (``circuits``), a league's season (``league``), ratings' seeding (``ratings``),
the day of play (``day``: referees, line-ups, check-in), results and the audit log
(``results``), printed sheets and PDFs (``printing``). Their forms sit beside them
(``forms/``, ``results_forms``) and only shape input: the services decide.

May import: ``tournaments.web.shared`` and the domain packages below ``web``; never
``public`` nor ``players``.
"""
