"""Circuits: championships grouped into a season or a series with one ranking.

Qualifiers feed a final (their first teams, and the best others by circuit points, are
entered in it automatically, pending the organiser's confirmation); every event's
placements score points per the circuit's table, the best N of each person and team
counting. Models: ``Circuit``, ``CircuitEvent``, ``CircuitQualification``.
"""
