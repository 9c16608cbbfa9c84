"""Entries through the API: the public entry form for programs, the organisers' list and
answers (api/views/entries.py)."""

from __future__ import annotations

from django.core import mail

from tests.api.conftest import V1, client_for
from tests.tournaments.factories import ChampionshipFactory, UserFactory
from tournaments.entries import services
from tournaments.models import Championship, Entry, Team, TeamAct


def _open(capacity: int | None = 2, asks=("email",)) -> Championship:
    championship = ChampionshipFactory(slug="copa", status=Championship.Status.REGISTRATION)
    services.entry_policy_set(
        championship=championship,
        by=None,
        is_open=True,
        capacity=capacity,
        closes_at=None,
        asks=list(asks),
        fee=None,
        fee_instructions="",
    )
    return championship


def _team(name: str, email: str = "") -> dict:
    return {
        "team_name": name,
        "players": [{"name": f"{name} 1"}, {"name": f"{name} 2"}],
        "email": email,
    }


def test_anyone_enters_a_team_and_gets_its_link_once(anon, db):
    championship = _open()
    response = anon.post(
        f"{V1}/championships/copa/entries/", _team("Pardos", "ana@example.com"), format="json"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["status"] == "pending" and body["position"] == 1
    assert body["waiting_number"] is None and body["emailed"] is True
    assert body["link"].startswith("http://testserver/c/copa/team/")
    assert response["Cache-Control"] == "no-store"
    assert body["link"] in mail.outbox[0].body
    team = Team.objects.get(championship=championship)
    assert TeamAct.objects.filter(team=team, action="entered", via="api").exists()
    # The email is the organisers' to read: nowhere in the public team list.
    assert "ana@example.com" not in anon.get(f"{V1}/championships/copa/teams/").content.decode()


def test_past_the_places_a_team_waits_with_its_number(anon, db):
    _open(capacity=1, asks=())
    anon.post(f"{V1}/championships/copa/entries/", _team("Uno"), format="json")
    body = anon.post(f"{V1}/championships/copa/entries/", _team("Dos"), format="json").json()
    assert (body["status"], body["position"], body["waiting_number"]) == ("waiting", 2, 1)
    assert body["emailed"] is False


def test_every_problem_comes_back_by_field(anon, db):
    _open()
    data = {"team_name": "", "players": [{"name": "Ana"}, {"name": ""}], "email": "x"}
    response = anon.post(f"{V1}/championships/copa/entries/", data, format="json")
    assert response.status_code == 400
    fields = response.json()["error"]["fields"]
    assert set(fields) == {"team_name", "player_2", "email"}
    assert not Entry.objects.exists()


def test_the_same_idempotency_key_enters_one_team(anon, db):
    _open()
    headers = {"HTTP_IDEMPOTENCY_KEY": "c0ffee00-form-0001"}
    url = f"{V1}/championships/copa/entries/"
    first = anon.post(url, _team("Pardos", "ana@example.com"), format="json", **headers)
    again = anon.post(url, _team("Pardos", "ana@example.com"), format="json", **headers)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["id"] == first.json()["id"]
    assert again.json()["emailed"] is False and len(mail.outbox) == 1
    assert Team.objects.count() == 1


def test_closed_entries_answer_409(anon, db):
    championship = _open()
    championship.entry_policy.is_open = False
    championship.entry_policy.save()
    response = anon.post(f"{V1}/championships/copa/entries/", _team("Tarde"), format="json")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "entries_closed"


def test_entries_are_throttled_per_address(anon, db, settings):
    settings.ENTRY_FORM_LIMIT = 2
    _open(capacity=None, asks=())
    url = f"{V1}/championships/copa/entries/"
    codes = [anon.post(url, _team(f"T{n}"), format="json").status_code for n in range(3)]
    assert codes == [201, 201, 429]
    assert Entry.objects.count() == 2


def test_only_organisers_read_and_answer_entries(anon, db):
    championship = _open(capacity=1)
    organiser = UserFactory(username="org")
    championship.organisers.add(organiser)
    url = f"{V1}/championships/copa/entries/"
    first = anon.post(url, _team("Uno", "uno@example.com"), format="json").json()
    second = anon.post(url, _team("Dos", "dos@example.com"), format="json").json()
    assert anon.get(url).status_code == 401
    stranger = client_for(UserFactory(username="stranger"))
    assert stranger.get(url).status_code == 403
    assert stranger.post(f"{V1}/entries/{first['id']}/accept/").status_code == 403
    api = client_for(organiser)
    listed = api.get(url).json()["results"]
    assert [e["team"]["name"] for e in listed] == ["Uno", "Dos"]
    assert listed[0]["email"] == "uno@example.com"

    accepted = api.post(f"{V1}/entries/{first['id']}/accept/")
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
    paid = api.post(f"{V1}/entries/{first['id']}/paid/", {"paid": True}, format="json")
    assert paid.json()["paid"] is True
    no_reason = api.post(f"{V1}/entries/{first['id']}/refuse/", {}, format="json")
    assert no_reason.status_code == 400
    assert no_reason.json()["error"]["code"] == "entry_reason_missing"
    refused = api.post(f"{V1}/entries/{first['id']}/refuse/", {"reason": "Late"}, format="json")
    assert refused.json()["status"] == "refused"
    assert Entry.objects.get(pk=second["id"]).status == "pending"  # promoted
    withdrawn = api.post(f"{V1}/entries/{second['id']}/withdraw/", {}, format="json")
    assert withdrawn.json()["status"] == "withdrawn"
    acts = set(TeamAct.objects.filter(via="api", by=organiser).values_list("action", flat=True))
    assert acts == {"accepted", "paid", "refused", "promoted", "withdrawn"}
    assert api.post(f"{V1}/entries/999999/accept/").status_code == 404
