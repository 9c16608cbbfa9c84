"""Shared look-ups of the management commands."""

from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from tournaments.models import Championship


def championship(slug: str) -> Championship:
    found = Championship.objects.filter(slug=slug).first()
    if found is None:
        raise CommandError(_("There is no championship “%(slug)s”.") % {"slug": slug})
    return found
