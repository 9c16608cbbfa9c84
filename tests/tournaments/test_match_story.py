"""A hand told to spectators on the match page: the tricks (who took each one, or parda),
the folds per side, and the rule of 11 in words, all from the engine's answers."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.models import Match
from tournaments.results import records
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services


@pytest.fixture(autouse=True)
def no_language_left_behind():
    yield
    translation.deactivate()


def started(size: int, names: tuple[str, str] = ("Los Anchos", "La Parda"), **rules) -> Match:
    """A started match between two teams of ``size`` players, named A1, A2... and B1...
    (one player a side: named as his team)."""
    running = ChampionshipFactory(team_size=size, rules={"preset": "argentine", **rules})
    for letter, name in zip("AB", names, strict=True):
        team = TeamFactory(championship=running, name=name)
        for number, membership in enumerate(team.memberships.order_by("order"), start=1):
            membership.player.name = name if size == 1 else f"{letter}{number}"
            membership.player.save()
    stage = stage_services.stage_create(championship=running, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    return result_services.match_start(match=match)


def next_order(match: Match) -> list[str]:
    """The next hand's players in playing order (record keys), the mano first."""
    match = result_selectors.match_detail(pk=match.pk)
    state = records.stored_state(match, match.hands.count())
    return list(state.next_hand(records.match_head(match)).order)


def sides(match: Match) -> dict[str, str]:
    """Record key -> "A" or "B"."""
    match = result_selectors.match_detail(pk=match.pk)
    return {
        **dict.fromkeys(records.team_keys(match.team_a), "A"),
        **dict.fromkeys(records.team_keys(match.team_b), "B"),
    }


def told(client, match: Match) -> str:
    """The match page's text, tags and repeated spaces gone."""
    url = reverse("tournaments:match", args=[match.stage.championship.slug, match.pk])
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", response.content.decode()))


def test_each_trick_is_told_with_who_took_it_or_parda(client, referee):
    match = started(1, names=("Eliana", "Ivan"))
    hand = {"events": [{"trick": "parda"}, {"trick": "B"}]}
    result_services.hand_record(match=match, record=hand, recorded_by=referee)
    assert "trick 1: parda (tied), trick 2 to Ivan — Ivan +1" in told(client, match)


def test_card_by_card_a_trick_names_its_side_the_player_and_the_card(client, referee):
    match = started(2)
    order, side = next_order(match), sides(match)
    mano = order[0]
    partner = next(p for p in order[1:] if side[p] == side[mano])
    rivals = [p for p in order if side[p] != side[mano]]
    hands = {mano: ["4C", "5C", "6C"], partner: ["1E", "5O", "6O"]}
    hands |= {rivals[0]: ["4O", "5B", "6B"], rivals[1]: ["4B", "5E", "6E"]}
    events = [{"by": player, "play": hands[player][0]} for player in order]
    # The partner's 1 of swords took the first trick; then the rivals fold, one by one.
    events += [{"by": rivals[0], "mazo": True}, {"by": rivals[1], "mazo": True}]
    result_services.hand_record(
        match=match, record={"cards": hands, "events": events}, recorded_by=referee
    )
    names = records.names(result_selectors.match_detail(pk=match.pk))
    team, other = names[side[mano]], names[side[rivals[0]]]
    text = told(client, match)
    assert (
        f"trick 1 to {team}: {names[partner]} with the 1 of swords, "
        f"{other}: the whole side to the mazo — {team} +1"
    ) in text
    # The side's concession is told once, not a line per player.
    assert f"{names[rivals[0]]}: to the mazo" not in text


def test_a_sides_folds_between_two_tricks_are_one_step(client, referee):
    match = started(3, pica_pica=False)
    order, side = next_order(match), sides(match)
    folding = [p for p in order if side[p] == "B"][1:]
    events = [
        *({"by": player, "mazo": True} for player in folding),
        {"trick": "A"},
        {"trick": "A"},
    ]
    result_services.hand_record(match=match, record={"events": events}, recorded_by=referee)
    names = records.names(result_selectors.match_detail(pk=match.pk))
    first, second = (names[p] for p in folding)
    assert (
        f"{first} and {second}: to the mazo, trick 1 to Los Anchos, trick 2 to Los Anchos"
        " — Los Anchos +1"
    ) in told(client, match)


def test_the_mestre_is_told_as_a_side_at_11_choosing_to_play(client, referee):
    match = started(1, names=("Anna", "Biel"), preset="catalan")
    side = sides(match)
    anna, biel = (next(p for p in side if side[p] == letter) for letter in "AB")
    # 10 points of penalty and Biel's mazo (1 in catalan): Anna's side is at 11.
    first = {
        "events": [
            {"penalty": {"to": "A", "points": 10, "reason": "test"}},
            {"by": biel, "mazo": True},
        ]
    }
    result_services.hand_record(match=match, record=first, recorded_by=referee)
    second = {"events": [{"by": anna, "mestre": "play"}, {"trick": "A"}, {"trick": "A"}]}
    result_services.hand_record(match=match, record=second, recorded_by=referee)
    assert (
        "Anna is mestre at 11: Anna chooses to play (no calls), donada 1 to Anna, "
        "donada 2 to Anna — Anna +3"
    ) in told(client, match)
