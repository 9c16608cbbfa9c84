"""``manage.py export_archive SLUG [-o FILE] [--private]``: a championship as its open
archive (docs/archive.md): one JSON file, no personal data. ``--private`` makes the
organiser's, which also keeps what the sides wrote to him (their disputes' comments)."""

import json
from pathlib import Path

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.io.archive import archive_export
from tournaments.management.commands._common import TanteoCommand, championship


class Command(TanteoCommand):
    help = gettext_lazy(
        "Export a whole championship as its open archive: one JSON file (docs/archive.md)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument(
            "-o", "--output", type=Path, help=gettext_lazy("File to write (default: stdout).")
        )
        parser.add_argument(
            "--private",
            action="store_true",
            help=gettext_lazy(
                "The organiser's archive: keep what the teams wrote to him (their disputes'"
                " comments). Not for publishing."
            ),
        )

    def handle(self, *args: object, **options: object) -> None:
        archive = archive_export(championship(options["slug"]), private=bool(options["private"]))
        text = json.dumps(archive, ensure_ascii=False, indent=1) + "\n"
        output: Path | None = options["output"]
        if output is None:
            self.stdout.write(text, ending="")
            return
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as error:
            raise CommandError(
                _("Cannot write %(file)s: %(error)s") % {"file": output, "error": error.strerror}
            ) from None
