"""Names that link: a team to its page, a player to his person's page.

The one place the public pages write a team's or a player's name
(``{% team_link team championship %}``, ``{% player_link player %}``), so every list, table
and bracket links the same way and shows a player as his person asked ("Ana R.":
``Player.public_name``; read the players with ``select_related("person")``).
"""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from tournaments.models import Championship, Match, Player, Team

register = template.Library()


@register.filter
def facing(match: Match, team: Team) -> list[Team]:
    """Whom ``team`` faces in ``match``: its opponent, or a table of three's other two
    players (``{% for other in match|facing:team %}``)."""
    return match.others_of(team.pk)


@register.simple_tag
def team_link(team: Team | None, championship: Championship, css: str = "") -> SafeString | str:
    """The team's name, a link to its page in ``championship`` (the one the page shows:
    no query for it)."""
    if team is None:
        return ""
    url = reverse("tournaments:team", args=[championship.slug, team.pk])
    classes = f"team-link {css}".strip()
    return format_html('<a class="{}" href="{}">{}</a>', classes, url, team.name)


@register.simple_tag
def player_link(player: Player | None) -> SafeString | str:
    """The player's public name, a link to his person's page."""
    if player is None:
        return ""
    url = reverse("tournaments:person", args=[player.person_id])
    return format_html('<a class="person-link" href="{}">{}</a>', url, player.public_name)
