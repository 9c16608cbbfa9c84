"""``manage.py import_archive FILE [--slug S] [--accept-disagreements] [--organiser U]``:
an open archive (docs/archive.md) imported as a new championship, or refused with the
JSON path of its first problem and a short sentence, nothing created. It says how many
of its people may be people already on record: offered to the organisers named, never
merged (``tournaments.io.archive_people``)."""

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments.io.archive_checks import ArchiveError, archive_load
from tournaments.io.archive_import import archive_import
from tournaments.io.archive_limits import MAX_BYTES
from tournaments.management.commands._common import TanteoCommand


class Command(TanteoCommand):
    help = gettext_lazy(
        "Import a championship's open archive as a new championship (docs/archive.md)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument(
            "--slug",
            help=gettext_lazy("Short name of the new championship (default: the archive's)."),
        )
        parser.add_argument(
            "--accept-disagreements",
            action="store_true",
            help=gettext_lazy(
                "Import hands whose stored result the engine does not give: the engine's"
                " result is kept and the difference recorded in the match's history."
            ),
        )
        parser.add_argument(
            "--organiser",
            action="append",
            default=[],
            help=gettext_lazy("Username of an organiser of the new championship (repeatable)."),
        )

    def handle(self, *args: object, **options: object) -> None:
        path: Path = options["file"]
        users = get_user_model()
        organisers = []
        for username in options["organiser"]:
            user = users.objects.filter(username=username).first()
            if user is None:
                raise CommandError(_("There is no user “%(name)s”.") % {"name": username})
            organisers.append(user)
        try:
            # Read no further than the limit: a larger file is refused whatever its size.
            with path.open("rb") as file:
                data = file.read(MAX_BYTES + 1)
        except OSError as error:
            raise CommandError(
                _("Cannot read %(file)s: %(error)s") % {"file": path, "error": error.strerror}
            ) from None
        try:
            done = archive_import(
                archive=archive_load(data),
                slug=options["slug"],
                accept_disagreements=options["accept_disagreements"],
                organisers=organisers,
            )
        except ArchiveError as error:
            raise CommandError(
                _("Archive refused: %(problem)s") % {"problem": error.text}
            ) from None
        championship = done.championship
        self.stdout.write(
            _("Imported: %(name)s (%(slug)s).")
            % {"name": championship.name, "slug": championship.slug}
        )
        if done.disagreements:
            count = len(done.disagreements)
            self.stdout.write(
                ngettext(
                    "%(count)s result differed from the engine's: the engine's is kept,"
                    " marked in its match's history.",
                    "%(count)s results differed from the engine's: the engine's are kept,"
                    " each marked in its match's history.",
                    count,
                )
                % {"count": count}
            )
        self._likely(len(done.likely), organisers=bool(organisers))

    def _likely(self, count: int, *, organisers: bool) -> None:
        """How many imported people may be people already known (numbers only: the
        command's output names nobody's record)."""
        if not organisers:
            self.stdout.write(
                _(
                    "No organiser named: its people's likely matches among the people"
                    " already on record are for the staff who manage every championship to"
                    " find on their People page; nothing was merged."
                )
            )
        elif count:
            self.stdout.write(
                ngettext(
                    "%(count)s person may be someone already on record: offered to the"
                    " organisers on their People page, nothing merged.",
                    "%(count)s people may be people already on record: offered to the"
                    " organisers on their People page, nothing merged.",
                    count,
                )
                % {"count": count}
            )
        else:
            self.stdout.write(_("Nobody of the archive looks like a person already on record."))
