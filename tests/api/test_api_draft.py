"""The hand in progress through the API: read, save, two devices, stale saves, hand saves."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.api.conftest import V1, client_for
from tests.api.test_api_hands import one_match
from tests.tournaments.factories import RefereeFactory, UserFactory
from tournaments import live, signals
from tournaments.errors import TournamentError
from tournaments.models import Hand, HandDraft, Match
from tournaments.results import drafts
from tournaments.results import services as result_services


@pytest.fixture
def referee(db):
    return RefereeFactory(username="arbitro")


@pytest.fixture
def match(referee) -> Match:
    return result_services.match_start(match=one_match(referee=referee))


@pytest.fixture
def api(referee):
    return client_for(referee)


def draft_url(match: Match) -> str:
    return f"{V1}/matches/{match.pk}/draft/"


def mano(match: Match) -> tuple[str, str]:
    """The next hand's mano and the player after him."""
    match.refresh_from_db()
    seats = match.seats
    count = match.hands.count()
    return seats[count % len(seats)], seats[(count + 1) % len(seats)]


def put(api, match, record, *, device="tab-1", revision=0, number=1, takeover=False, **kw):
    body = {
        "number": number,
        "record": record,
        "device": device,
        "revision": revision,
        "takeover": takeover,
    }
    return api.put(draft_url(match), body, format="json", **kw)


def test_without_a_draft_the_next_hand_is_empty(api, match):
    got = api.get(draft_url(match))
    assert got.status_code == 200
    assert got.json() == {
        "number": 1,
        "record": {},
        "device": "",
        "revision": 0,
        "updated_at": None,
        "entry": "quick",
    }


def test_a_saved_draft_is_resumed_by_another_client(api, match, referee):
    first, second = mano(match)
    record = {"events": [{"by": first, "call": "envido"}]}
    saved = put(api, match, record)
    assert saved.status_code == 200, saved.content
    assert saved.json()["revision"] == 1
    assert saved.json()["device"] == "tab-1"
    assert saved.json()["updated_at"]
    # Another browser or tablet of the same referee (another client, another session).
    other = client_for(referee)
    resumed = other.get(draft_url(match)).json()
    assert resumed["record"] == record
    assert resumed["number"] == 1
    assert resumed["revision"] == 1
    # The holder goes on from what it saw.
    record["events"].append({"by": second, "answer": "quiero"})
    again = put(api, match, record, revision=1)
    assert again.status_code == 200
    assert again.json()["revision"] == 2


def test_a_second_device_is_refused_until_it_takes_over(api, match):
    first, _second = mano(match)
    put(api, match, {"events": [{"by": first, "call": "truco"}]})
    refused = put(api, match, {"events": []}, device="tab-2", revision=1)
    assert refused.status_code == 409
    error = refused.json()["error"]
    assert error["code"] == "draft_other_device"
    assert "Another device is entering this match" in error["message"]
    assert error["draft"]["device"] == "tab-1"
    assert error["draft"]["record"] == {"events": [{"by": first, "call": "truco"}]}
    assert error["since"]
    assert HandDraft.objects.get(match=match).revision == 1  # nothing stored

    taken = put(api, match, {"events": []}, device="tab-2", revision=1, takeover=True)
    assert taken.status_code == 200, taken.content
    assert taken.json()["device"] == "tab-2"
    assert taken.json()["revision"] == 2

    # The first tablet, not told yet, is now the other device.
    late = put(api, match, {"events": [{"trick": "A"}]}, device="tab-1", revision=1)
    assert late.status_code == 409
    assert late.json()["error"]["code"] == "draft_other_device"


