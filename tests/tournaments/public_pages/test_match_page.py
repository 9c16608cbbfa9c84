"""The match page a spectator follows: its running score (malas and buenas, or jocs and
the mestre), each hand told with its calls, the hand in play from the tablet's draft,
and the score chart."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.conftest import clear_own_cache
from tests.tournaments.public_pages.conftest import html_of, penalty_hand, scores, singles
from tournaments.models import HandDraft, Match
from tournaments.results import records, story
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services


def keys(match: Match) -> tuple[str, str]:
    """The record keys of side A's and side B's player."""
    match = result_selectors.match_detail(pk=match.pk)
    return records.team_keys(match.team_a)[0], records.team_keys(match.team_b)[0]


def next_mano(match: Match) -> str:
    match = result_selectors.match_detail(pk=match.pk)
    state = records.stored_state(match, match.hands.count())
    return state.next_hand(records.match_head(match)).mano


def page(client, match: Match, language: str = "en") -> str:
    url = reverse("tournaments:match", args=[match.stage.championship.slug, match.pk])
    return html_of(client.get(url, HTTP_ACCEPT_LANGUAGE=language))


def test_the_headline_is_the_running_score_with_malas_buenas_and_the_mano(client, referee):
    match = singles()
    result_services.hand_record(
        match=match, record=penalty_hand(match, "A", 16), recorded_by=referee
    )
    result_services.hand_record(
        match=match, record=penalty_hand(match, "B", 5), recorded_by=referee
    )
    match.refresh_from_db()
    state = match.state
    html = page(client, match)
    # The engine's running score of the chico, not the chicos (still 0-0).
    assert scores(html) == {"A": str(state["score"]["A"]), "B": str(state["score"]["B"])}
    assert state["score"]["A"] >= 15 > state["score"]["B"]
    assert f"{state['score']['A'] - 15} buenas" in html
    assert f"{state['score']['B']} malas" in html
    assert re.findall(r'data-games-side="([AB])">(\d+)<', html) == [("A", "0"), ("B", "0")]
    mano = {"Eliana": keys(match)[0], "Ivan": keys(match)[1]}
    mano_name = next(name for name, key in mano.items() if key == next_mano(match))
    assert f"{mano_name} is mano" in html


def test_each_hand_is_told_with_its_calls_answers_and_points(client, referee):
    match = singles()
    eliana, ivan = keys(match)
    assert next_mano(match) == eliana
    hand = {
        "events": [
            {"by": eliana, "call": "real_envido"},
            {"by": ivan, "answer": "no_quiero"},
            {"by": eliana, "call": "truco"},
            {"by": ivan, "call": "retruco"},
            {"by": eliana, "call": "vale_cuatro"},
            {"by": ivan, "answer": "quiero"},
            {"trick": "B"},
            {"trick": "B"},
        ]
    }
    result_services.hand_record(match=match, record=hand, recorded_by=referee)
    text = re.sub(r"<[^>]+>", "", page(client, match))
    text = re.sub(r"\s+", " ", text)
    assert "Eliana: real envido, Ivan: no quiero — Eliana +1" in text
    assert (
        "Eliana: truco, Ivan: retruco, Eliana: vale cuatro, Ivan: quiero, trick 1 to Ivan, "
        "trick 2 to Ivan — Ivan +4"
    ) in text
    # The same in Spanish, with the game's own words.
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page(client, match, "es")))
    assert "Eliana: real envido, Ivan: no quiero — Eliana +1" in text
    assert "Mano a mano" in text


def test_a_stored_hand_is_told_by_the_engine_once(client, referee, admin_user, monkeypatch):
    """The page of a long match is rendered again after each hand: only the new hand (or
    one whose record, names or language changed) is scored by the engine again."""
    clear_own_cache()
    match = singles()
    for side in "ABA":
        hand = {"events": [{"trick": side}, {"trick": side}]}
        result_services.hand_record(match=match, record=hand, recorded_by=referee)
    told = []
    original = story._told

    def counted(record, names, tricks):
        told.append(record["score"])
        return original(record, names, tricks)

    monkeypatch.setattr(story, "_told", counted)
    page(client, match)
    assert len(told) == 3
    told.clear()
    page(client, match)
    assert told == []

    hand = {"events": [{"trick": "B"}, {"trick": "B"}]}
    result_services.hand_record(match=match, record=hand, recorded_by=referee)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page(client, match)))
    assert len(told) == 1
    assert text.count("trick 2 to Ivan — Ivan +1") == 2

    told.clear()
    page(client, match, "es")  # the segments are words: each language has its own
    assert len(told) == 4

    # Hand 2 corrected: it and the hands after it (their score before changed) anew.
    told.clear()
    second = match.hands.get(number=2)
    result_services.hand_correct(
        hand=second,
        record={"events": [{"trick": "A"}, {"trick": "A"}]},
        corrected_by=admin_user,
        reason="wrong side",
    )
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page(client, match)))
    assert len(told) == 3
    assert text.count("trick 2 to Eliana — Eliana +1") == 3

    # A player renamed: every hand is told with the new name.
    told.clear()
    player = match.team_a.memberships.get().player
    player.name = "Eli"
    player.save()
    page(client, match)
    assert len(told) == 4


def test_a_hand_won_without_calls_is_won_on_the_tricks(client, referee):
    match = singles()
    hand = {"events": [{"trick": "A"}, {"trick": "A"}]}
    result_services.hand_record(match=match, record=hand, recorded_by=referee)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page(client, match)))
    assert "trick 1 to Eliana, trick 2 to Eliana — Eliana +1" in text


def test_the_hand_in_progress_is_shown_from_the_tablets_draft(client, referee):
    match = singles()
    result_services.hand_record(
        match=match, record=penalty_hand(match, "A", 3), recorded_by=referee
    )
    mano = next_mano(match)
    other = next(k for k in keys(match) if k != mano)
    names = {keys(match)[0]: "Eliana", keys(match)[1]: "Ivan"}
    HandDraft.objects.create(
        match=match,
        number=2,
        record={
            "events": [
                {"by": mano, "call": "envido"},
                {"by": other, "answer": "quiero"},
                # Refused by the engine (the envido is answered): shown up to here.
                {"by": other, "answer": "quiero"},
            ]
        },
    )
    html = page(client, match)
    assert "Hand 2, in play" in html
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))
    assert f"{names[mano]}: envido, {names[other]}: quiero" in text
    assert f"{names[other]}: quiero, {names[other]}: quiero" not in text


@pytest.mark.parametrize(
    "record",
    [{"events": "not a list"}, {"events": [{"by": "nobody", "call": "truco"}]}, {"events": [7]}],
    ids=["not-a-list", "unknown-player", "not-an-event"],
)
def test_a_draft_the_engine_refuses_never_breaks_the_page(client, referee, record):
    match = singles()
    HandDraft.objects.create(match=match, number=1, record=record)
    html = page(client, match)
    assert "Hand by hand" in html


def test_a_stale_draft_is_not_shown(client, referee):
    match = singles()
    result_services.hand_record(
        match=match, record=penalty_hand(match, "A", 3), recorded_by=referee
    )
    eliana, _ivan = keys(match)
    HandDraft.objects.create(
        match=match, number=1, record={"events": [{"by": eliana, "call": "envido"}]}
    )
    assert ", in play" not in page(client, match)


def test_a_catalan_championship_speaks_of_jocs_and_the_mestre_in_every_language(client, referee):
    match = singles(names=("Anna", "Biel"), rules={"preset": "catalan"})
    result_services.hand_record(
        match=match, record=penalty_hand(match, "A", 10), recorded_by=referee
    )
    match.refresh_from_db()
    assert match.state["score"]["A"] == 11  # the engine's mazo in catalan is worth 1
    for language in ("en", "es", "ca"):
        html = page(client, match, language)
        assert scores(html) == {"A": "11", "B": "0"}
        assert "mestre" in html
        assert "jocs" in html
        assert "chico" not in html.lower()
        assert "malas" not in html and "buenas" not in html


def test_a_finished_match_headline_is_the_chicos_won(client, db, play_match):
    match = singles()
    play_match(match, match.team_b)
    match.refresh_from_db()
    html = page(client, match)
    assert scores(html) == {"A": str(match.chicos_a), "B": str(match.chicos_b)}
    assert "Final result" in html


@pytest.mark.parametrize("language", ["es", "ca", "en"])
def test_the_score_charts_numbers_are_never_written_the_readers_way(client, referee, language):
    """Spanish and Catalan write 60,0 for 60.0: in an SVG coordinate that drew the
    malas/buenas line at the top."""
    match = singles()
    result_services.hand_record(
        match=match, record=penalty_hand(match, "A", 4), recorded_by=referee
    )
    html = page(client, match, language)
    half = re.search(r'<line class="chart__half"[^>]*y1="([^"]+)"', html)
    assert half is not None
    assert half.group(1) == "60.0"  # half of 120 px: 15 of 30 points
    points = re.findall(r'points="([^"]+)"', html)
    assert points and all(re.fullmatch(r"[0-9.]+,[0-9.]+( [0-9.]+,[0-9.]+)*", p) for p in points)
