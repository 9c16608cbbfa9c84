"""daphne, the live pages' socket server, with its access log's secrets hidden.

``python -m config.live_server`` takes daphne's own arguments (``--bind 0.0.0.0 --port
8001 --proxy-headers config.asgi:application``). daphne writes each request to its access
log (stdout by default) by itself, outside ``logging``: here its log writer names the
path with the token of a secret address hidden (``config.logs``).
"""

from __future__ import annotations

import datetime
from typing import Any

from daphne import access, cli

from config.logs import hide_secrets


class AccessLog(access.AccessLogGenerator):
    """daphne's access log, each request's path with its secrets hidden."""

    def write_entry(
        self,
        host: Any,
        date: datetime.datetime,
        request: str,
        status: Any = None,
        length: Any = None,
        ident: Any = None,
        user: Any = None,
    ) -> None:
        super().write_entry(host, date, hide_secrets(request), status, length, ident, user)


def main() -> None:
    """Run daphne's command line with :class:`AccessLog` as its access log writer."""
    # daphne's command line builds its access log from this name: the one seam it has.
    cli.AccessLogGenerator = AccessLog
    cli.CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
