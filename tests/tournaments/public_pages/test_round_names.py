"""Round names by stage (a knockout's quarter-finals, a double bracket's finals) in
every language, on the bracket page and in the API."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tests.tournaments.public_pages.conftest import html_of
from tournaments.models import Round, round_name
from tournaments.stages import services as stage_services


def bracket_settings(size: int, double: bool = False) -> dict:
    return {"bracket": {"positions": list(range(size)), "double": double}}


@pytest.mark.parametrize(
    ("label", "size", "double", "english", "spanish", "catalan"),
    [
        ("", 16, False, "Round 3", "Ronda 3", "Ronda 3"),
        ("W1", 16, False, "Round of 16", "Octavos de final", "Vuitens de final"),
        ("W2", 16, False, "Quarter-finals", "Cuartos de final", "Quarts de final"),
        ("W3", 16, False, "Semi-finals", "Semifinales", "Semifinals"),
        ("W4", 16, False, "Final", "Final", "Final"),
        ("W1", 64, False, "Knockout round 1", "Eliminatoria, ronda 1", "Eliminatòria, ronda 1"),
        ("W3", 8, True, "Winners' final", "Final de ganadores", None),
        ("L4", 8, True, "Losers' final", "Final de perdedores", "Final de perdedors"),
        ("GF", 8, True, "Grand final", None, None),
        ("P3", 8, False, "Third-place match", None, None),
    ],
)
def test_round_names_by_stage(label, size, double, english, spanish, catalan):
    for language, expected in (("en", english), ("es", spanish), ("ca", catalan)):
        if expected is None:
            continue
        with translation.override(language):
            name = round_name(number=3, label=label, settings=bracket_settings(size, double))
            assert str(name) == expected


def test_a_round_loaded_with_its_stage_says_its_name(db):
    running = ChampionshipFactory()
    for _ in range(4):
        TeamFactory(championship=running)
    stage = stage_services.stage_create(championship=running, format="single_elimination")
    stage_services.round_generate(stage=stage)
    round_ = Round.objects.select_related("stage").get(stage=stage, label="W1")
    with translation.override("en"):
        assert str(round_) == "Semi-finals"


def test_the_bracket_names_its_rounds_and_where_future_teams_come_from(client, db):
    running = ChampionshipFactory()
    for _ in range(8):
        TeamFactory(championship=running)
    stage = stage_services.stage_create(championship=running, format="single_elimination")
    stage_services.round_generate(stage=stage)
    url = reverse("tournaments:bracket", args=[running.slug, stage.pk])
    html = html_of(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
    assert ">Quarter-finals" in html and ">Semi-finals" in html and ">Final" in html
    # The bracket's matches numbered for people (W1-1 means nothing to a reader): the
    # quarter-finals 1 to 4, the semi-finals 5 and 6, the final 7.
    assert "Winner of match 1" in html and "Winner of match 4" in html
    assert "Winner of match 5" in html and "Winner of match 6" in html
    assert "W1-1" not in html and "W2-2" not in html
    assert ">Match 1<" in html and ">Match 7<" in html
    assert "…" not in html
    assert "Ronda W1" not in html and "Round W1" not in html
    html = html_of(client.get(url, HTTP_ACCEPT_LANGUAGE="es"))
    assert ">Cuartos de final" in html and "Ganador del partido 3" in html


def test_the_api_names_rounds_as_the_pages_do(db):
    from tests.api.conftest import V1, client_for

    running = ChampionshipFactory()
    for _ in range(4):
        TeamFactory(championship=running)
    stage = stage_services.stage_create(championship=running, format="single_elimination")
    stage_services.round_generate(stage=stage)
    body = client_for(language="es").get(f"{V1}/championships/{running.slug}/matches/").json()
    assert {(m["round_label"], m["round_name"]) for m in body["results"]} == {("W1", "Semifinales")}
