"""What the management commands share: a base class and the championship look-up."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from tournaments.models import Championship


class TanteoCommand(BaseCommand):
    """A command whose help texts may be lazy translations.

    argparse formats help with regular expressions that need real strings, so a lazy
    ``help`` crashed ``--help``; the texts are resolved once the parser is built, in the
    language active when the command runs.
    """

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        self.help = str(self.help)
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        for action in parser._actions:
            if action.help is not None:
                action.help = str(action.help)
        return parser


def championship(slug: str) -> Championship:
    found = Championship.objects.filter(slug=slug).first()
    if found is None:
        raise CommandError(_("There is no championship “%(slug)s”.") % {"slug": slug})
    return found
