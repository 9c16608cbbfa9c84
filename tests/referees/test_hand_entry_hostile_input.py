"""The tablet against tampered hidden fields: text the database cannot hold, numbers out
of the page's bounds. Each is refused with the "damaged" message and nothing is stored."""

from __future__ import annotations

import json

import pytest

from scoring.rules import RuleSet
from tests.referees.conftest import html_of, key, make_match
from tournaments.models import Hand
from tournaments.results import services as result_services

DAMAGED = "The hand sent by the page is damaged or out of date"
TWO_TRICKS = [{"trick": "A"}, {"trick": "A"}]


def penalty(points) -> dict:
    return {"penalty": {"to": "A", "points": points, "reason": "Señas"}}


def hidden_hands(match) -> dict[str, str]:
    """Hands that would be saved as they are, but for one tampered value."""
    ana = key(match, "Ana")
    return {
        "lone-surrogate-in-a-reason": '{"events":[{"void":"x\\ud800"}]}',
        "lone-surrogate-in-a-key": '{"events":[{"trick":"A"},{"trick":"A"}],"\\udfff":1}',
        "nul-in-a-reason": '{"events":[{"void":"a\\u0000b"}]}',
        "raw-nul": '{"events":[{"trick":"A"},{"trick":"A"}]}\x00',
        "penalty-of-1000": json.dumps({"events": [penalty(1000), *TWO_TRICKS]}),
        "penalty-of-0": json.dumps({"events": [penalty(0), *TWO_TRICKS]}),
        "penalty-of-nan": '{"events":[{"penalty":{"to":"A","points":NaN,"reason":"x"}}]}',
        "penalty-as-a-fraction": json.dumps({"events": [penalty(1.5), *TWO_TRICKS]}),
        "envido-of-38": json.dumps(
            {"events": [{"by": ana, "call": "envido"}, {"envido": {ana: 38}}]}
        ),
    }


@pytest.mark.parametrize(
    "case",
    [
        "lone-surrogate-in-a-reason",
        "lone-surrogate-in-a-key",
        "nul-in-a-reason",
        "raw-nul",
        "penalty-of-1000",
        "penalty-of-0",
        "penalty-of-nan",
        "penalty-as-a-fraction",
        "envido-of-38",
    ],
)
def test_a_tampered_hand_is_not_saved(started, tablet, case):
    page = tablet(started)
    hand = hidden_hands(started)[case]
    response = page.client.post(page.url, {"number": "1", "hand": hand, "op": "save"})
    assert response.status_code == 400
    assert DAMAGED in html_of(response)
    assert Hand.objects.count() == 0


@pytest.mark.parametrize(
    "action",
    [
        '{"trick":"\\ud800"}',
        '{"void":"\\ud83d"}',  # half of an emoji
        '{"void":"a\\u0000"}',
        json.dumps(penalty(1000)),
        json.dumps(penalty(31)),
        '{"penalty":{"to":"A","points":Infinity,"reason":"x"}}',
        '{"penalty":{"to":"A","points":' + "9" * 5000 + ',"reason":"x"}}',
    ],
    ids=["surrogate", "half-emoji", "nul", "1000", "31", "infinity", "5000-digits"],
)
def test_a_tampered_action_is_refused_and_the_hand_stays_as_it_was(started, tablet, action):
    page = tablet(started)
    page.tap("Trick to Ana and Alba")
    page.post({"action": action}, status=400)
    assert DAMAGED in page.page
    assert page.events == {"events": [{"trick": "A"}]}
    page.op("save", status=400)  # the hand is not decided: nothing to save yet
    assert Hand.objects.count() == 0


def test_the_penalty_form_is_bounded_by_the_target(started, tablet):
    page = tablet(started)
    assert 'max="30"' in page.raw  # the argentine target
    form = {"op": "penalty", "penalty-side": "A", "penalty-reason": "Señas"}
    page.post({**form, "penalty-points": "1000"})
    assert "Ensure this value is less than or equal to 30." in page.page
    assert page.events == {"events": []}
    page.post({**form, "penalty-points": "30"})
    assert page.events == {"events": [penalty(30)]}


def test_a_fifteen_point_game_bounds_penalties_at_fifteen(referee, tablet):
    match = make_match(referee=referee)
    championship = match.stage.championship
    championship.rules = {**championship.rules, "target": 15}
    championship.save()
    result_services.match_start(match=match)
    page = tablet(match)
    assert 'max="15"' in page.raw
    page.post({"action": json.dumps(penalty(16))}, status=400)
    page.post({"action": json.dumps(penalty(15))})
    assert page.events == {"events": [penalty(15)]}


def test_the_penalty_bound_is_the_rule_sets_penalty_max_by_default_the_target():
    assert RuleSet.from_spec("argentine").max_penalty == 30
    assert RuleSet.from_spec({"preset": "argentine", "target": 15}).max_penalty == 15
    capped = RuleSet.from_spec({"preset": "argentine", "penalty_max": 6})
    assert capped.max_penalty == 6
