"""One match per bracket slot and one round per bracket label, within a stage.

Concurrent results could store a bracket slot (and its round) twice before these
constraints. Copies that nothing was recorded in are removed first, so the constraints
can be added; a slot played twice cannot be settled here (which result stands is the
organiser's call) and stops the migration, naming it.
"""

from django.db import migrations, models
from django.db.models import Count

_DECIDED = ("finished", "walkover")


def _drop_duplicates(apps, schema_editor):
    Round = apps.get_model("tournaments", "Round")
    Match = apps.get_model("tournaments", "Match")
    if schema_editor.connection.vendor == "postgresql":
        # Foreign keys are deferred: rows changed here would leave trigger events pending,
        # and PostgreSQL refuses to build an index on a table with pending events.
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")

    # Rounds sharing a label: their matches move to the first one, the others go.
    duplicated = (
        Round.objects.exclude(label="")
        .values("stage_id", "label")
        .annotate(n=Count("pk"))
        .filter(n__gt=1)
    )
    for row in duplicated:
        first, *others = Round.objects.filter(
            stage_id=row["stage_id"], label=row["label"]
        ).order_by("number")
        Match.objects.filter(round__in=others).update(round=first)
        Round.objects.filter(pk__in=[r.pk for r in others]).delete()

    # Matches sharing a slot: keep the one with results (else the first created), drop
    # the copies nobody played.
    duplicated = (
        Match.objects.exclude(bracket_id="")
        .values("stage_id", "bracket_id")
        .annotate(n=Count("pk"))
        .filter(n__gt=1)
    )
    unsettled = []
    for row in duplicated:
        copies = list(
            Match.objects.filter(stage_id=row["stage_id"], bracket_id=row["bracket_id"])
            .annotate(hand_count=Count("hands"))
            .order_by("pk")
        )
        played = [m for m in copies if m.status in _DECIDED or m.hand_count]
        if len(played) > 1:
            unsettled.append(f"stage {row['stage_id']} {row['bracket_id']}")
            continue
        keep = played[0] if played else copies[0]
        Match.objects.filter(pk__in=[m.pk for m in copies if m.pk != keep.pk]).delete()
    if unsettled:
        raise RuntimeError(
            "These bracket matches were stored and played twice; delete the copy whose"
            " result does not stand, then migrate again: " + ", ".join(unsettled)
        )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0002_championships_domain"),
    ]

    operations = [
        migrations.RunPython(_drop_duplicates, migrations.RunPython.noop, elidable=True),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.UniqueConstraint(
                condition=models.Q(("label", ""), _negated=True),
                fields=("stage", "label"),
                name="round_label_unique",
            ),
        ),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.UniqueConstraint(
                condition=models.Q(("bracket_id", ""), _negated=True),
                fields=("stage", "bracket_id"),
                name="match_bracket_slot_unique",
            ),
        ),
    ]
