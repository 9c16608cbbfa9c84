"""Ratings: every decided match rates the people who played it (OpenSkill, Plackett-Luce);
a correction rates again from that match on; the rebuild gives the same numbers."""

import math
import random

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.conftest import play
from tests.tournaments.factories import ChampionshipFactory, PersonFactory, TeamFactory
from tournaments import tasks
from tournaments.models import Match, Membership, Player, Rating, RatingChange
from tournaments.ratings import services as rating_services
from tournaments.ratings import skill
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services

pytestmark = pytest.mark.django_db


def plackett_luce_two(winner, loser):
    """One player against one, written out from Weng and Lin's algorithm 4 with this
    project's parameters (beta 25/6, tau 25/300): not OpenSkill's code."""
    beta, tau = 25 / 6, 25 / 300
    (mu_w, sigma_w), (mu_l, sigma_l) = winner, loser
    var_w, var_l = sigma_w**2 + tau**2, sigma_l**2 + tau**2
    c = math.sqrt(var_w + var_l + 2 * beta**2)
    p_w = math.exp(mu_w / c) / (math.exp(mu_w / c) + math.exp(mu_l / c))
    p_l = 1 - p_w
    # gamma = sqrt(team variance) / c, the model's default
    delta_w = math.sqrt(var_w) / c * var_w / c**2 * p_w * p_l
    delta_l = math.sqrt(var_l) / c * var_l / c**2 * p_l * p_w
    return (
        (mu_w + var_w / c * p_l, math.sqrt(var_w) * math.sqrt(1 - delta_w)),
        (mu_l - var_l / c * p_l, math.sqrt(var_l) * math.sqrt(1 - delta_l)),
    )


def played_through(championship, matches, winners, capture):
    """Play ``matches`` in order (winner of each by side), their rating tasks run on commit."""
    for match, side in zip(matches, winners, strict=True):
        with capture(execute=True):
            play(match, match.team_a if side == "A" else match.team_b)


def snapshot():
    ratings = sorted(
        Rating.objects.values_list("person_id", "family", "mu", "sigma", "matches", "last_match")
    )
    changes = sorted(
        RatingChange.objects.values_list(
            "person_id",
            "match_id",
            "number",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
        )
    )
    return ratings, changes


def singles(count=2, **kwargs):
    championship = ChampionshipFactory(team_size=1, **kwargs)
    teams = [TeamFactory(championship=championship) for _ in range(count)]
    return championship, teams


def person_of(team):
    return Membership.objects.get(team=team).player.person


def test_two_matches_rated_as_computed_by_hand(django_capture_on_commit_callbacks):
    championship, (ana, beto) = singles()
    stage = stage_services.stage_create(
        championship=championship, format="round_robin", settings={"cycles": 2}
    )
    (first,) = stage_services.round_generate(stage=stage)
    played_through(
        championship,
        [first],
        ["A" if first.team_a == ana else "B"],
        django_capture_on_commit_callbacks,
    )
    (second,) = stage_services.round_generate(stage=stage)
    played_through(
        championship,
        [second],
        ["A" if second.team_a == ana else "B"],
        django_capture_on_commit_callbacks,
    )

    # By hand: equal newcomers (25, 8.333), c = sqrt(2 (8.3338² + 4.1667²)) = 13.177, each
    # side 1/2 likely: the winner gains 8.3338² / c / 2 = 2.635.
    a1, b1 = plackett_luce_two((25, 25 / 3), (25, 25 / 3))
    assert a1[0] == pytest.approx(27.6354, abs=1e-4)
    assert b1[0] == pytest.approx(22.3646, abs=1e-4)
    assert a1[1] == pytest.approx(8.0659, abs=1e-4)
    a2, b2 = plackett_luce_two(a1, b1)
    assert a2[0] < a1[0] + (a1[0] - 25)  # the favourite gains less the second time

    ana_rating = Rating.objects.get(person=person_of(ana))
    beto_rating = Rating.objects.get(person=person_of(beto))
    assert (ana_rating.mu, ana_rating.sigma) == pytest.approx(a2, abs=1e-9)
    assert (beto_rating.mu, beto_rating.sigma) == pytest.approx(b2, abs=1e-9)
    assert (ana_rating.matches, ana_rating.last_match_id) == (2, second.pk)
    assert ana_rating.family == "argentine"
    history = RatingChange.objects.filter(person=person_of(ana)).order_by("number")
    assert [(c.mu_before, c.mu_after) for c in history] == pytest.approx(
        [(25, a1[0]), (a1[0], a2[0])]
    )
    # What people read: 1000 + 40 × (mu − 3 sigma)
    assert skill.shown(ana_rating.mu, ana_rating.sigma) == round(1000 + 40 * (a2[0] - 3 * a2[1]))


