"""Telling the players through the API: the organiser's message (everyone, a stage, a
round, a match), a round called, and the notices listed with their delivery states;
only the championship's organisers, and never an address or a link in an answer."""

from __future__ import annotations

import pytest
from django.core import mail

from tests.api.conftest import V1, client_for
from tests.tournaments.factories import ChampionshipFactory, UserFactory
from tests.tournaments.notices.conftest import entered
from tournaments.entries import services as entry_services
from tournaments.models import Notice, TeamAct
from tournaments.notices import services as notice_services
from tournaments.notices.delivery import notice_deliver
from tournaments.stages import services as stage_services


@pytest.fixture
def day(db):
    """A championship of 5 teams with addresses (es, ca, en), two stages, round 1 drawn."""
    championship = ChampionshipFactory(name="Copa API", slug="copa-api")
    organiser = UserFactory(username="host")
    championship.organisers.add(organiser)
    teams = [
        entered(championship, language=language, seed=seed)
        for seed, language in enumerate(["es", "ca", "en", "en", "es"], start=1)
    ]
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    other = stage_services.stage_create(
        championship=championship, format="swiss", name="Consolation", teams=teams[:2]
    )
    matches = stage_services.round_generate(stage=stage)
    Notice.objects.all().delete()  # the draw's notices: not these tests' business
    for team in teams:
        entry_services.link_issue(team=team, via=TeamAct.Via.ORGANISER)
    return {
        "championship": championship,
        "organiser": organiser,
        "teams": teams,
        "stage": stage,
        "other": other,
        "matches": matches,
    }


def _message(client, body, **extra):
    return client.post(f"{V1}/championships/copa-api/messages/", body, format="json", **extra)


def test_the_organisers_message_to_everyone_a_stage_a_round_and_a_match(
    day, django_capture_on_commit_callbacks
):
    client = client_for(day["organiser"])
    with django_capture_on_commit_callbacks(execute=True):
        answer = _message(client, {"text": "Doors open at 9\nBring cards"})
    assert answer.status_code == 200, answer.content
    assert answer.json()["told"] == 5 and len(mail.outbox) == 5
    assert all("Doors open at 9\nBring cards" in m.body for m in mail.outbox)
    assert {n["kind"] for n in answer.json()["notices"]} == {"message"}

    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        answer = _message(client, {"text": "Consolation at 12", "stage": day["other"].pk})
    assert answer.json()["told"] == 2
    assert sorted(m.to[0] for m in mail.outbox) == sorted(t.entry.email for t in day["teams"][:2])

    match = next(m for m in day["matches"] if m.team_b_id)
    answer = _message(client, {"text": "Table 3, please", "match": match.pk})
    assert answer.json()["told"] == 2
    told = {n["team"]["id"] for n in answer.json()["notices"]}
    assert told == {match.team_a_id, match.team_b_id}
    answer = _message(client, {"text": "Round 1 starts", "stage": day["stage"].pk, "round": 1})
    assert answer.json()["told"] == 5  # the bye's team too: it is a team of the round
    # The same message again within a minute: nobody told twice.
    again = _message(client, {"text": "Round 1 starts", "stage": day["stage"].pk, "round": 1})
    assert again.status_code == 200 and again.json()["told"] == 0
    # Each message is recorded as the page's are: by whom, one batch per message.
    messages = Notice.objects.filter(kind=Notice.Kind.MESSAGE)
    assert set(messages.values_list("by__username", flat=True)) == {"host"}
    assert messages.values("batch").distinct().count() == 4


@pytest.mark.parametrize(
    ("body", "code", "words"),
    [
        ({"text": "   "}, "message_empty", "Write the message."),
        ({"text": "x" * 1001}, "message_long", "1001 characters long: 1000 at most"),
        ({"text": "Hi\x1b[31m"}, "control_characters", "invisible control character"),
    ],
)
def test_a_bad_message_is_refused_with_its_sentence_and_nothing_queued(day, body, code, words):
    answer = _message(client_for(day["organiser"]), body)
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == code and words in error["message"]
    assert not Notice.objects.exists()


def test_past_the_championships_messages_of_the_hour_the_answer_is_429(day, monkeypatch):
    monkeypatch.setattr(notice_services, "MESSAGES_PER_HOUR", 2)
    client = client_for(day["organiser"])
    assert _message(client, {"text": "Doors open at 9."}).status_code == 200
    assert _message(client, {"text": "Round 2 at 11."}).status_code == 200
    before = Notice.objects.count()
    answer = _message(client, {"text": "Bring your cards."})
    assert answer.status_code == 429
    error = answer.json()["error"]
    assert error["code"] == "messages_limit"
    assert "2 messages were sent in the last hour" in error["message"]
    assert Notice.objects.count() == before


