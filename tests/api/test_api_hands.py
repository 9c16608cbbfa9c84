"""Posting hands through the API: the engine's verdict, hand numbers, Idempotency-Key."""

from __future__ import annotations

import datetime
import threading

import pytest
from django.contrib.auth.models import Group
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from api import idempotency
from api.models import IdempotencyKey
from api.tasks import purge_idempotency_keys
from tests.api.conftest import V1, client_for
from tests.tournaments.factories import (
    ChampionshipFactory,
    RefereeFactory,
    TeamFactory,
    UserFactory,
)
from tournaments.championships import services as championship_services
from tournaments.models import ChampionshipReferee, Hand, Match
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services


def one_match(*, team_size: int = 2, rules=None, referee=None) -> Match:
    championship = ChampionshipFactory(team_size=team_size, **({"rules": rules} if rules else {}))
    for seed in (1, 2):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    if referee is not None:
        championship_services.referee_add(championship=championship, user=referee, added_by=None)
        result_services.match_assign(match=match, referee=referee)
    return match


def url(match: Match) -> str:
    return f"{V1}/matches/{match.pk}/hands/"


def falta(match: Match, winner: str = "A") -> list[dict]:
    """The mano sings falta envido (the whole chico in the factory's rules); given to A."""
    match.refresh_from_db()
    seats = match.seats or [
        m.player.record_key
        for pair in zip(match.team_a.memberships.all(), match.team_b.memberships.all(), strict=True)
        for m in pair
    ]
    mano = seats[match.hands.count() % len(seats)]
    other = seats[(match.hands.count() + 1) % len(seats)]
    return [
        {"by": mano, "call": "falta_envido"},
        {"by": other, "answer": "quiero"},
        {"envido_winner": winner},
    ]


def test_the_rule_books_console_hand_scores_eliana_1_ivan_4(db, organiser):
    """Seed 001's console game, first hand: Eliana real envido, Ivan no quiero; Ivan truco,
    Eliana retruco, Ivan vale cuatro, Eliana quiero; Ivan wins two tricks."""
    championship = championship_services.championship_create(
        name="Consola",
        slug="consola",
        start_date="2026-06-01",
        team_size=1,
        organisers=[organiser],
    )
    championship_services.championship_set_status(championship=championship, status="registration")
    api = client_for(organiser)
    base = f"{V1}/championships/consola"
    for name in ("Eliana", "Ivan"):
        api.post(f"{base}/teams/", {"name": name, "players": [name]}, format="json")
    stage = api.post(f"{base}/stages/", {"format": "round_robin"}, format="json").json()
    (match,) = api.post(f"{base}/stages/{stage['id']}/rounds/", {}, format="json").json()["matches"]
    # Entries closed, play starts: hands are recorded only while the championship runs.
    assert api.post(f"{base}/status/", {"status": "running"}, format="json").status_code == 200
    key = {t["name"]: t["players"][0]["key"] for t in api.get(f"{base}/teams/").json()["results"]}
    side = {match["team_a"]["name"]: "A", match["team_b"]["name"]: "B"}
    eliana, ivan = key["Eliana"], key["Ivan"]
    # Eliana is mano in the console game.
    seated = api.post(
        f"{V1}/matches/{match['id']}/seats/", {"seats": [eliana, ivan]}, format="json"
    )
    assert seated.status_code == 200, seated.content
    hand = {
        "number": 1,
        "events": [
            {"by": eliana, "call": "real_envido"},
            {"by": ivan, "answer": "no_quiero"},
            {"trick": side["Ivan"]},
            {"by": ivan, "call": "truco"},
            {"by": eliana, "call": "retruco"},
            {"by": ivan, "call": "vale_cuatro"},
            {"by": eliana, "answer": "quiero"},
            {"trick": side["Ivan"]},
        ],
    }
    response = api.post(f"{V1}/matches/{match['id']}/hands/", hand, format="json")
    assert response.status_code == 201, response.content
    points = response.json()["points"]
    assert {"Eliana": points[side["Eliana"]], "Ivan": points[side["Ivan"]]} == {
        "Eliana": 1,
        "Ivan": 4,
    }
    listed = api.get(f"{V1}/matches/{match['id']}/hands/").json()["results"]
    assert listed[0]["score"] == points
    assert listed[0]["status"] == "complete"


def test_an_illegal_hand_carries_the_engines_code_event_and_hand(db, organiser):
    match = one_match()
    match.stage.championship.organisers.add(organiser)
    events = falta(match)
    events.insert(1, {"by": events[0]["by"], "call": "truco"})  # his own side speaks again
    for language, word in (("en", "answered"), ("es", "responder"), ("ca", "respondre")):
        response = client_for(organiser, language).post(
            url(match), {"number": 1, "events": events}, format="json"
        )
        assert response.status_code == 400
        error = response.json()["error"]
        assert (error["code"], error["hand"], error["event"]) == ("answer_pending", 1, 1)
        assert word in error["message"], error["message"]
    assert not Hand.objects.exists()


