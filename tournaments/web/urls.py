"""The site's URLs outside ``/organiser/`` under one namespace (``tournaments:``): the
public's pages and the players' (their entry form and their team's personal link).

Both audiences keep their URL module in their own package; this module only joins them,
as ``config.urls`` mounts them at the site's root.
"""

from tournaments.web.players import urls as players
from tournaments.web.public import urls as public

app_name = "tournaments"

urlpatterns = [*public.urlpatterns, *players.urlpatterns]
