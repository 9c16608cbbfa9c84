"""Fuzzing the API's hand endpoint: whatever the body, the answer is a verdict (never a
5xx, never a traceback) and a refused body stores nothing."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.api.conftest import V1, client_for
from tests.api.test_api_hands import one_match
from tests.strategies import JSONISH, TEXT, encoded
from tests.tournaments.factories import UserFactory
from tournaments.models import Hand
from tournaments.results import services as result_services

BODIES = (
    st.fixed_dictionaries(
        {"number": st.sampled_from([1, 0, -1, 2, 10**20, "1", None, 1.5]) | TEXT},
        optional={
            "events": st.lists(JSONISH, max_size=6) | JSONISH,
            "cards": JSONISH,
            "pica_pica": JSONISH,
            "gallo": JSONISH,
        },
    ).map(encoded)
    | JSONISH.map(encoded)
    | TEXT
)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(body=BODIES)
@example(body='{"number": 1, "events": [{"void": "\\ud800"}]}')
@example(body='{"number": 1, "events": [{"penalty": {"to": "A", "points": 1000}}]}')
@example(body='{"number": 1, "events": [{"by": "p1\\u0000", "call": "truco"}]}')
@example(body='{"number": 1e400, "events": []}')
@example(body="\ud800")
def test_no_body_breaks_the_hand_endpoint_or_stores_a_refused_hand(db, body):
    organiser = UserFactory(username="fuzz-organiser")
    match = one_match()
    match.stage.championship.organisers.add(organiser)
    result_services.match_start(match=match)
    before = Hand.objects.count()
    # Sent as bytes: a raw body with a lone surrogate cannot be UTF-8, but a hostile client
    # can send those bytes (the test client would refuse to encode the str itself).
    response = client_for(organiser).post(
        f"{V1}/matches/{match.pk}/hands/",
        body.encode("utf-8", "surrogatepass"),
        content_type="application/json",
    )
    assert response.status_code < 500, response.content
    assert b"Traceback" not in response.content
    if response.status_code not in (200, 201):
        assert Hand.objects.count() == before
        assert "error" in json.loads(response.content)