def test_a_stale_save_is_refused_never_merged(api, match):
    first, second = mano(match)
    put(api, match, {"events": [{"by": first, "call": "truco"}]})
    put(
        api,
        match,
        {"events": [{"by": first, "call": "truco"}, {"by": second, "answer": "quiero"}]},
        device="tab-2",
        revision=1,
        takeover=True,
    )
    # Tablet 1 takes the match back without having seen tablet 2's change (revision 1).
    stale = put(api, match, {"events": [{"trick": "B"}]}, revision=1, takeover=True)
    assert stale.status_code == 409
    error = stale.json()["error"]
    assert error["code"] == "draft_stale"
    assert "changed on another device" in error["message"]
    assert error["draft"]["revision"] == 2
    draft = HandDraft.objects.get(match=match)
    assert draft.device == "tab-2"
    assert draft.record["events"][-1] == {"by": second, "answer": "quiero"}
    # Having read it, it may take over.
    assert put(api, match, {"events": []}, revision=2, takeover=True).status_code == 200


def test_a_draft_for_another_hand_number_is_stale(api, match):
    refused = put(api, match, {"events": []}, number=2)
    assert refused.status_code == 409
    error = refused.json()["error"]
    assert error["code"] == "draft_stale"
    assert error["expected"] == 1
    assert "expects hand 1" in error["message"]
    assert not HandDraft.objects.filter(match=match).exists()


def test_an_illegal_hand_so_far_gets_the_engines_error(api, match):
    first, second = mano(match)
    illegal = put(
        api,
        match,
        {"events": [{"by": first, "call": "truco"}, {"by": second, "call": "vale_cuatro"}]},
    )
    assert illegal.status_code == 400
    error = illegal.json()["error"]
    assert error["code"] == "truco_order"
    assert error["event"] == 1
    assert error["hand"] == 1
    assert not HandDraft.objects.filter(match=match).exists()

    for record, code in (
        ([], "bad_draft"),  # not an object
        ({"events": [], "notes": "x"}, "bad_draft"),  # not a field of a hand
        ({"events": "truco"}, "bad_draft"),
        ({"events": [{"by": "nobody", "call": "truco"}]}, "unknown_player"),
        ({"events": [{"void": "a\u0000b"}]}, "bad_text"),
        ({"events": [], "undo": {"events": [{"trick": "Z"}]}}, "unknown_side"),
    ):
        response = put(api, match, record)
        assert response.status_code == 400, (record, response.content)
        assert response.json()["error"]["code"] == code, record


def test_a_number_the_database_cannot_store_is_refused(api, match, referee):
    # The API's JSON parser refuses NaN already; the service (which the tablet's pages call
    # too) refuses it itself, since PostgreSQL's jsonb would fail on it (a 500).
    raw = '{"number": 1, "device": "tab-1", "revision": 0, "record": {"events": [], "gallo": NaN}}'
    response = api.generic("PUT", draft_url(match), raw, content_type="application/json")
    assert response.status_code == 400
    with pytest.raises(TournamentError) as refused:
        drafts.draft_save(
            match=match,
            number=1,
            record={"events": [], "gallo": float("nan")},
            device="tab-1",
            revision=0,
            by=referee,
        )
    assert refused.value.code == "bad_draft"
    assert not HandDraft.objects.exists()


def test_a_partial_hand_is_legal_so_far_and_a_finished_one_too(api, match):
    first, second = mano(match)
    partial = {"events": [{"by": first, "call": "envido"}, {"by": second, "answer": "quiero"}]}
    assert put(api, match, partial).status_code == 200
    finished = {"events": [*partial["events"], {"envido_winner": "A"}, {"trick": "A"}]}
    finished["events"].append({"trick": "A"})
    assert put(api, match, finished, revision=1).status_code == 200


def test_a_restart_kept_for_undo_is_stored(api, match):
    first, _ = mano(match)
    before = {"events": [{"by": first, "call": "truco"}]}
    saved = put(api, match, {"events": [], "undo": before})
    assert saved.status_code == 200
    assert api.get(draft_url(match)).json()["record"]["undo"] == before


