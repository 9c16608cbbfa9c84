"""The printed scoresheet of a table without a referee: each chico tallied in boxes of five
(malas and buenas apart at 30), and the result box the desk copies, on one A4 page with the
match's QR code (tournaments/web/organiser/printing.py)."""

from __future__ import annotations

import html
import io
import os
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.tournaments.factories import ChampionshipFactory
from tournaments.championships import services as championship_services
from tournaments.models import Match, Scorekeeping
from tournaments.stages import services as stage_services
from tournaments.web.organiser import printing

needs_pdf = pytest.mark.skipif(
    printing.pdf_unavailable_reason() is not None, reason="WeasyPrint cannot load"
)


@pytest.fixture
def organiser(db, client):
    user = get_user_model().objects.create_user(username="marta")
    client.force_login(user)
    return user


def _match(organiser, *, rules, players=2, teams=2, keeps=Scorekeeping.RESULTS, fmt=None):
    championship = ChampionshipFactory(scorekeeping=keeps, rules=rules, team_size=players)
    championship.organisers.add(organiser)
    for seed in range(1, teams + 1):
        names = [f"Jugador {seed}{n}" for n in range(players)]
        championship_services.team_create(
            championship=championship,
            name=f"Los Pumas {seed}",
            seed=seed,
            players=names,
            captain=names[0],
        )
    fmt = fmt or ("tables_swiss" if teams == 3 else "round_robin")
    stage = stage_services.stage_create(championship=championship, format=fmt)
    match = stage_services.round_generate(stage=stage)[0]
    match.table = "4"
    match.save(update_fields=["table"])
    return match


def _sheet(client, match: Match, language="en", **query) -> str:
    url = reverse("organiser:print_scoresheet", args=[match.stage.championship.slug, match.pk])
    return client.get(url, query, HTTP_ACCEPT_LANGUAGE=language).content.decode()


def _pdf(client, match: Match, name: str, language="en") -> tuple[int, str]:
    pypdf = pytest.importorskip("pypdf")
    url = reverse("organiser:print_scoresheet_pdf", args=[match.stage.championship.slug, match.pk])
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response["Content-Type"] == "application/pdf"
    if os.environ.get("TANTEO_SCREENSHOT_DIR"):  # to look at them (pdftoppm -png)
        Path(os.environ["TANTEO_SCREENSHOT_DIR"], f"{name}.pdf").write_bytes(response.content)
    reader = pypdf.PdfReader(io.BytesIO(response.content))
    return len(reader.pages), "\n".join(page.extract_text() for page in reader.pages)


def _tallies(page: str) -> list[str]:
    return re.findall(r'<table class="tally">.*?</table>', page, flags=re.S)


def _boxes(tally: str) -> list[int]:
    """Each box of a tally: the strokes drawn in it."""
    boxes = re.findall(r'<svg class="tally-box".*?</svg>', tally, flags=re.S)
    return [box.count("<line") for box in boxes]


def test_argentine_thirty_is_tallied_in_malas_and_buenas(client, organiser):
    match = _match(organiser, rules={"preset": "argentine"})
    page = _sheet(client, match)
    assert "sheet--tally" in page and 'class="grid hands-grid"' not in page
    tallies = _tallies(page)
    assert len(tallies) == 3  # best of three
    for number, tally in enumerate(tallies, start=1):
        assert f"<caption>Chico {number}</caption>" in tally
        assert ">Malas</th>" in tally and ">Buenas</th>" in tally
        # Each side: 15 malas in 3 boxes, 15 buenas in 3 boxes.
        assert _boxes(tally) == [5] * 12
    box = page[page.index('class="grid result-box"') :]
    assert "The result, as the desk types it" in box
    assert box.count('<th scope="row" class="result-box__chico">') == 3
    assert match.team_a.name in box and match.team_b.name in box
    assert "Winner, if two reached the target" not in box
    assert page.count("signature of the captain") == 2
    assert page.count('src="data:image/svg+xml') == 1  # the QR code
    assert "<script" not in page and "style=" not in page


