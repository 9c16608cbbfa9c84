"""``manage.py export SLUG standings|matches|hands|statistics [-o FILE]``: a CSV export
(docs/csv.md)."""

import os
import sys
from pathlib import Path

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.io.exports import EXPORTS, export_csv
from tournaments.management.commands._common import TanteoCommand, championship


class Command(TanteoCommand):
    help = gettext_lazy("Export standings, matches, hands or statistics as CSV (UTF-8 with a BOM).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("kind", choices=sorted(EXPORTS))
        parser.add_argument(
            "-o", "--output", type=Path, help=gettext_lazy("File to write (default: stdout).")
        )

    def handle(self, *args: object, **options: object) -> None:
        target = championship(options["slug"])
        chunks = export_csv(target, options["kind"])
        output: Path | None = options["output"]
        if output is None:
            try:
                for chunk in chunks:
                    self.stdout.write(chunk, ending="")
                self.stdout.flush()
            except BrokenPipeError:
                # The reader stopped reading (``| head``): stop as quietly as other
                # commands do, the export's query closed rather than left to the exit.
                close = getattr(chunks, "close", None)
                if close is not None:
                    close()
                if self.stdout._out is sys.stdout:
                    # The interpreter flushes stdout once more on its way out: not into
                    # the closed pipe.
                    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return
        try:
            with output.open("w", encoding="utf-8", newline="") as file:
                for chunk in chunks:
                    file.write(chunk)
        except OSError as error:
            raise CommandError(
                _("Cannot write %(file)s: %(error)s") % {"file": output, "error": error.strerror}
            ) from None
