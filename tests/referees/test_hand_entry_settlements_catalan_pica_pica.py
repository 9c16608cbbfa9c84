"""Envido settlements, catalan truc (cap de colla, rule of 11) and pica-pica at the table."""

from __future__ import annotations

import re

from tests.referees.conftest import key, make_match
from tournaments.models import Hand
from tournaments.results import services as result_services


def test_an_accepted_envido_settled_by_the_referees_word(started, tablet):
    page = tablet(started)
    page.tap("Ana calls envido")
    page.tap("Beto: quiero")
    assert "Who won the envido?" in page.page
    page.tap("Envido to Beto and Bruno")
    assert "Who won the envido?" not in page.page
    page.tap("Trick to Ana and Alba")
    page.tap("Trick to Ana and Alba")
    page.save()
    hand = Hand.objects.get()
    # Envido accepted: 2 to Beto's side; the hand without truco: 1 to Ana's.
    assert (hand.points_a, hand.points_b) == (1, 2)
    assert hand.record["events"][2] == {"envido_winner": "B"}


def test_an_accepted_envido_settled_by_declared_points(started, tablet):
    page = tablet(started)
    page.tap("Beto calls real envido")
    page.tap("Alba: quiero")
    page.op(
        "envido", **{f"envido-{key(started, 'Ana')}": "27", f"envido-{key(started, 'Beto')}": "31"}
    )
    assert "Envido declared: Ana 27, Beto 31" in page.page
    page.tap("Trick to Beto and Bruno")
    page.tap("Trick to Beto and Bruno")
    page.save()
    hand = Hand.objects.get()
    assert (hand.points_a, hand.points_b) == (0, 4)  # real envido 3, the hand 1


def test_declared_points_out_of_range_are_refused_on_the_form(started, tablet):
    page = tablet(started)
    page.tap("Ana calls envido")
    page.tap("Beto: quiero")
    page.op("envido", **{f"envido-{key(started, 'Ana')}": "40"})
    assert "Ensure this value is less than or equal to 33." in page.page
    assert len(page.events["events"]) == 2


def test_a_penalty_and_a_void_hand(started, tablet):
    page = tablet(started)
    page.op("penalty", **{"penalty-side": "B", "penalty-points": "2", "penalty-reason": "Señas"})
    assert "Penalty of 2 to Las Flores: Señas" in page.page
    page.op("void", **{"void-reason": "Mal repartida"})
    assert "Hand void: Mal repartida" in page.page
    page.save()
    hand = Hand.objects.get()
    assert hand.status == "void"
    assert (hand.points_a, hand.points_b) == (0, 2)
    assert "Mano: Ana" in page.page  # a void hand keeps the mano


CATALAN = {
    "rules": {"preset": "catalan"},
    "teams": (("Anna", "Arnau"), ("Biel", "Berta")),
    "team_names": ("Colla del Pi", "Colla del Mar"),
    "captains": ("Anna", "Biel"),
}


def test_catalan_the_cap_de_colla_answers_and_the_mestre_decides(referee, tablet):
    match = make_match(referee=referee, **CATALAN)
    result_services.match_start(match=match)
    page = tablet(match)
    page.tap("Arnau calls truc")
    assert "Biel: quiero" in page.buttons()
    assert "Berta: quiero" not in page.buttons()  # only the cap de colla answers
    page.tap("Biel: quiero")
    page.tap("Trick to Anna and Arnau")
    page.tap("Trick to Anna and Arnau")
    page.save()
    assert Hand.objects.get(number=1).points_a == 2

    # Colla del Pi reaches 11 (a penalty in a voided hand): the rule of 11 applies.
    result_services.hand_record(
        match=match,
        record={"events": [{"penalty": {"to": "A", "points": 9, "reason": "x"}}, {"void": "y"}]},
        recorded_by=referee,
    )
    page.open()
    assert set(page.buttons()) == {"Anna: the mestre plays", "Anna: the mestre passes"}
    # The score says so in the rule book's words, on the mestre's side.
    assert '<p class="scoreboard__half" data-half-side="A">mestre del joc</p>' in page.raw
    assert '<p class="scoreboard__half" data-half-side="B" hidden></p>' in page.raw
    assert "scoreboard__side--A scoreboard__side--mestre" in page.raw
    page.tap("Anna: the mestre passes")
    page.save()
    hand = Hand.objects.get(number=3)
    assert (hand.points_a, hand.points_b) == (0, 1)
    assert hand.record["events"] == [{"by": key(match, "Anna"), "mestre": "pass"}]