def decided(match, side):
    """A catalan match decided as if played (the test hands sing envido, which catalan
    truc has not): the fields the ratings read, then its rating task."""
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.FINISHED,
        outcome=Match.Outcome.PLAYED,
        winner=match.team_a if side == "A" else match.team_b,
        finished_at=timezone.now(),
    )
    tasks.rate_match(match.pk)


def round_robin_played(capture, *, teams=4, size=2, seed=7, preset="argentine"):
    rules = {"preset": preset}
    if preset == "argentine":
        rules["falta_envido"] = "whole_chico"
    championship = ChampionshipFactory(team_size=size, rules=rules)
    field = [TeamFactory(championship=championship) for _ in range(teams)]
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    chance = random.Random(seed)
    matches = []
    for _ in range(teams - 1):
        for match in stage_services.round_generate(stage=stage):
            if match.team_b_id is not None:
                if preset == "catalan":
                    decided(match, chance.choice("AB"))
                else:
                    played_through(championship, [match], [chance.choice("AB")], capture)
                matches.append(match)
    return championship, field, matches


def test_rebuild_is_deterministic_and_equals_the_incremental_updates(
    django_capture_on_commit_callbacks,
):
    round_robin_played(django_capture_on_commit_callbacks, teams=4)
    round_robin_played(django_capture_on_commit_callbacks, teams=4, size=1, preset="catalan")
    incremental = snapshot()
    assert len(incremental[1]) == 6 * 4 + 6 * 2
    assert {f for _p, f, *_ in incremental[0]} == {"argentine", "catalan"}

    assert rating_services.ratings_rebuild() == {"argentine": 6, "catalan": 6}
    assert snapshot() == incremental  # exactly: the same floats
    rating_services.ratings_rebuild()
    assert snapshot() == incremental


def test_a_match_rated_once_however_often_its_task_runs(django_capture_on_commit_callbacks):
    _championship, _teams, matches = round_robin_played(django_capture_on_commit_callbacks)
    before = snapshot()
    assert tasks.rate_match(matches[0].pk) == 0
    assert tasks.rate_match(matches[-1].pk) == 0
    assert snapshot() == before


def test_a_corrected_result_rates_every_later_match_again(django_capture_on_commit_callbacks):
    championship, (ana, beto) = singles()
    stage = stage_services.stage_create(
        championship=championship, format="round_robin", settings={"cycles": 2}
    )
    (first,) = stage_services.round_generate(stage=stage)
    ana_side = "A" if first.team_a == ana else "B"
    played_through(championship, [first], [ana_side], django_capture_on_commit_callbacks)
    (second,) = stage_services.round_generate(stage=stage)
    played_through(
        championship,
        [second],
        ["A" if second.team_a == ana else "B"],
        django_capture_on_commit_callbacks,
    )
    ana_person = person_of(ana)
    was = Rating.objects.get(person=ana_person).mu

    # The referee gave the last chico of the first match to the wrong side: corrected, the
    # first match is Beto's, and the second is rated again after it.
    last = first.hands.order_by("number").last()
    record = dict(last.record)
    record["events"] = [
        {**e, "envido_winner": "B" if e["envido_winner"] == "A" else "A"}
        if "envido_winner" in e
        else e
        for e in record["events"]
    ]
    with django_capture_on_commit_callbacks(execute=True):
        result_services.hand_correct(
            hand=last, record=record, corrected_by=None, reason="wrong side"
        )
    first.refresh_from_db()
    assert first.winner == beto

    a1_loss, b1_win = (lambda won, lost: (lost, won))(
        *plackett_luce_two((25, 25 / 3), (25, 25 / 3))
    )
    a2, _b2 = plackett_luce_two(a1_loss, b1_win)
    now = Rating.objects.get(person=ana_person)
    assert (now.mu, now.sigma) == pytest.approx(a2, abs=1e-9)
    assert now.mu != pytest.approx(was)
    changes = RatingChange.objects.filter(person=ana_person).order_by("number")
    assert [(c.match_id, c.won) for c in changes] == [(first.pk, False), (second.pk, True)]
    assert changes[1].mu_before == changes[0].mu_after
    incremental = snapshot()
    rating_services.ratings_rebuild()
    assert snapshot() == incremental


def test_a_result_undecided_again_is_no_longer_rated(django_capture_on_commit_callbacks):
    _championship, _teams, matches = round_robin_played(django_capture_on_commit_callbacks)
    first = matches[0]
    with django_capture_on_commit_callbacks(execute=True):
        result_services.hand_delete_last(match=first, reason="not over")
    assert not RatingChange.objects.filter(match=first).exists()
    # Each player's later matches are counted from one again where the first was his first.
    for change in RatingChange.objects.filter(match=matches[1]):
        assert (
            change.number
            == RatingChange.objects.filter(
                person=change.person, decided_at__lte=change.decided_at
            ).count()
        )
    incremental = snapshot()
    rating_services.ratings_rebuild()
    assert snapshot() == incremental