def test_a_message_to_somewhere_else_is_refused_beside_its_field(day):
    client = client_for(day["organiser"])
    elsewhere = ChampionshipFactory(slug="elsewhere")
    stage = stage_services.stage_create(championship=elsewhere, format="round_robin")
    answer = _message(client, {"text": "Hi", "stage": stage.pk})
    assert answer.status_code == 400 and "stage" in answer.json()["error"]["fields"]
    answer = _message(client, {"text": "Hi", "round": 1})
    assert answer.status_code == 400 and "round" in answer.json()["error"]["fields"]
    answer = _message(client, {"text": "Hi", "stage": day["stage"].pk, "round": 9})
    assert answer.status_code == 400
    assert not Notice.objects.exists()


def test_the_refusal_speaks_the_requests_language(day):
    answer = _message(client_for(day["organiser"], language="ca"), {"text": ""})
    assert answer.json()["error"]["message"] == "Escriu el missatge."


def test_only_the_championships_organisers_tell_its_players(day):
    stranger = UserFactory(username="stranger")
    ChampionshipFactory(slug="his").organisers.add(stranger)
    call = f"{V1}/championships/copa-api/stages/{day['stage'].pk}/rounds/1/call/"
    for client, status in [(client_for(), 401), (client_for(stranger), 403)]:
        assert _message(client, {"text": "Hi"}).status_code == status
        assert client.post(call).status_code == status
        assert client.get(f"{V1}/championships/copa-api/notices/").status_code == status
    assert not Notice.objects.exists()


def test_calling_the_round_twice_in_a_minute_tells_each_team_once(
    day, django_capture_on_commit_callbacks
):
    client = client_for(day["organiser"])
    call = f"{V1}/championships/copa-api/stages/{day['stage'].pk}/rounds/1/call/"
    with django_capture_on_commit_callbacks(execute=True):
        first = client.post(call)
        second = client.post(call)
    assert first.status_code == 200 and first.json()["told"] == 4  # the bye is not called
    assert second.json()["told"] == 0
    assert len(mail.outbox) == 4
    assert {n["kind"] for n in first.json()["notices"]} == {"ready"}
    assert set(Notice.objects.values_list("by__username", flat=True)) == {"host"}
    no_round = f"{V1}/championships/copa-api/stages/{day['stage'].pk}/rounds/7/call/"
    assert client.post(no_round).status_code == 404


def test_the_notices_are_listed_with_their_delivery_states_and_no_secret(day, monkeypatch):
    client = client_for(day["organiser"])
    client.post(f"{V1}/championships/copa-api/stages/{day['stage'].pk}/rounds/1/call/")
    _message(client, {"text": "Prizes at 8"})
    notices = list(Notice.objects.order_by("pk"))
    notice_deliver(notice_id=notices[0].pk)  # sent
    Notice.objects.filter(pk=notices[1].pk).update(state=Notice.State.FAILED, attempts=5)
    Notice.objects.filter(pk=notices[2].pk).update(state=Notice.State.CANCELLED)
    listed = client.get(f"{V1}/championships/copa-api/notices/")
    assert listed.status_code == 200
    rows = listed.json()["results"]
    assert listed.json()["count"] == 9
    states = {row["id"]: row["state"] for row in rows}
    assert states[notices[0].pk] == "sent" and states[notices[1].pk] == "failed"
    assert states[notices[2].pk] == "cancelled" and states[notices[3].pk] == "queued"
    sent = next(row for row in rows if row["id"] == notices[0].pk)
    assert sent["sent_at"] and sent["created_at"] and sent["channel"] == "email"
    assert sent["kind"] == "ready" and sent["round"] == 1 and sent["stage"] == day["stage"].pk
    text = listed.content.decode()
    for team in day["teams"]:
        assert team.entry.email not in text
        assert team.links.get().token not in text
    # Filtered by round, kind and state.
    url = f"{V1}/championships/copa-api/notices/"
    assert client.get(url, {"stage": day["stage"].pk, "round": 1}).json()["count"] == 4
    assert client.get(url, {"kind": "message"}).json()["count"] == 5
    assert client.get(url, {"state": "queued", "kind": "ready"}).json()["count"] == 1
    assert client.get(url, {"state": "nonsense"}).status_code == 400