SIX = {
    "teams": (("Ana", "Alba", "Aurora"), ("Beto", "Bruno", "Blas")),
}


def test_a_pica_pica_hand_with_three_pairs(referee, tablet):
    match = make_match(referee=referee, **SIX)
    result_services.match_start(match=match)
    page = tablet(match)
    assert "pica-pica" not in page.page  # each chico opens with a redondo hand
    page.tap("Trick to Ana, Alba and Aurora")
    page.tap("Trick to Ana, Alba and Aurora")
    page.save()

    assert "Pica-pica: choose who faces whom." in page.page
    ana, alba, aurora = (key(match, n) for n in ("Ana", "Alba", "Aurora"))
    beto, bruno, blas = (key(match, n) for n in ("Beto", "Bruno", "Blas"))
    pairs = {
        "pairs-mano_0": beto,
        "pairs-rival_0": ana,
        "pairs-mano_1": alba,
        "pairs-rival_1": bruno,
        "pairs-mano_2": blas,
        "pairs-rival_2": aurora,
    }
    page.op("pairs", **pairs)
    assert "Pair 1 of 3" in page.page
    page.tap("Beto calls truco")
    page.tap("Ana: quiero")
    page.tap("Trick to Beto")
    page.tap("Trick to Beto")
    assert "Save hand" not in page.page
    page.op("next_pair")
    assert "Pair 2 of 3" in page.page
    page.tap("Bruno goes to the mazo")
    page.op("next_pair")
    page.tap("Trick to Aurora")
    page.tap("Trick to Aurora")
    assert "Pair 3: Blas – Aurora" in page.page
    page.save()

    hand = Hand.objects.get(number=2)
    assert [sub["order"] for sub in hand.record["pica_pica"]] == [
        [beto, ana],
        [alba, bruno],
        [blas, aurora],
    ]
    # Beto's accepted truco: 2 to B. Bruno folds before the first trick with nothing
    # called: 1 and the envido point to A. Aurora's two tricks: 1 to A.
    assert (hand.points_a, hand.points_b) == (3, 2)
    assert (hand.score_a, hand.score_b) == (4, 2)
    assert '<p class="scoreboard__points" data-side="A">4</p>' in page.raw


def test_pairs_must_seat_every_player_once_against_an_opponent(referee, tablet):
    match = make_match(referee=referee, **SIX)
    result_services.match_start(match=match)
    result_services.hand_record(
        match=match, record={"events": [{"trick": "A"}, {"trick": "A"}]}, recorded_by=None
    )
    page = tablet(match)
    ana, alba, aurora = (key(match, n) for n in ("Ana", "Alba", "Aurora"))
    beto, bruno, blas = (key(match, n) for n in ("Beto", "Bruno", "Blas"))
    same_side = {
        "pairs-mano_0": ana,
        "pairs-rival_0": alba,
        "pairs-mano_1": aurora,
        "pairs-rival_1": beto,
        "pairs-mano_2": bruno,
        "pairs-rival_2": blas,
    }
    page.op("pairs", status=400, **same_side)
    assert "Each player must be in exactly one pair, facing an opponent." in page.page
    assert Hand.objects.count() == 1


def test_the_default_pairs_face_opponents_and_can_be_recorded_as_offered(referee, tablet):
    match = make_match(referee=referee, **SIX)
    result_services.match_start(match=match)
    result_services.hand_record(
        match=match, record={"events": [{"trick": "A"}, {"trick": "A"}]}, recorded_by=None
    )
    page = tablet(match)
    offered = {}
    for name, body in re.findall(
        r'<select name="(pairs-[a-z]+_\d)"[^>]*>(.*?)</select>', page.raw, re.S
    ):
        (offered[name],) = re.findall(r'<option value="(p\d+)" selected>', body)
    assert len(offered) == 6
    side_a = {key(match, n) for n in ("Ana", "Alba", "Aurora")}
    for i in range(3):
        assert (offered[f"pairs-mano_{i}"] in side_a) != (offered[f"pairs-rival_{i}"] in side_a)
    assert offered["pairs-mano_0"] == key(match, "Beto")  # the hand's mano leads pair 1
    # The tablet's script gets the same pairs in the page's context.
    assert page.context["pairs"][0] == [key(match, "Beto"), offered["pairs-rival_0"]]
    assert page.context["next_hand"]["kind"] == "pica_pica"
    page.op("pairs", **offered)
    assert "Pair 1 of 3" in page.page
    assert page.context["pairs"] is None  # chosen: in the draft now
    assert len(page.context["draft"]["record"]["pica_pica"]) == 3
