"""``GET /api/v1/championships/{slug}/archive/``: the open archive of a public championship
(docs/archive.md), valid by its schema, without personal data; a draft is a 404."""

from __future__ import annotations

import scoring
from tests.api.conftest import V1, client_for
from tests.tournaments.conftest import play
from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.io.archive_checks import schema_check
from tournaments.models import Championship, Person
from tournaments.stages import services as stage_services


def test_a_public_championship_is_downloaded_whole_and_checks(
    organiser, django_assert_max_num_queries
):
    championship = ChampionshipFactory(slug="copa")
    championship.organisers.add(organiser)
    teams = [TeamFactory(championship=championship) for _ in range(2)]
    person = teams[0].memberships.first().player.person
    Person.objects.filter(pk=person.pk).update(
        email="ana@example.org", phone="600111222", licence="F-77"
    )
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    play(match, teams[0])
    with django_assert_max_num_queries(20):
        response = client_for().get(f"{V1}/championships/copa/archive/")
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="copa.tanteo.json"'
    archive = response.json()
    schema_check(archive)
    assert scoring.check_archive(archive)["agree"] is True
    assert archive["matches"][0]["winner"] in ("A", "B") and archive["matches"][0]["hands"]
    for secret in (b"ana@example.org", b"600111222", b"F-77"):
        assert secret not in response.content


def test_a_draft_has_no_archive_even_for_its_organiser(organiser):
    championship = ChampionshipFactory(slug="borrador", status=Championship.Status.DRAFT)
    championship.organisers.add(organiser)
    for client in (client_for(), client_for(organiser)):
        assert client.get(f"{V1}/championships/borrador/archive/").status_code == 404
    assert client_for().get(f"{V1}/championships/nadie/archive/").status_code == 404
