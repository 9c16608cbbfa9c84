"""Reads of championships for the public pages and the API."""

from django.db.models import QuerySet

from tournaments.models import Championship


def championship_list_public() -> QuerySet[Championship]:
    """Championships the public may see: every one that is no longer a draft."""
    return Championship.objects.exclude(status=Championship.Status.DRAFT)
