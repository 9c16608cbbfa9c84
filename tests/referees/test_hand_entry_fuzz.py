"""Fuzzing the tablet's posts: whatever the hidden fields and the step hold, the answer is
a page or a refusal (never a 5xx, never a traceback) and nothing is stored."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.strategies import JSONISH, TEXT, encoded
from tournaments.models import Hand

POSTS = st.fixed_dictionaries(
    {
        "number": st.sampled_from(["1", "2", "", "1\x00", "9" * 30]),
        "hand": JSONISH.map(encoded) | TEXT,
    },
    optional={
        "action": JSONISH.map(encoded) | TEXT,
        "op": st.sampled_from(
            ["save", "undo", "reset", "penalty", "void", "envido", "flor", "pairs", "next_pair"]
        )
        | TEXT,
        "penalty-side": st.sampled_from(["A", "B"]) | TEXT,
        "penalty-points": st.integers(-5, 10**12).map(str) | TEXT,
        "penalty-reason": TEXT,
        "void-reason": TEXT,
        "envido-p1": TEXT,
    },
)


def _clean(post: dict[str, str]) -> dict[str, str]:
    # The test client encodes the post as UTF-8: a lone surrogate in a form field cannot
    # come from a browser (it is the JSON escape "\ud800" that can), so it is dropped here.
    return {k: v.encode("utf-8", "replace").decode("utf-8") for k, v in post.items()}


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(post=POSTS)
@example(post={"number": "1", "hand": '{"events":[{"void":"\\ud800"}]}', "op": "save"})
@example(post={"number": "1", "hand": "{}", "action": '{"penalty":{"to":"A","points":1000}}'})
def test_no_post_breaks_the_tablet_or_stores_a_hand(started, tablet, post):
    page = tablet(started)
    response = page.client.post(page.url, _clean(post))
    assert response.status_code < 500
    assert b"Traceback" not in response.content
    assert Hand.objects.count() == 0
