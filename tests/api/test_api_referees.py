"""A championship's list of referees through the API, and the assignments it allows.

Only the users on a championship's list referee its matches (docs/api.md, "Permissions"):
an organiser puts them there (``championships/{slug}/referees/``), then assigns them.
"""

from __future__ import annotations

from tests.api.conftest import V1, client_for
from tests.tournaments.factories import (
    ChampionshipFactory,
    RefereeFactory,
    TeamFactory,
    UserFactory,
)
from tournaments.models import Championship
from tournaments.stages import services as stage_services


def test_the_organiser_lists_adds_and_removes_the_championships_referees(organiser):
    championship = ChampionshipFactory(slug="copa", status=Championship.Status.RUNNING)
    championship.organisers.add(organiser)
    for seed in (1, 2):
        TeamFactory(championship=championship, seed=seed)
    (match,) = stage_services.round_generate(
        stage=stage_services.stage_create(championship=championship, format="round_robin")
    )
    elsewhere = RefereeFactory(
        username="ana", first_name="Ana", last_name="Gil", championships=[ChampionshipFactory()]
    )
    api = client_for(organiser)
    base = f"{V1}/championships/copa/referees/"
    assert api.get(base).json()["results"] == []

    # A referee of another championship is not one of this one's: refused, then listed.
    refused = api.patch(f"{V1}/matches/{match.pk}/", {"referee": "ana"}, format="json")
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "not_championship_referee"
    added = api.post(base, {"username": "ana"}, format="json")
    assert added.status_code == 201, added.content
    assert added.json() == {
        "username": "ana",
        "name": "Ana Gil",
        "added_at": added.json()["added_at"],
        "open_matches": 0,
    }
    assigned = api.patch(f"{V1}/matches/{match.pk}/", {"referee": "ana"}, format="json")
    assert assigned.status_code == 200, assigned.content
    assert [r["open_matches"] for r in api.get(base).json()["results"]] == [1]

    unknown = api.post(base, {"username": "nadie"}, format="json")
    assert (unknown.status_code, list(unknown.json()["error"]["fields"])) == (400, ["username"])
    gone = UserFactory(username="baja", is_active=False)
    inactive = api.post(base, {"username": gone.username}, format="json")
    assert inactive.json()["error"]["code"] == "user_inactive"

    # Taken off the list, he loses his undecided match.
    assert api.delete(f"{base}ana/").status_code == 204
    assert api.delete(f"{base}ana/").status_code == 404
    match.refresh_from_db()
    assert match.referee is None
    assert elsewhere.referee_entries.count() == 1  # his other championship keeps him


def test_only_who_manages_the_championship_reads_its_referees(organiser):
    championship = ChampionshipFactory(slug="copa")
    referee = RefereeFactory(championships=[championship])
    base = f"{V1}/championships/copa/referees/"
    assert client_for().get(base).status_code == 401
    assert client_for(referee).get(base).status_code == 403
    assert client_for(UserFactory()).get(base).status_code == 403
