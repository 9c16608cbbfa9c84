"""Entries by the players and each team's personal link.

An organiser opens entries (``EntryPolicy``); the public form enters a team, past the
capacity on a waiting list in arrival order; a withdrawal promotes the first waiting team.
Each team has a personal link (a signed token naming a ``TeamLink``, revocable) through
which its players check in, see their next match, confirm or dispute its result and
withdraw: exactly these acts, for that team, in that championship, each one in the audit
log (``TeamAct``).
"""
