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


PAIRS_HEAD = {
    "rules": "argentine",
    "teams": {"A": ["ana", "alba"], "B": ["beto", "bruno"]},
    "seats": ["ana", "beto", "alba", "bruno"],
}


def test_the_sides_keep_team_order_with_the_mano_and_the_mazo_marked():
    session = Session(PAIRS_HEAD, None)
    view = session.run({"op": "event", "event": {"by": "alba", "mazo": True}})
    assert view["sides"] == {
        "A": [
            {"player": "ana", "mano": True, "folded": False},
            {"player": "alba", "mano": False, "folded": True},
        ],
        "B": [
            {"player": "beto", "mano": False, "folded": False},
            {"player": "bruno", "mano": False, "folded": False},
        ],
    }
    # One player of side A left: his own mazo button does it, no team button for A.
    teams = {a["side"]: a["event"] for a in view["actions"] if a["group"] == "team_mazo"}
    assert teams == {"B": [{"by": "beto", "mazo": True}, {"by": "bruno", "mazo": True}]}


def test_a_team_goes_to_the_mazo_in_one_step_and_undo_takes_back_one_event():
    session = Session(PAIRS_HEAD, None)
    (team,) = [
        a["event"]
        for a in session.view()["actions"]
        if a["group"] == "team_mazo" and a["side"] == "B"
    ]
    view = session.run({"op": "event", "event": team})
    assert view["error"] is None and view["ready"] and view["score"] == {"A": 2, "B": 0}
    assert view["draft"] == {"events": team}
    assert session.run({"op": "undo"})["draft"] == {"events": team[:1]}


def test_a_list_of_events_is_taken_whole_or_not_at_all():
    session = Session(PAIRS_HEAD, None)
    session.run({"op": "event", "event": {"by": "ana", "call": "truco"}})
    view = session.run(
        {"op": "event", "event": [{"by": "beto", "mazo": True}, {"by": "nobody", "mazo": True}]}
    )
    assert view["error"] is not None
    assert view["draft"] == {"events": [{"by": "ana", "call": "truco"}]}
    assert session.run({"op": "event", "event": []})["error"]["code"] == "bad_draft"


def test_a_restart_is_undone_by_restoring_the_hand_kept_before_it():
    session = Session(PAIRS_HEAD, None)
    before = session.run({"op": "event", "event": {"by": "ana", "call": "truco"}})["draft"]
    assert session.run({"op": "reset"})["draft"] == {"events": []}
    view = session.run({"op": "restore", "draft": before})
    assert view["error"] is None and view["draft"] == before
    # A kept hand the rules refuse leaves the entry as it was.
    view = session.run({"op": "restore", "draft": {"events": [{"trick": "Z"}]}})
    assert view["error"] is not None and view["draft"] == before


def test_card_by_card_the_cards_dealt_are_given_and_no_trick_button_is_offered():
    session = Session(
        {**PAIRS_HEAD, "teams": {"A": ["ana"], "B": ["beto"]}, "seats": ["ana", "beto"]},
        None,
        plays=True,
    )
    view = session.run({"op": "cards", "cards": {"ana": ["7E", "6E", "1O"]}})
    assert view["error"] is None and view["given_cards"] == {"ana": ["7E", "6E", "1O"]}
    assert view["to_play"] == "ana"
    assert not [a for a in view["actions"] if a["group"] == "trick"]
    plays = [a["event"]["play"] for a in view["actions"] if a["group"] == "play"]
    assert plays == ["7E", "6E", "1O"]
