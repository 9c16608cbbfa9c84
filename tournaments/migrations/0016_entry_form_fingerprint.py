# An entry keeps who sent its form and what (a keyed hash): its one-time key replays the
# first answer to that sending alone. Entries made before keep none: their key replays
# nothing.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0015_no_referee_at_the_table"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="form_fingerprint",
            field=models.CharField(
                blank=True, editable=False, max_length=64, verbose_name="form fingerprint"
            ),
        ),
    ]
