"""Telling the players (docs/tournaments.md, "Telling the players").

The promise: a team that gave an address at entry is told, in the language it entered
in, what concerns it (its entry accepted, refused or moved up from the waiting list; the
check-in window open; the other team's reported result waiting for its answer; a result
settled by the organiser; its league match moved or postponed; its next match drawn, or
its bye; its match ready when the organiser calls the round; its place in its circuit's
final; the organiser's messages), once per thing within a minute
however many ask at once. The act that tells is never failed nor held up by the mail:
notices are queued in its transaction and sent by Celery once it commits (``tasks``).
Each notice is kept (``Notice``: what, to whom, when, its state), without the address or
the team's link. The phones its players allowed (Web Push, through the team's link) are
told too, each what it chose, while the link lives.

Callers use ``services`` (writes), ``selectors`` (reads), ``stops`` (the one-click
unsubscribe's token) and ``push`` (the phones' subscriptions); ``texts`` says what each
kind says, ``delivery`` sends the mail and ``webpush`` the pushes.
"""
