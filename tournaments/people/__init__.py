"""People: one record for every human who plays, across championships.

A line-up's :class:`~tournaments.models.Player` (the name the hand records use) points at
its :class:`~tournaments.models.Person`. Every way a team comes in (the organiser's form,
the CSV import, the entry form, the API) finds or creates its people here
(``services.players_create``): an exact licence number is the same person at once; a
likely match by name and club is only offered to the organiser (``selectors``), who merges
two records himself (``services.person_merge``): nothing is merged silently. Contact data
(email, phone) never leaves the organiser's pages.
"""
