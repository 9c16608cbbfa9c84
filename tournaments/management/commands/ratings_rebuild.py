"""``manage.py ratings_rebuild [--family F]``: rate every match again from the stored results."""

from django.core.management.base import CommandParser
from django.utils.translation import gettext_lazy, ngettext

from tournaments.management.commands._common import TanteoCommand
from tournaments.models import RatingFamily
from tournaments.ratings import services as rating_services


class Command(TanteoCommand):
    help = gettext_lazy(
        "Rate every decided match again, in order, from the stored results (deterministic)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--family",
            choices=RatingFamily.values,
            help=gettext_lazy("Only this rules family (argentine or catalan)."),
        )

    def handle(self, *args: object, **options: object) -> None:
        rated = rating_services.ratings_rebuild(family=options["family"])
        labels = dict(RatingFamily.choices)
        for family, count in rated.items():
            self.stdout.write(
                ngettext(
                    "%(family)s: %(count)d match rated.",
                    "%(family)s: %(count)d matches rated.",
                    count,
                )
                % {"family": labels[family], "count": count}
            )
