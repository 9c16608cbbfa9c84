"""Statistics follow the rules: a person's Argentine and Catalan hands are summed apart
(one section each on his page), and a table shows only the columns its rules have (no
envido nor flor in catalan, no flor in Argentine truco without it): which ones is the
engine's to say (``scoring.fact_items``)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.api.conftest import V1, client_for
from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tests.tournaments.ratings.test_statistics import known_hands, player, record_all
from tournaments.models import Player
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def started(rules, team_size=2):
    championship = ChampionshipFactory(rules=rules, team_size=team_size)
    for seed in (1, 2):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    return result_services.match_start(match=match)


def catalan_hands(seats):
    """Two Catalan hands: A's truc accepted and won at the tricks (2); B's mazo (1)."""
    a1, b1, _a2, b2 = seats
    return [
        {
            "events": [
                {"by": a1, "call": "truc"},
                {"by": b1, "answer": "quiero"},
                {"trick": "A"},
                {"trick": "A"},
            ]
        },
        {"events": [{"by": b1, "mazo": True}, {"by": b2, "mazo": True}]},
    ]


@pytest.fixture
def both(db):
    """A person who played an Argentine match (with flor: envido and flor) and a Catalan
    one."""
    argentine = started({"preset": "argentine_flor", "falta_envido": "whole_chico"})
    record_all(argentine, known_hands(argentine.seats))
    catalan = started("catalan")
    person = player(argentine.seats[0]).person
    Player.objects.filter(pk=player(catalan.seats[0]).pk).update(person=person)
    record_all(catalan, catalan_hands(catalan.seats))
    return person, argentine, catalan


def test_a_persons_families_are_summed_apart(client, both):
    person, _argentine, _catalan = both
    page = client.get(reverse("tournaments:person", args=[person.pk]), **EN).content.decode()
    argentine = page.index('id="person-statistics-argentine"')
    catalan = page.index('id="person-statistics-catalan"')
    assert "Statistics from the hands: Argentine truco" in page
    assert "Statistics from the hands: Catalan truc" in page
    first, second = sorted([argentine, catalan])
    sections = {argentine: page[first:second], catalan: page[second:]}
    argentine_part, catalan_part = sections[argentine], sections[catalan]
    # 5 Argentine hands, 2 Catalan ones: never 7 together.
    assert "<dt>Hands played</dt><dd>5</dd>" in argentine_part
    assert "<dt>Hands played</dt><dd>2</dd>" in catalan_part
    assert "<dt>Envido</dt>" in argentine_part and "<dt>Flor</dt>" in argentine_part
    assert "<dt>Envido</dt>" not in catalan_part and "<dt>Flor</dt>" not in catalan_part
    assert "bars__bar--envido_points" not in catalan_part
    assert "bars__bar--mestre_points" in catalan_part
    assert ">truc<" in catalan_part and ">retruco<" in argentine_part


@pytest.mark.parametrize(
    ("rules", "envido", "flor"),
    [("catalan", False, False), ("argentine", True, False), ("argentine_flor", True, True)],
)
def test_a_table_shows_only_the_columns_its_rules_have(client, db, rules, envido, flor):
    match = started(rules)
    record_all(match, [{"events": [{"trick": "A"}, {"trick": "A"}]}])
    url = reverse("tournaments:statistics", args=[match.stage.championship.slug])
    page = client.get(url, **EN).content.decode()
    head = page[page.index("<thead>") : page.index("</thead>")]
    assert ('title="Envido called, accepted, refused"' in head) is envido
    assert ('<th scope="col" class="num">Envido</th>' in head) is envido
    assert ('<th scope="col" class="num">Flor</th>' in head) is flor
    assert ('title="Flores sung"' in head) is flor
    assert ('title="Points of the mestre' in head) is (rules == "catalan")
    # Catalan plays to 12: no malas to come back from.
    assert ('title="Chicos won from the malas"' in head) is (rules != "catalan")
    # A row has as many cells as the heading has columns.
    body = page[page.index("<tbody>") : page.index("</tbody>")]
    row = body[body.index("<tr>") : body.index("</tr>")]
    assert row.count("<td") == head.count('<th scope="col" class="num">')


def test_the_api_gives_a_persons_statistics_in_one_family(both):
    person, _argentine, _catalan = both
    url = f"{V1}/persons/{person.pk}/statistics/"
    assert client_for().get(url).json()["hands"] == 7  # every family, as before
    argentine = client_for().get(url, {"family": "argentine"}).json()
    catalan = client_for().get(url, {"family": "catalan"}).json()
    assert (argentine["hands"], catalan["hands"]) == (5, 2)
    assert catalan["envido_points"] == 0 and argentine["envido_points"] > 0
    assert client_for().get(url, {"family": "chess"}).status_code == 400
