"""People: one record for every human who plays, across championships.

A line-up's :class:`~tournaments.models.Player` (the name the hand records use) points at
its :class:`~tournaments.models.Person`. Every way a team comes in (the organiser's form,
the CSV import, the entry form, the API) finds or creates its people here
(``services.players_create``, told who typed them). A licence number typed is a claim:
it joins its holder at once only in an organiser's own act on a person he already sees;
typed by the public, or naming someone of another organiser's championships, it makes a
new person and at most a merge request that the organisers of both answer. Likely
matches by name and club are only offered to the organiser (``selectors``); two records
are merged (``services.person_merge``, ``person_merge_agree``) only with the agreement of
every championship of both: nothing is merged silently. Contact data (email, phone) and
licence numbers never leave the pages of the organisers who may see the person.
"""
