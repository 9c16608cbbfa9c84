"""``manage.py import_teams SLUG FILE.csv``: import teams from a CSV file (docs/csv.md)."""

from pathlib import Path

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments.io.imports import ImportRowsError, teams_import
from tournaments.management.commands._common import TanteoCommand, championship


class Command(TanteoCommand):
    help = gettext_lazy("Import teams from a CSV file: all of them, or none if a row is bad.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("file", type=Path)

    def handle(self, *args: object, **options: object) -> None:
        target = championship(options["slug"])
        path: Path = options["file"]
        try:
            # The open file, not its bytes: the import reads no further than its size limit.
            file = path.open("rb")
        except OSError as error:
            raise CommandError(
                _("Cannot read %(file)s: %(error)s") % {"file": path, "error": error.strerror}
            ) from None
        try:
            with file:
                created = teams_import(championship=target, file=file)
        except ImportRowsError as error:
            for row in error.rows:
                self.stderr.write(
                    _("Row %(row)s, column %(column)s: %(message)s")
                    % {"row": row.row, "column": row.column or "-", "message": row.message}
                )
            raise CommandError(_("Nothing was imported.")) from None
        self.stdout.write(
            ngettext("%(count)d team imported.", "%(count)d teams imported.", len(created))
            % {"count": len(created)}
        )
