"""``manage.py generate_round SLUG [--stage N]``: generate the next round of a stage."""

from django.core.exceptions import ValidationError
from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments.management.commands._common import TanteoCommand, championship
from tournaments.stages import registry
from tournaments.stages import services as stage_services


class Command(TanteoCommand):
    help = gettext_lazy(
        "Generate the next round of a stage (by default the championship's last stage)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--stage", type=int, help=gettext_lazy("The stage's order number."))

    def handle(self, *args: object, **options: object) -> None:
        target = championship(options["slug"])
        stages = target.stages.order_by("order")
        stage = (
            stages.filter(order=options["stage"]).first()
            if options["stage"] is not None
            else stages.last()
        )
        if stage is None:
            raise CommandError(_("This championship has no such stage."))
        try:
            created = stage_services.round_generate(stage=stage)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None
        self.stdout.write(
            ngettext(
                "%(count)d match generated in %(stage)s.",
                "%(count)d matches generated in %(stage)s.",
                len(created),
            )
            % {"count": len(created), "stage": registry.stage_name(stage)}
        )
        for match in created:
            self.stdout.write(f"  {match.round}: {match}")