def test_a_hand_from_another_device_is_refused_and_a_stored_hand_empties_the_draft(api, match):
    first, second = mano(match)
    put(api, match, {"events": [{"by": first, "call": "envido"}]})
    hand = {
        "number": 1,
        "events": [
            {"by": first, "call": "envido"},
            {"by": second, "answer": "no_quiero"},
            {"trick": "A"},
            {"trick": "A"},
        ],
    }
    hands_url = f"{V1}/matches/{match.pk}/hands/"
    refused = api.post(hands_url, {**hand, "device": "tab-2"}, format="json")
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "draft_other_device"
    assert not Hand.objects.filter(match=match).exists()

    stored = api.post(hands_url, {**hand, "device": "tab-1"}, format="json")
    assert stored.status_code == 201, stored.content
    assert stored.json()["record"] == {"events": hand["events"]}  # "device" is not stored
    draft = api.get(draft_url(match)).json()
    assert draft["number"] == 2
    assert draft["record"] == {}
    assert draft["revision"] == 2
    assert draft["device"] == "tab-1"
    # The holder's outbox still names the revision it saw before the save: its own change.
    assert put(api, match, {"events": []}, revision=1, number=2).status_code == 200


def test_a_hand_without_a_device_is_stored_and_empties_the_draft(api, match):
    first, _ = mano(match)
    put(api, match, {"events": [{"by": first, "call": "truco"}]})
    hand = {"number": 1, "events": [{"trick": "A"}, {"trick": "A"}]}
    assert api.post(f"{V1}/matches/{match.pk}/hands/", hand, format="json").status_code == 201
    assert api.get(draft_url(match)).json()["record"] == {}


def test_a_deleted_hand_leaves_no_stale_draft(api, match):
    hand = {"number": 1, "events": [{"trick": "A"}, {"trick": "A"}]}
    put(api, match, {"events": [{"trick": "A"}]})
    api.post(f"{V1}/matches/{match.pk}/hands/", hand, format="json")
    put(api, match, {"events": [{"trick": "B"}]}, number=2, revision=2)
    assert api.delete(f"{V1}/matches/{match.pk}/hands/last/").status_code == 204
    draft = api.get(draft_url(match)).json()
    assert draft["number"] == 1
    assert draft["record"] == {}


def test_a_retried_save_with_the_same_key_is_stored_once(api, match):
    first, _ = mano(match)
    record = {"events": [{"by": first, "call": "truco"}]}
    one = put(api, match, record, HTTP_IDEMPOTENCY_KEY="d-1")
    two = put(api, match, record, HTTP_IDEMPOTENCY_KEY="d-1")
    assert one.status_code == two.status_code == 200
    assert two["Idempotent-Replayed"] == "true"
    assert two.json() == one.json()
    assert HandDraft.objects.get(match=match).revision == 1
    # A refusal keeps no key: the retry meets the same refusal, not a replay.
    bad = put(api, match, record, device="tab-9", HTTP_IDEMPOTENCY_KEY="d-2")
    again = put(api, match, record, device="tab-9", HTTP_IDEMPOTENCY_KEY="d-2")
    assert bad.status_code == again.status_code == 409
    assert "Idempotent-Replayed" not in again


def test_every_draft_change_is_announced(api, match, django_capture_on_commit_callbacks):
    heard = []

    def listener(**kwargs):
        heard.append((kwargs["what"], kwargs["match_id"], kwargs["stage_id"]))

    signals.changed.connect(listener)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            put(api, match, {"events": [{"trick": "A"}]})
        with django_capture_on_commit_callbacks(execute=True):
            put(api, match, {"events": []}, device="tab-2", revision=1)  # refused
        with django_capture_on_commit_callbacks(execute=True):
            hand = {"number": 1, "events": [{"trick": "A"}, {"trick": "A"}]}
            api.post(f"{V1}/matches/{match.pk}/hands/", hand, format="json")
    finally:
        signals.changed.disconnect(listener)
    drafts = [h for h in heard if h[0] == "draft"]
    assert drafts == [("draft", match.pk, match.stage_id)]  # the save
    # The emptying by the hand: announced with it, and reaching the draft's followers.
    assert ("hand", match.pk, match.stage_id) in heard
    topics = live.changed_topics(slug="x", what="hand", stage_id=match.stage_id, match_id=match.pk)
    assert live.draft_topic(match.pk) in topics


