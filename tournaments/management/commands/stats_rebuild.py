"""``manage.py stats_rebuild [SLUG]``: the statistics of every stored hand again."""

from django.core.management.base import CommandParser
from django.utils.translation import gettext_lazy, ngettext

from tournaments.management.commands._common import TanteoCommand, championship
from tournaments.results import services as result_services


class Command(TanteoCommand):
    help = gettext_lazy(
        "Compute the statistics of every stored hand again from the engine's results (of "
        "one championship, or of all)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", nargs="?", help=gettext_lazy("Only this championship."))

    def handle(self, *args: object, **options: object) -> None:
        target = championship(options["slug"]) if options["slug"] else None
        rebuilt, refused = result_services.hand_statistics_rebuild(championship=target)
        self.stdout.write(
            ngettext(
                "Statistics of %(count)d match computed.",
                "Statistics of %(count)d matches computed.",
                rebuilt,
            )
            % {"count": rebuilt}
        )
        if refused:
            self.stderr.write(
                ngettext(
                    "%(count)d match left out: the engine refuses its hands.",
                    "%(count)d matches left out: the engine refuses their hands.",
                    refused,
                )
                % {"count": refused}
            )