def test_fifteen_has_no_halves(client, organiser):
    match = _match(organiser, rules={"preset": "argentine", "target": 15, "best_of": 1})
    (tally,) = _tallies(_sheet(client, match))
    assert "Malas" not in tally and "Buenas" not in tally
    assert _boxes(tally) == [5] * 6  # three boxes a side


def test_a_catalan_joc_of_twelve_has_its_boxes(client, organiser):
    match = _match(organiser, rules={"preset": "catalan"}, players=3)
    page = _sheet(client, match)
    tallies = _tallies(page)
    assert len(tallies) == 3 and "<caption>Joc 1</caption>" in tallies[0]
    assert _boxes(tallies[0]) == [5, 5, 2, 5, 5, 2]  # 12: two boxes and two strokes, a side
    assert "signature of the cap de colla" in page


def test_a_table_of_three_has_three_columns(client, organiser):
    match = _match(
        organiser, rules={"preset": "argentine", "gallo": "por_turno"}, players=1, teams=3
    )
    page = _sheet(client, match)
    tallies = _tallies(page)
    assert len(tallies) == 4  # best of three: A, B and C may each win one first
    for tally in tallies:
        assert '<th scope="col">C</th>' in tally
        assert _boxes(tally) == [5] * 18
    box = page[page.index('class="grid result-box"') :]
    assert "Winner, if two reached the target" in box
    assert match.team_c.name in box
    assert page.count("signature of the captain") == 3


def test_a_refereed_stage_prints_the_hands_grid_and_either_may_be_asked(client, organiser):
    match = _match(organiser, rules={"preset": "argentine"}, keeps=Scorekeeping.REFEREES)
    assert 'class="grid hands-grid"' in _sheet(client, match)
    assert "sheet--tally" in _sheet(client, match, sheet="tally")
    results = _match(organiser, rules={"preset": "argentine"})
    assert 'class="grid hands-grid"' in _sheet(client, results, sheet="hands")


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("es", ["Acta", "Malas", "El resultado, tal como lo anota la mesa de la organización"]),
        ("ca", ["Acta", "Malas", "El resultat, tal com l'anota la taula de l'organització"]),
    ],
)
def test_the_tally_speaks_the_readers_language(client, organiser, language, words):
    match = _match(organiser, rules={"preset": "argentine"})
    page = html.unescape(_sheet(client, match, language))
    for word in words:
        assert word in page, word


@needs_pdf
@pytest.mark.parametrize(
    ("name", "rules", "players", "teams", "caption"),
    [
        ("argentine", {"preset": "argentine"}, 2, 2, "Chico 3"),
        ("catalan", {"preset": "catalan"}, 3, 2, "Joc 3"),
        ("gallo", {"preset": "argentine", "gallo": "por_turno"}, 1, 3, "Chico 4"),
    ],
)
def test_the_pdf_is_one_a4_page_with_the_tally_and_the_result_box(
    client, organiser, name, rules, players, teams, caption
):
    match = _match(organiser, rules=rules, players=players, teams=teams)
    pages, text = _pdf(client, match, f"tally-{name}")
    text = " ".join(text.split())  # a heading in a narrow column breaks across lines
    assert pages == 1
    assert caption in text and "Table 4" in text
    assert "The result, as the desk types it" in text
    for team in match.teams_by_side().values():
        assert team.name in text
    if name == "argentine":
        assert "MALAS" in text and "BUENAS" in text  # printed in capitals
    if teams == 3:
        assert "Winner, if two reached the" in text


@needs_pdf
def test_a_rounds_tally_pdf_has_the_list_and_a_page_per_table(client, organiser):
    pypdf = pytest.importorskip("pypdf")
    match = _match(organiser, rules={"preset": "argentine"}, teams=8)
    championship = match.stage.championship
    url = reverse("organiser:print_round_pdf", args=[championship.slug, match.stage_id, 1])
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="es")
    reader = pypdf.PdfReader(io.BytesIO(response.content))
    if os.environ.get("TANTEO_SCREENSHOT_DIR"):
        Path(os.environ["TANTEO_SCREENSHOT_DIR"], "tally-round-es.pdf").write_bytes(
            response.content
        )
    assert len(reader.pages) == 1 + 4
    text = reader.pages[1].extract_text()
    assert "Acta" in text and "MALAS" in text
