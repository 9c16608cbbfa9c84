"""Who may write what through the API: the site's rules, on every write.

Organisers of the championship and staff write its data; the match's referee (and they)
record its hands; anyone else reads what is public. Anonymous writes are 401; a user who
may see the resource but not change it gets 403; one who may not even see it (a draft)
gets 404, never a hint that it exists.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.api.conftest import V1, client_for
from tests.tournaments.conftest import chico_hand
from tests.tournaments.factories import (
    ChampionshipFactory,
    RefereeFactory,
    StaffFactory,
    TeamFactory,
    UserFactory,
)
from tournaments.models import Championship, Match
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services

ACTORS = [
    "anonymous",
    "plain_user",
    "referee_not_assigned",
    "referee_assigned",
    "organiser_of_another",
    "organiser",
    "staff",
]
MANAGERS = {"organiser", "staff"}
REFEREES = MANAGERS | {"referee_assigned"}


@dataclass
class World:
    championship: Championship
    match: Match
    spare_team: int
    users: dict[str, Any]

    @property
    def base(self) -> str:
        return f"{V1}/championships/{self.championship.slug}"


def build(status: str = Championship.Status.REGISTRATION) -> World:
    # Its round generated with entries open (a draft generates none), then put in ``status``.
    championship = ChampionshipFactory(status=Championship.Status.REGISTRATION)
    teams = [TeamFactory(championship=championship, seed=n) for n in range(1, 5)]
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    match = stage_services.round_generate(stage=stage)[0]
    Championship.objects.filter(pk=championship.pk).update(status=status)
    championship.refresh_from_db()
    spare = TeamFactory(championship=championship, seed=9)
    organiser = UserFactory()
    championship.organisers.add(organiser)
    other = UserFactory()
    ChampionshipFactory().organisers.add(other)
    # Both on the championship's list of referees; one of them assigned to the match.
    assigned = RefereeFactory(championships=[championship])
    match.referee = assigned
    match.save(update_fields=["referee"])
    users = {
        "anonymous": None,
        "plain_user": UserFactory(),
        "referee_not_assigned": RefereeFactory(championships=[championship]),
        "referee_assigned": assigned,
        "organiser_of_another": other,
        "organiser": organiser,
        "staff": StaffFactory(),
    }
    assert len(teams) == 4
    return World(championship, match, spare.pk, users)


def record_one_hand(world: World) -> None:
    result_services.match_start(match=world.match)
    result_services.hand_record(
        match=world.match, record=chico_hand(world.match, "A"), recorded_by=None
    )


# The writes of play (seats, hands, a walkover, a result): once the championship is running.
PLAY = {
    "match_seats",
    "hand_post",
    "hand_undo",
    "match_walkover",
    "match_result",
    "match_confirm",
    "match_dispute",
    "match_recording",
}
# Answers to a result: once the match has one (typed at the desk).
ANSWERS = {"match_confirm", "match_dispute"}
A_WINS = [{"score": {"A": 30, "B": 12}}, {"score": {"A": 30, "B": 7}}]

# name -> (who may, method, path, payload, success status, preparation)
WRITES: dict[str, tuple] = {
    "championship_create": (
        "anyone",
        "post",
        lambda w: f"{V1}/championships/",
        lambda w: {"name": "Nuevo", "slug": "nuevo-campeonato", "start_date": "2026-07-01"},
        201,
    ),
    "championship_update": (
        "managers",
        "patch",
        lambda w: f"{w.base}/",
        lambda w: {"venue": "Casal"},
        200,
    ),
    "championship_status": (
        "managers",
        "post",
        lambda w: f"{w.base}/status/",
        lambda w: {"status": "running"},
        200,
    ),
    "team_create": (
        "managers",
        "post",
        lambda w: f"{w.base}/teams/",
        lambda w: {"name": "Nuevo", "players": ["Ana", "Bea"]},
        201,
    ),
    "team_update": (
        "managers",
        "patch",
        lambda w: f"{w.base}/teams/{w.spare_team}/",
        lambda w: {"club": "Gràcia"},
        200,
    ),
    "team_delete": (
        "managers",
        "delete",
        lambda w: f"{w.base}/teams/{w.spare_team}/",
        lambda w: None,
        204,
    ),
    "teams_import": (
        "managers",
        "multipart",
        lambda w: f"{w.base}/teams/import/",
        lambda w: {
            "file": SimpleUploadedFile("t.csv", b"team,player\nImp,Ana\nImp,Bea\n", "text/csv")
        },
        201,
    ),
    "referee_add": (
        "managers",
        "post",
        lambda w: f"{w.base}/referees/",
        lambda w: {"username": w.users["plain_user"].get_username()},
        201,
    ),
    "referee_remove": (
        "managers",
        "delete",
        lambda w: f"{w.base}/referees/{w.users['referee_not_assigned'].get_username()}/",
        lambda w: None,
        204,
    ),
    "stage_create": (
        "managers",
        "post",
        lambda w: f"{w.base}/stages/",
        lambda w: {"format": "swiss", "name": "Suiza"},
        201,
    ),
    "round_generate": (
        "managers",
        "post",
        lambda w: f"{w.base}/stages/{w.match.stage_id}/rounds/",
        lambda w: {},
        201,
    ),
    "match_assign": (
        "managers",
        "patch",
        lambda w: f"{V1}/matches/{w.match.pk}/",
        lambda w: {"table": "5"},
        200,
    ),
    "match_walkover": (
        "managers",
        "post",
        lambda w: f"{V1}/matches/{w.match.pk}/walkover/",
        lambda w: {"winner": w.match.team_a_id, "reason": "No vino"},
        200,
    ),
    "championship_scorekeeping": (
        "managers",
        "post",
        lambda w: f"{w.base}/scorekeeping/",
        lambda w: {"scorekeeping": "results", "confirm_within": 20},
        200,
    ),
    "stage_scorekeeping": (
        "managers",
        "post",
        lambda w: f"{w.base}/stages/{w.match.stage_id}/scorekeeping/",
        lambda w: {"scorekeeping": "players"},
        200,
    ),
    "match_result": (
        "managers",
        "post",
        lambda w: f"{V1}/matches/{w.match.pk}/result/",
        lambda w: {"games": A_WINS},
        200,
    ),
    "match_confirm": (
        "managers",
        "post",
        lambda w: f"{V1}/matches/{w.match.pk}/confirm/",
        lambda w: {"side": "A"},
        200,
    ),
    "match_dispute": (
        "managers",
        "post",
        lambda w: f"{V1}/matches/{w.match.pk}/dispute/",
        lambda w: {"side": "B", "comment": "Wrong sheet"},
        200,
    ),
    "match_recording": (
        "managers",
        "post",
        lambda w: f"{V1}/matches/{w.match.pk}/recording/",
        lambda w: {"to": "result", "reason": "The phone died"},
        200,
    ),
    "message_send": (
        "managers",
        "post",
        lambda w: f"{w.base}/messages/",
        lambda w: {"text": "Doors at 9"},
        200,
    ),
    "round_call": (
        "managers",
        "post",
        lambda w: f"{w.base}/stages/{w.match.stage_id}/rounds/{w.match.round.number}/call/",
        lambda w: None,
        200,
    ),
    "match_seats": (
        "referees",
        "post",
        lambda w: f"{V1}/matches/{w.match.pk}/seats/",
        lambda w: {},
        200,
    ),
    "hand_post": (
        "referees",
        "post",
        lambda w: f"{V1}/matches/{w.match.pk}/hands/",
        lambda w: {
            "number": 1,
            "events": chico_hand(w.match, "A")["events"] if w.match.seats else [],
        },
        201,
    ),
    "hand_undo": (
        "referees",
        "delete",
        lambda w: f"{V1}/matches/{w.match.pk}/hands/last/",
        lambda w: None,
        204,
    ),
}


def send(client, method: str, path: str, payload: Any):
    if method == "multipart":
        return client.post(path, payload, format="multipart")
    if payload is None:
        return getattr(client, method)(path)
    return getattr(client, method)(path, payload, format="json")


def allowed(who: str, actor: str) -> bool:
    if who == "anyone":
        return actor != "anonymous"
    return actor in (MANAGERS if who == "managers" else REFEREES)


@pytest.mark.parametrize("write", list(WRITES))
@pytest.mark.parametrize("actor", ACTORS)
def test_every_write_for_every_kind_of_user(db, actor, write):
    # Teams are entered while registration is open; hands are written once play started.
    world = build(
        Championship.Status.RUNNING if write in PLAY else Championship.Status.REGISTRATION
    )
    if write in ("hand_undo",):
        record_one_hand(world)
    elif write in ANSWERS:
        result_services.match_result_record(match=world.match, games=A_WINS, by=None)
    elif write == "hand_post":
        result_services.match_start(match=world.match)
        world.match.refresh_from_db()
    who, method, path, payload, success = WRITES[write]
    response = send(client_for(world.users[actor]), method, path(world), payload(world))
    if allowed(who, actor):
        assert response.status_code == success, response.content
    elif actor == "anonymous":
        assert response.status_code == 401
        assert response.json()["error"]["code"] == "not_authenticated"
    else:
        assert response.status_code == 403, response.content
        assert response.json()["error"]["code"] == "permission_denied"


@pytest.mark.parametrize("actor", [a for a in ACTORS if a not in MANAGERS | {"anonymous"}])
def test_a_draft_is_never_revealed_to_a_user_who_may_not_manage_it(db, actor):
    world = build(status=Championship.Status.DRAFT)
    client = client_for(world.users[actor])
    for write, (who, method, path, payload, _success) in WRITES.items():
        # The referee assigned to one of its matches sees that match (his tablet does too).
        if who == "anyone" or (actor == "referee_assigned" and "matches/" in path(world)):
            continue
        response = send(client, method, path(world), payload(world))
        assert response.status_code == 404, (write, response.content)
    assert client.get(f"{world.base}/").status_code == 404
    assert client.get(f"{world.base}/teams/").status_code == 404
    listed = client.get(f"{V1}/championships/").json()["results"]
    assert world.championship.slug not in [c["slug"] for c in listed]


def test_a_draft_is_readable_by_its_organisers_and_staff(db):
    world = build(status=Championship.Status.DRAFT)
    for actor in ("organiser", "staff"):
        assert client_for(world.users[actor]).get(f"{world.base}/").status_code == 200
    assert client_for().get(f"{world.base}/").status_code == 404
