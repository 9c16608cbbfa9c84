"""The players' pages: a team's players, with no account.

The entry form (``/c/<slug>/enter/``) and the team's own page behind its personal link
(``/c/<slug>/team/<token>/``): check in, see the next match and table, report the result
where no referee keeps the score (``reports``), answer a result, withdraw. Whoever holds
the link acts for the team: every act is checked by the entries' services under the
entry's lock and kept in the audit log; the pages are never cached and the token never
reaches a log line.

May import: ``tournaments.web.shared`` and the domain packages below ``web``; never
``public`` nor ``organiser``.
"""
