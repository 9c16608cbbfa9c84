# A rating change's place: a table of three ranks three sides, which won/lost cannot tell.

from django.db import migrations, models


def places_from_won(apps, schema_editor):
    # The changes rated so far are all of two-sided matches: 1 won, 2 lost (the column
    # was added with 2).
    RatingChange = apps.get_model("tournaments", "RatingChange")
    RatingChange.objects.filter(won=True).update(place=1)


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0012_gallo"),
    ]

    operations = [
        migrations.AddField(
            model_name="ratingchange",
            name="place",
            field=models.PositiveSmallIntegerField(default=2, verbose_name="place"),
            preserve_default=False,
        ),
        migrations.RunPython(places_from_won, migrations.RunPython.noop),
    ]
