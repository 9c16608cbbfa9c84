"""No log line of the site carries a live secret from an address.

Three addresses hold a secret in their path: a team's personal link
(``/c/<slug>/team/<token>/``), a referee's invitation (``/organiser/invitation/<token>/``)
and a team's check-in code (``/organiser/check-in/<token>/``). Whoever reads the token
acts for the team or opens the account, so a log line (an access log, Django's "Not
Found", "Forbidden" and CSRF warnings, a traceback) names the path with the token
replaced by ``[hidden]``. :func:`hide_secrets` is the one rule; the processes apply it:

- Django's loggers: :class:`HideSecrets`, a filter on every handler of ``LOGGING``
  (``config/settings.py``), which also routes ``django`` and ``django.server`` (runserver's
  requests) there instead of Django's own unfiltered handlers;
- gunicorn's access and error logs: ``config/gunicorn.py`` (``--config python:config.gunicorn``);
- daphne's access log: ``config/live_server.py`` (``python -m config.live_server``);
- the Celery worker's handlers (``config/celery.py`` adds the filter to those it makes);
- the console mail backend, the default: :class:`ConsoleEmailBackend` (a link mailed is
  printed hidden; the page that made it shows it).

A proxy in front writes its own access log: docs/configuration.md gives nginx's.
"""

from __future__ import annotations

import logging
import re
from typing import Any, TextIO

from django.core.mail.backends import console

HIDDEN = "[hidden]"

# Each secret path: what stands before the token (kept), then the token (a path segment).
# Case and an encoded slash do not matter to whoever reads the log, so not here either.
_SECRET = re.compile(
    r"(?P<before>/c/[^/\s\"?#]*/team(?:/|%2f)"
    r"|/organiser/(?:invitation|check-in)(?:/|%2f)"
    r"|/mails/stop(?:/|%2f))"
    r"(?P<token>[^/\s\"?#]+)",
    re.IGNORECASE,
)


def hide_secrets(text: str) -> str:
    """``text`` with the token of every secret path replaced by ``[hidden]``.

    >>> hide_secrets('"GET /c/copa/team/eyJsIjo1fQ:1uX:abc/ HTTP/1.1" 200')
    '"GET /c/copa/team/[hidden]/ HTTP/1.1" 200'
    >>> hide_secrets("Not Found: /organiser/invitation/k3y/extra")
    'Not Found: /organiser/invitation/[hidden]/extra'
    >>> hide_secrets("GET /c/copa/teams/7/")
    'GET /c/copa/teams/7/'
    """
    return _SECRET.sub(lambda m: m.group("before") + HIDDEN, text)


class HideSecrets(logging.Filter):
    """A handler's filter: the record's message, traceback and stack with every secret
    hidden (rewritten in place, so every handler after it gets it hidden too)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a malformed record: logging reports it as it would
            return True
        record.msg, record.args = hide_secrets(message), ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = hide_secrets(record.exc_text)
        if record.stack_info:
            record.stack_info = hide_secrets(record.stack_info)
        return True


def hide_in_handlers(logger: logging.Logger, **_kwargs: Any) -> None:
    """Add :class:`HideSecrets` to each of ``logger``'s handlers that lacks it (a receiver
    of Celery's ``after_setup_logger`` and ``after_setup_task_logger``)."""
    for handler in logger.handlers:
        if not any(isinstance(f, HideSecrets) for f in handler.filters):
            handler.addFilter(HideSecrets())


class _HidingStream:
    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        return self.stream.write(hide_secrets(text))

    def flush(self) -> None:
        self.stream.flush()


class ConsoleEmailBackend(console.EmailBackend):
    """Django's console backend (the default: no mail server needed), each message
    printed with its secret links hidden: the process's output is a log."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.stream = _HidingStream(self.stream)