def _tables_read(queries: CaptureQueriesContext) -> list[str]:
    """The table each query reads or writes first (after FROM, UPDATE or INTO)."""
    found = []
    for query in queries.captured_queries:
        named = re.search(r'(?:FROM|UPDATE|INTO) "(\w+)"', query["sql"])
        found.append(named.group(1) if named else query["sql"].split()[0])
    return found


def test_a_draft_step_costs_the_same_few_queries_at_any_hand(
    api, match, django_capture_on_commit_callbacks
):
    """The busiest write of a championship day: one per tap at every table."""
    put(api, match, {"events": [{"trick": "A"}]})
    with (
        CaptureQueriesContext(connection) as early,
        django_capture_on_commit_callbacks(execute=True) as announced,
    ):
        assert put(api, match, {"events": [{"trick": "B"}]}, revision=1).status_code == 200
    for number in range(1, 6):
        hand = {"number": number, "events": [{"trick": "A"}, {"trick": "A"}]}
        assert api.post(f"{V1}/matches/{match.pk}/hands/", hand, format="json").status_code == 201
    with CaptureQueriesContext(connection) as late:
        body = {"events": [{"trick": "A"}]}
        assert put(api, match, body, revision=2 + 5, number=6).status_code == 200
    assert announced  # the step was announced, and its listener ran (inside ``early``)
    tables = _tables_read(early)
    assert tables == _tables_read(late)
    # The match is read once, with its championship, and never joined to its round (an
    # ordering of the model the tap does not need); the announcement uses that
    # championship's slug instead of reading it again.
    assert tables.count("tournaments_match") == 2  # the read, the lock
    assert "tournaments_round" not in " ".join(q["sql"] for q in early.captured_queries)
    assert "tournaments_championship" not in tables
    # The token, the match, its lock and hands, his entry on the list of referees, the
    # draft read and written, and the service's savepoint (set and released) inside the test's
    # transaction: no second one around it.
    assert len(early) <= 9, tables


def test_who_may_read_and_save_a_draft(match, db):
    other = client_for(UserFactory())
    assert other.get(draft_url(match)).status_code in (403, 404)
    assert put(other, match, {"events": []}).status_code in (403, 404)
    assert client_for().get(draft_url(match)).status_code in (401, 403, 404)
    assert not HandDraft.objects.exists()


def test_a_session_put_needs_the_csrf_token(match, referee):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(referee)
    body = {"number": 1, "record": {"events": []}, "device": "tab-1", "revision": 0}
    refused = browser.put(draft_url(match), body, content_type="application/json")
    assert refused.status_code == 403
    browser.get("/referee/")  # sets the CSRF cookie
    token = browser.cookies["csrftoken"].value
    saved = browser.put(
        draft_url(match), body, content_type="application/json", HTTP_X_CSRFTOKEN=token
    )
    assert saved.status_code == 200, saved.content


def test_the_refusals_are_translated(match, referee):
    first, _ = mano(match)
    put(client_for(referee), match, {"events": [{"by": first, "call": "truco"}]})
    for language, words in (("es", "Otro dispositivo"), ("ca", "Un altre dispositiu")):
        response = put(client_for(referee, language), match, {}, device="x", revision=1)
        assert words in response.json()["error"]["message"], response.json()


def test_the_entry_mode_is_shown_and_set_by_the_organiser(match, db):
    championship = match.stage.championship
    organiser = UserFactory()
    championship.organisers.add(organiser)
    api = client_for(organiser)
    detail = api.get(f"{V1}/matches/{match.pk}/")
    assert detail.json()["entry"] == "quick"
    changed = api.patch(f"{V1}/matches/{match.pk}/", {"entry": "cards"}, format="json")
    assert changed.status_code == 200, changed.content
    assert changed.json()["entry"] == "cards"
    assert api.get(draft_url(match)).json()["entry"] == "cards"
    bad = api.patch(f"{V1}/matches/{match.pk}/", {"entry": "psychic"}, format="json")
    assert bad.status_code == 400
