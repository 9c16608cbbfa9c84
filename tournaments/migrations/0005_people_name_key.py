"""People: a stored name key (no case, accents or extra spaces) for the likely matches."""

import unicodedata

from django.db import migrations, models


def _key(text):
    # tournaments.models.name_key, copied so the migration never imports it.
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())


def fill_keys(apps, schema_editor):
    Person = apps.get_model("tournaments", "Person")
    people = list(Person.objects.only("pk", "name"))
    for person in people:
        person.name_key = _key(person.name)
    Person.objects.bulk_update(people, ["name_key"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0004_people_entries_links"),
    ]

    operations = [
        migrations.AddField(
            model_name="person",
            name="name_key",
            field=models.CharField(
                default="", editable=False, max_length=200, verbose_name="name key"
            ),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="person",
            index=models.Index(fields=["name_key"], name="person_name_key"),
        ),
    ]
