"""scoring.session, the engine as the tablet's browser runs it: a session goes from hand to
hand as the match layer scores them, pica-pica pairs included, and a refusal changes
nothing. (The browser itself: tests/referees/test_browser_tablet_offline.py.)"""

from __future__ import annotations

import json

import scoring
from scoring.session import Session, handle
from tests.scoring.test_scoring_entry import SEATS


def six_head() -> dict:
    teams, seats = SEATS[6]
    return {"rules": "argentine", "teams": teams, "seats": seats}


def test_a_redondo_then_a_pica_pica_hand_score_as_the_whole_match_record():
    head = six_head()
    session = Session(head, None)
    for event in ({"trick": "A"}, {"trick": "A"}):
        assert session.run({"op": "event", "event": event})["error"] is None
    first = session.run({"op": "save"})["saved"]
    view = session.view()
    assert view["number"] == 2 and view["kind"] == "pica_pica" and view["choosing_pairs"]
    assert view["actions"] == []
    view = session.run({"op": "pairs", "pairs": view["default_pairs"]})
    assert view["pairs"] == [list(p) for p in session.entry.default_pairs()]
    for index, pair in enumerate(view["pairs"]):
        if index:
            view = session.run({"op": "next_pair"})
        view = session.run({"op": "event", "event": {"by": pair[0], "mazo": True}})
        assert view["error"] is None
    assert view["ready"] and not view["can_move_on"]
    second = session.run({"op": "save"})["saved"]
    whole = scoring.score_match_result({**head, "hands": [first["record"], second["record"]]})
    assert second["state"] == whole.state.to_dict()
    assert second["score"] == dict(whole.hands[-1].score)


def test_a_refused_step_changes_nothing_and_says_why():
    session = Session(six_head(), None)
    before = session.view()
    after = session.run({"op": "event", "event": {"by": "a1", "answer": "quiero"}})
    assert after["error"]["code"] == "nothing_to_answer"
    assert after["draft"] == before["draft"] and after["actions"] == before["actions"]
    assert session.run({"op": "save"})["error"]["code"] == "hand_unfinished"
    assert session.run({"op": "shuffle"})["error"]["code"] == "bad_draft"


def test_a_void_and_a_penalty_are_events_like_any_other():
    session = Session(six_head(), None)
    view = session.run(
        {"op": "event", "event": {"penalty": {"to": "B", "points": 2, "reason": "a sign"}}}
    )
    assert view["error"] is None and view["can_void"]
    view = session.run({"op": "event", "event": {"void": "cards shown"}})
    assert view["ready"] and not view["can_void"]
    saved = session.run({"op": "save"})["saved"]
    assert saved["status"] == "void" and saved["points"] == {"A": 0, "B": 2}


def test_a_draft_that_no_longer_replays_keeps_its_valid_steps():
    message = {
        "op": "open",
        "head": six_head(),
        "state": None,
        "draft": {"events": [{"trick": "A"}, {"trick": "nobody"}]},
    }
    view = json.loads(handle(json.dumps(message)))
    assert view["draft"] == {"events": [{"trick": "A"}]}
    assert view["error"]["code"] == "unknown_side"


def test_a_finished_match_opens_as_over():
    head = {
        "rules": {"preset": "argentine", "best_of": 1},
        "teams": {"A": ["ana"], "B": ["beto"]},
        "seats": ["ana", "beto"],
    }
    state = scoring.score_match_result(
        {
            **head,
            "hands": [
                {
                    "events": [
                        {"by": "ana", "call": "falta_envido"},
                        {"by": "beto", "answer": "quiero"},
                        {"envido_winner": "A"},
                    ]
                }
            ],
        }
    ).state
    view = json.loads(handle(json.dumps({"op": "open", "head": head, "state": state.to_dict()})))
    assert view["over"] is True
    assert json.loads(handle('{"op": "undo"}'))["over"] is True