def test_hand_numbers_are_checked_and_a_resent_hand_is_stored_once(db, organiser):
    match = one_match()
    match.stage.championship.organisers.add(organiser)
    api = client_for(organiser)
    first = {"number": 1, "events": falta(match)}

    skipped = api.post(url(match), {"number": 3, "events": falta(match)}, format="json")
    assert skipped.status_code == 409
    assert skipped.json()["error"]["code"] == "hand_number"
    assert skipped.json()["error"]["expected"] == 1

    assert api.post(url(match), first, format="json").status_code == 201
    again = api.post(url(match), first, format="json")
    assert again.status_code == 200  # the same hand: answered, not stored twice
    assert again.json()["number"] == 1

    other = {"number": 1, "events": falta(match, winner="B")}
    conflict = api.post(url(match), other, format="json")
    assert conflict.status_code == 409
    assert conflict.json()["error"]["code"] == "hand_exists"
    assert conflict.json()["error"]["expected"] == 2
    assert match.hands.count() == 1


def test_a_retry_with_the_same_key_gets_the_first_response(db, organiser):
    match = one_match()
    match.stage.championship.organisers.add(organiser)
    api = client_for(organiser)
    hand = {"number": 1, "events": falta(match)}
    first = api.post(url(match), hand, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == 201
    # The response was lost on the way: the client sends the same request again.
    retry = api.post(url(match), hand, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert retry.status_code == 201
    assert retry.json() == first.json()
    assert retry["Idempotent-Replayed"] == "true"
    assert match.hands.count() == 1

    changed = {"number": 2, "events": falta(match)}
    reused = api.post(url(match), changed, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert reused.status_code == 422
    assert reused.json()["error"]["code"] == "idempotency_key_reused"
    assert match.hands.count() == 1


def test_keys_are_forgotten_after_their_window_by_the_daily_task(db, organiser, settings):
    settings.IDEMPOTENCY_KEY_DAYS = 7
    match = one_match()
    match.stage.championship.organisers.add(organiser)
    api = client_for(organiser)
    sent = {}
    for number, key, winner in ((1, "old", "A"), (2, "recent", "B")):
        sent[key] = {"number": number, "events": falta(match, winner)}
        response = api.post(url(match), sent[key], format="json", HTTP_IDEMPOTENCY_KEY=key)
        assert response.status_code == 201
    IdempotencyKey.objects.filter(key="old").update(
        created_at=timezone.now() - datetime.timedelta(days=8)
    )
    IdempotencyKey.objects.filter(key="recent").update(
        created_at=timezone.now() - datetime.timedelta(days=6)
    )

    purge_idempotency_keys.delay()  # as beat sends it (run in-process by the tests)
    assert list(IdempotencyKey.objects.values_list("key", flat=True)) == ["recent"]
    assert idempotency.keys_purge() == 0  # again: nothing more
    # The recent key still answers a retry; the hands themselves are untouched.
    retry = api.post(url(match), sent["recent"], format="json", HTTP_IDEMPOTENCY_KEY="recent")
    assert retry["Idempotent-Replayed"] == "true"
    assert match.hands.count() == 2


def test_a_refused_hand_keeps_no_key(db, organiser):
    match = one_match()
    match.stage.championship.organisers.add(organiser)
    api = client_for(organiser)
    bad = api.post(url(match), {"number": 1, "events": []}, format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert bad.status_code == 400
    assert not IdempotencyKey.objects.exists()
    good = {"number": 1, "events": falta(match)}
    assert api.post(url(match), good, format="json", HTTP_IDEMPOTENCY_KEY="k2").status_code == 201


def test_undo_the_last_hand(db, organiser):
    match = one_match()
    match.stage.championship.organisers.add(organiser)
    api = client_for(organiser)
    api.post(url(match), {"number": 1, "events": falta(match)}, format="json")
    assert api.delete(f"{url(match)}last/").status_code == 204
    assert match.hands.count() == 0
    empty = api.delete(f"{url(match)}last/")
    assert (empty.status_code, empty.json()["error"]["code"]) == (400, "no_hand")


@pytest.mark.django_db(transaction=True)
def test_the_same_hand_posted_20_times_at_once_with_one_key_is_stored_once():
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises every writer anyway)")
    organiser = UserFactory(username="organiser")
    match = one_match()
    match.stage.championship.organisers.add(organiser)
    hand = {"number": 1, "events": falta(match)}
    clients = [client_for(organiser) for _ in range(20)]
    barrier = threading.Barrier(len(clients))
    responses: list = []

    def post(client) -> None:
        try:
            barrier.wait()
            response = client.post(url(match), hand, format="json", HTTP_IDEMPOTENCY_KEY="same")
            responses.append((response.status_code, response.json()))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=post, args=(c,)) for c in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [status for status, _ in responses] == [201] * 20
    assert all(body == responses[0][1] for _, body in responses)
    assert Hand.objects.filter(match=match).count() == 1
    assert IdempotencyKey.objects.count() == 1
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS


def test_a_referee_taken_off_the_list_can_no_longer_write_through_the_api(db):
    """The results services' rule, whatever the door: the match's referee, his entry on
    the championship's list of referees deleted (he stays assigned), can neither seat,
    nor record, nor undo a hand: 403, as for anyone the API does not allow."""
    referee = RefereeFactory(username="exarbitro")
    match = one_match(referee=referee)
    api = client_for(referee)
    assert api.post(f"{V1}/matches/{match.pk}/seats/", {}, format="json").status_code == 200
    first = {"number": 1, "events": falta(match)}
    assert api.post(url(match), first, format="json").status_code == 201
    ChampionshipReferee.objects.filter(user=referee).delete()
    for response in (
        api.post(f"{V1}/matches/{match.pk}/seats/", {}, format="json"),
        api.post(url(match), {"number": 2, "events": falta(match)}, format="json"),
        api.delete(f"{V1}/matches/{match.pk}/hands/last/"),
    ):
        assert response.status_code == 403, response.content
        assert response.json()["error"]["code"] == "not_referee"
    assert Hand.objects.filter(match=match).count() == 1


def test_a_referee_of_another_championship_cannot_seat_the_players(db):
    """Only the championship's list makes a referee there: a member of the site-wide
    ``referees`` group on another championship's list, assigned to the match behind the
    services' back, is refused the seats with a 403; the organiser seats them."""
    outsider = RefereeFactory(username="forastero", championships=[ChampionshipFactory()])
    outsider.groups.add(Group.objects.get_or_create(name="referees")[0])
    match = one_match()
    Match.objects.filter(pk=match.pk).update(referee=outsider)
    seats = f"{V1}/matches/{match.pk}/seats/"
    response = client_for(outsider, language="en").post(seats, {}, format="json")
    assert response.status_code == 403, response.content
    assert response.json()["error"]["code"] == "not_referee"
    assert "may not referee" in response.json()["error"]["message"]
    match.refresh_from_db()
    assert match.seats == []
    organiser = UserFactory()
    match.stage.championship.organisers.add(organiser)
    assert client_for(organiser).post(seats, {}, format="json").status_code == 200


def test_hands_posted_and_undone_through_the_api_are_in_the_history(db):
    """The results services keep the history whoever calls them: the API too. A retried
    post (same hand again) adds nothing; the undo is refused once a side confirmed."""
    from tournaments.models import HandRevision

    referee = RefereeFactory()
    match = one_match(referee=referee)
    api = client_for(referee)
    for number in (1, 2):
        body = {"number": number, "events": falta(match)}
        assert api.post(url(match), body, format="json").status_code == 201
    assert api.post(url(match), body, format="json").status_code == 200  # a retry
    rows = list(HandRevision.objects.values_list("action", "number", "by"))
    assert rows == [("recorded", 1, referee.pk), ("recorded", 2, referee.pk)]
    assert api.get(f"{V1}/matches/{match.pk}/").json()["provisional"] is True

    result_services.match_confirm(match=match, side="A", by=referee)
    refused = api.delete(f"{url(match)}last/")
    assert refused.status_code in (400, 409)
    assert refused.json()["error"]["code"] == "result_confirmed"
    assert Hand.objects.filter(match=match).count() == 2
    assert HandRevision.objects.count() == 3  # the confirmation, and nothing else


def test_a_hand_is_saved_under_one_lock_and_one_count_of_the_hands(
    db, django_capture_on_commit_callbacks
):
    """The busiest save of a championship day: the match's row locked once and its hands
    counted once under the lock (the numbering's), in one savepoint."""
    referee = RefereeFactory(username="arbitro")
    match = result_services.match_start(match=one_match(referee=referee))
    api = client_for(referee)
    first = {"number": 1, "events": [{"trick": "A"}, {"trick": "A"}]}
    assert api.post(url(match), first, format="json").status_code == 201
    second = {"number": 2, "events": [{"trick": "B"}, {"trick": "B"}]}
    with CaptureQueriesContext(connection) as queries:
        assert api.post(url(match), second, format="json").status_code == 201
    sqls = [q["sql"] for q in queries.captured_queries]
    locks = [s for s in sqls if "FOR UPDATE" in s]
    counts = [s for s in sqls if "COUNT(*)" in s and '"tournaments_hand"' in s]
    savepoints = [s for s in sqls if s.startswith("SAVEPOINT")]
    # SQLite has no row locks (it serialises every writer): PostgreSQL says FOR UPDATE.
    assert len(locks) == (1 if connection.vendor == "postgresql" else 0), locks
    assert len(counts) == 1, counts
    assert len(savepoints) == 1, savepoints
    assert Hand.objects.filter(match=match).count() == 2
