"""Circuits: championships grouped into a season or a series with one ranking.

Qualifiers feed a final (their first teams, and the best others by circuit points, are
entered in it automatically, pending the organiser's confirmation); every event's
placements score points per the circuit's table, the best N of each person and team
counting. Models: ``Circuit``, ``CircuitEvent``, ``CircuitQualification``,
``CircuitPlacement``.

- ``placements``: a championship's places from its stages (brackets, standings, groups);
- ``ranking``: the ranking's sums and order, pure (no Django);
- ``selectors``: the circuits, their events and qualifications, the ranking, a person's
  lines;
- ``qualification``: each event's stored placements and the final's automatic entries
  (services, under the circuit's row lock);
- ``tasks``: the refresh queued when an event's results change (its receiver is
  connected in ``TournamentsConfig.ready``).

docs/tournaments.md, "Circuits", states the rules.
"""
