"""What the pages say, as a reader of each language reads it: plurals that agree with
their number, dates with their "de" and small-letter months and weekdays, the game's own
words (a Catalan championship's jocs, its abandons), the gallo explained, nothing said
that is not asked, and no "vs" left hanging before a table is played."""

from __future__ import annotations

import datetime

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation

from tests.tournaments.conftest import play
from tests.tournaments.factories import ChampionshipFactory, TeamFactory, UserFactory
from tests.tournaments.ratings.test_statistics import known_hands, match, record_all
from tests.tournaments.test_gallo_tables import gallo_championship
from tournaments.entries import services as entry_services
from tournaments.models import Championship
from tournaments.stages import services as stage_services

__all__ = ["match"]  # the fixture

ES = {"HTTP_ACCEPT_LANGUAGE": "es"}
CA = {"HTTP_ACCEPT_LANGUAGE": "ca"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def text(response) -> str:
    import re

    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


@pytest.fixture
def one_and_one(db):
    """A person who won one match and lost one."""
    championship = ChampionshipFactory(status=Championship.Status.RUNNING)
    teams = [TeamFactory(championship=championship, seed=n) for n in range(1, 5)]
    stage = stage_services.stage_create(championship=championship, format="round_robin")

    def of_first(matches):
        return next(m for m in matches if teams[0].pk in (m.team_a_id, m.team_b_id))

    first = of_first(stage_services.round_generate(stage=stage))
    play(first, teams[0])
    second = of_first(stage_services.round_generate(stage=stage))
    play(second, second.team_b if second.team_a_id == teams[0].pk else second.team_a)
    return teams[0].memberships.first().player.person


def test_a_record_of_one_agrees_with_its_number(client, one_and_one):
    url = reverse("tournaments:person", args=[one_and_one.pk])
    assert "1 ganado, 1 perdido" in text(client.get(url, **ES))
    # A partida is feminine in Catalan.
    assert "1 guanyada, 1 perduda" in text(client.get(url, **CA))
    assert "1 won, 1 lost" in text(client.get(url, **EN))


def test_the_statistics_agree_with_their_numbers(client, match):
    record_all(match, known_hands(match.seats))
    championship = match.stage.championship
    team_b = reverse("tournaments:team", args=[championship.slug, match.team_b_id])
    page = text(client.get(team_b, **ES))
    # B: one truco call, raised once; one envido won of the two played.
    assert "1 canto: 0 queridos, 0 no queridos, 1 subido" in page
    assert "1 ganado de 2 jugados" in page
    assert "1 de 1 ganado" in page  # its chico won from the malas
    # A championship's envidos are each won by one of its sides: only how many were played.
    whole = text(client.get(reverse("tournaments:statistics", args=[championship.slug]), **ES))
    assert "2 jugados" in whole and "de 2 jugados" not in whole


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("es", ["viernes 13 de noviembre", "vie 13 nov", "viernes 13 de noviembre de 2026"]),
        ("ca", ["divendres 13 de novembre", "dv. 13 nov.", "dilluns 5 d'octubre"]),
        ("en", ["Friday 13 November", "Fri 13 Nov", "Monday 5 October"]),
    ],
)
def test_a_day_as_each_language_writes_it(language, expected):
    template = Template(
        "{% load dates %}{% autoescape off %}"
        '{{ d|day:"WEEKDAY_DATE" }}|{{ d|day:"SHORT_WEEKDAY_DATE" }}|'
        '{% if lang == "es" %}{{ d|day:"WEEKDAY_DATE_YEAR" }}{% else %}'
        '{{ o|day:"WEEKDAY_DATE" }}{% endif %}{% endautoescape %}'
    )
    with translation.override(language):
        shown = template.render(
            Context(
                {
                    "d": datetime.date(2026, 11, 13),
                    "o": datetime.date(2026, 10, 5),
                    "lang": language,
                }
            )
        )
    assert shown.split("|") == expected


def test_a_weekday_to_choose_keeps_its_capital():
    """The choice lists' weekdays are labels of their own ("Viernes"), the dates' are not."""
    from tournaments.models import WEEKDAYS

    friday = Template("{{ d|date:'l' }}")
    with translation.override("es"):
        assert str(dict(WEEKDAYS)[4]) == "Viernes"
        assert friday.render(Context({"d": datetime.date(2026, 11, 13)})) == "viernes"
    with translation.override("ca"):
        assert str(dict(WEEKDAYS)[4]) == "Divendres"
        assert friday.render(Context({"d": datetime.date(2026, 11, 13)})) == "divendres"


def test_a_catalan_championship_names_its_jocs_and_its_abandons(client, db):
    championship = ChampionshipFactory(
        rules="catalan", team_size=2, tiebreaks=["points", "chico_diff", "chicos_won", "lots"]
    )
    for seed in range(1, 5):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    url = reverse("tournaments:standings", args=[championship.slug, stage.pk])
    catalan = text(client.get(url, **CA))
    assert "Diferència de jocs" in catalan and "Jocs guanyats" in catalan
    assert "chicos" not in catalan.lower()
    assert "Diferencia de jocs" in text(client.get(url, **ES))
    # An Argentine one keeps its chicos, in Catalan too.
    argentine = ChampionshipFactory(tiebreaks=["points", "chico_diff", "lots"])
    for seed in range(1, 5):
        TeamFactory(championship=argentine, seed=seed)
    other = stage_services.stage_create(championship=argentine, format="round_robin")
    url = reverse("tournaments:standings", args=[argentine.slug, other.pk])
    assert "Diferència de chicos" in text(client.get(url, **CA))


def test_the_gallo_is_explained_and_a_player_named_once(client, db):
    championship, teams = gallo_championship(6)
    championship.status = Championship.Status.RUNNING
    championship.save()
    for team in teams:
        team.name = team.memberships.first().player.name
        team.save()
    stage = stage_services.stage_create(
        championship=championship,
        format="tables_swiss",
        settings={"rounds": 2, "remainder": "table_of_two"},
    )
    stage_services.round_generate(stage=stage)
    page = client.get(reverse("tournaments:championship", args=[championship.slug]), **ES)
    words = text(page)
    assert "Gallo por turno: en cada mano, el que reparte es el gallo" in words
    assert "equipos de 1" not in words
    assert "Gana la mesa el primer jugador" in words
    assert "<h2>Jugadores</h2>" in page.content.decode()
    assert words.count(teams[0].name) == 1
    # A table not played yet: its three names, no "vs" left hanging after them.
    url = reverse("tournaments:round", args=[championship.slug, stage.pk, 1])
    cards = client.get(url, **EN).content.decode()
    assert 'class="match-card__teams"' in cards
    assert 'match-card__score muted">vs<' not in cards


def test_the_entry_form_speaks_only_of_what_it_asks(client, db):
    championship = ChampionshipFactory(status=Championship.Status.REGISTRATION)
    entry_services.entry_policy_set(
        championship=championship,
        by=None,
        is_open=True,
        capacity=None,
        closes_at=None,
        asks=["email"],
        fee=None,
        fee_instructions="",
    )
    page = text(client.get(reverse("tournaments:enter", args=[championship.slug]), **ES))
    assert "Tu correo solo lo ve la organización" in page
    assert "teléfono" not in page


def test_the_api_token_is_a_token_in_catalan(client, db):
    client.force_login(UserFactory())
    page = client.get(reverse("tournaments:home"), **CA).content.decode()
    assert "Token de l'API" in page and "estimoni" not in page
