"""The lock every writer of a match's hands takes: its row, then its stored hands counted."""

from __future__ import annotations

from tournaments.models import Hand, Match


def lock_match(match: Match) -> int:
    """Lock ``match``'s row until the transaction ends and return how many hands it has.

    Two statements, not one: a count in the locking statement would be read from that
    statement's snapshot, taken before it waited for the lock, and miss the hand the
    writer it waited for has just committed. No ordering: the model's default one would
    join the round, and FOR UPDATE would lock that row too, making the referees of one
    round wait for each other. The row's ``recorded`` (hands or a result) is read by the
    same statement and set on ``match``: a result reported meanwhile refuses the hand.
    """
    locked = Match.objects.select_for_update().filter(pk=match.pk).order_by()
    recorded = locked.values_list("recorded", flat=True).first()
    if recorded is not None:
        match.recorded = recorded
    return Hand.objects.filter(match=match).count()