def test_walkovers_and_byes_are_not_rated(django_capture_on_commit_callbacks):
    championship, _teams = singles(count=3)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    matches = stage_services.round_generate(stage=stage)
    bye = next(m for m in matches if m.team_b_id is None)
    match = next(m for m in matches if m.team_b_id is not None)
    with django_capture_on_commit_callbacks(execute=True):
        result_services.match_walkover(match=match, winner=match.team_a, reason="no show")
    assert tasks.rate_match(match.pk) == 0
    assert tasks.rate_match(bye.pk) == 0
    assert not Rating.objects.exists()
    assert not RatingChange.objects.exists()
    assert rating_services.ratings_rebuild() == {"argentine": 0, "catalan": 0}


def test_the_line_up_that_played_is_rated_not_the_team_of_today(
    django_capture_on_commit_callbacks,
):
    championship, _teams = singles()
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    played_through(championship, [match], ["A"], django_capture_on_commit_callbacks)
    player_a = Membership.objects.get(team=match.team_a).player
    # Later the team's player is replaced: the match still rates whoever played it.
    newcomer = Player.objects.create(name="Nuevo", person=PersonFactory())
    Membership.objects.filter(team=match.team_a).update(player=newcomer)
    rating_services.ratings_rebuild()
    assert Rating.objects.filter(person=player_a.person, matches=1).exists()
    assert not Rating.objects.filter(person=newcomer.person).exists()


def test_the_rebuild_command_says_what_it_rated(django_capture_on_commit_callbacks, capsys):
    round_robin_played(django_capture_on_commit_callbacks, teams=4)
    call_command("ratings_rebuild")
    out = capsys.readouterr().out
    assert "6 matches rated" in out
    assert "argentine" in out.lower()


def test_seeding_by_rating_puts_the_strongest_first(django_capture_on_commit_callbacks):
    _old, _teams, _matches = round_robin_played(django_capture_on_commit_callbacks, teams=4)
    best = Rating.objects.order_by("-ordinal").first().person
    worst = Rating.objects.order_by("ordinal").first().person
    cup = ChampionshipFactory(team_size=1)
    unknown = TeamFactory(championship=cup, name="A sin rating", seed=1)
    strong = TeamFactory(championship=cup, name="B fuerte", seed=3)
    weak = TeamFactory(championship=cup, name="C débil", seed=2)
    Membership.objects.filter(team=strong).update(
        player=Player.objects.create(name="X", person=best)
    )
    Membership.objects.filter(team=weak).update(
        player=Player.objects.create(name="Y", person=worst)
    )
    ranked = rating_services.teams_seed_by_rating(championship=cup, by=None)
    assert [t.pk for t in ranked] == [strong.pk, weak.pk, unknown.pk]
    strong.refresh_from_db()
    unknown.refresh_from_db()
    assert (strong.seed, unknown.seed) == (1, 3)


def test_seeding_by_rating_refused_once_teams_have_matches():
    championship, _teams = singles()
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    stage_services.round_generate(stage=stage)
    with pytest.raises(Exception) as refused:
        rating_services.teams_seed_by_rating(championship=championship, by=None)
    assert getattr(refused.value, "code", None) == "seed_locked"
    assert Match.objects.count() == 1


def test_a_swiss_first_round_pairs_by_the_seeds():
    championship = ChampionshipFactory(team_size=1)
    for seed in (3, 1, 8, 4, 7, 2, 6, 5):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="swiss")
    matches = stage_services.round_generate(stage=stage)
    seeds = sorted(sorted((m.team_a.seed, m.team_b.seed)) for m in matches)
    # The top half meets the bottom half in seed order (not drawn by lots).
    assert seeds == [[1, 5], [2, 6], [3, 7], [4, 8]]


def test_a_merge_rates_the_matches_of_both_records_as_one_person(
    client, django_capture_on_commit_callbacks
):
    """Two records of one human, each with rated matches: once an organiser merges them,
    the ratings are computed again and the person kept carries the matches of both."""
    first, first_teams, _ = round_robin_played(django_capture_on_commit_callbacks, teams=4)
    second, second_teams, _ = round_robin_played(
        django_capture_on_commit_callbacks, teams=4, seed=11
    )
    organiser = get_user_model().objects.create_user(username="marta")
    first.organisers.add(organiser)
    second.organisers.add(organiser)
    keep = first_teams[0].memberships.order_by("order").first().player.person
    drop = second_teams[0].memberships.order_by("order").first().player.person
    drop.name = keep.name
    drop.save()
    assert Rating.objects.get(person=keep).matches == 3
    assert Rating.objects.get(person=drop).matches == 3

    client.force_login(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("organiser:person_merge"), {"keep": keep.pk, "drop": drop.pk})
    assert not Rating.objects.filter(person_id=drop.pk).exists()
    assert Rating.objects.get(person=keep).matches == 6
    assert RatingChange.objects.filter(person=keep).count() == 6
