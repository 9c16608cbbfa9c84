"""Put every referee assigned to a championship's matches on its list of referees.

A referee now acts only where he is on the championship's list (the site-wide
``referees`` group no longer counts): on a site that assigned matches through the group,
those referees would otherwise be refused on matches they were given. Undoing it leaves
the lists as they are (the group's meaning is not coming back).
"""

from django.db import migrations


def list_assigned_referees(apps, schema_editor):
    Match = apps.get_model("tournaments", "Match")
    ChampionshipReferee = apps.get_model("tournaments", "ChampionshipReferee")
    pairs = (
        Match.objects.filter(referee__isnull=False)
        .values_list("stage__championship_id", "referee_id")
        .distinct()
    )
    ChampionshipReferee.objects.bulk_create(
        [ChampionshipReferee(championship_id=c, user_id=u) for c, u in pairs],
        ignore_conflicts=True,
    )


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0002_system_texts_in_the_readers_language")]

    operations = [migrations.RunPython(list_assigned_referees, migrations.RunPython.noop)]
