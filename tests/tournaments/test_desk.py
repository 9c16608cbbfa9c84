"""The desk: a round's results typed as the paper sheets come back, a row at a time, each
row checked by the engine as it is typed (tournaments/web/organiser/desk.py)."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.models import HandRevision, Match, MatchConfirmation, Scorekeeping
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services

SLUG = "copa-sin-arbitros"


@pytest.fixture
def organiser(db, client):
    user = get_user_model().objects.create_user(username="marta")
    client.force_login(user)
    return user


def _round(organiser, teams: int, *, rules=None) -> list[Match]:
    championship = ChampionshipFactory(
        slug=SLUG, scorekeeping=Scorekeeping.RESULTS, rules=rules or {"preset": "argentine"}
    )
    championship.organisers.add(organiser)
    for seed in range(1, teams + 1):
        TeamFactory(championship=championship, seed=seed, name=f"Equipo {seed}")
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    matches = stage_services.round_generate(stage=stage)
    for table, match in enumerate((m for m in matches if not m.is_bye), start=1):
        result_services.match_assign(match=match, table=str(table))
    return [Match.objects.get(pk=m.pk) for m in matches]


@pytest.fixture
def tables(organiser) -> list[Match]:
    """A round of six tables."""
    return _round(organiser, 12)


def desk_url(match: Match) -> str:
    return reverse("organiser:round_desk", args=[SLUG, match.stage_id, match.round.number])


def check_url(match: Match) -> str:
    return reverse("organiser:desk_check", args=[SLUG, match.pk])


def row(match: Match, *pairs: tuple[int, int]) -> dict:
    data = {"match": str(match.pk)}
    for number, (a, b) in enumerate(pairs, start=1):
        data[f"m{match.pk}-c{number}_A"], data[f"m{match.pk}-c{number}_B"] = a, b
    return data


def fields(match: Match, *pairs: tuple[int, int]) -> dict:
    typed = row(match, *pairs)
    typed.pop("match")
    return typed


def the_row(page: str, match: Match) -> str:
    start = page.index(f'id="row-{match.pk}"')
    return page[start : page.index("</tr>", start)]


@pytest.mark.parametrize(
    ("language", "title", "progress", "help"),
    [
        ("en", "The desk", "0 of 6 results in", "Enter to save the row"),
        ("es", "Mesa de la organización", "0 de 6 resultados recibidos", "Intro para guardar"),
        ("ca", "Taula de l'organització", "0 de 6 resultats rebuts", "Retorn per desar"),
    ],
)
def test_the_desk_lists_the_rounds_tables_in_each_language(
    client, tables, language, title, progress, help
):
    page = client.get(desk_url(tables[0]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert title in html.unescape(page) and progress in page and help in page
    # One row per table, in the hall's order, each its own form, its boxes naming it.
    numbers = re.findall(r'class="desk-row__table">(\d+)</th>', page)
    assert numbers == ["1", "2", "3", "4", "5", "6"]
    for match in tables:
        assert f'id="desk-form-{match.pk}"' in page
        assert page.count(f'form="desk-form-{match.pk}"') == 6  # best of 3: 3 chicos, 2 sides
        assert match.team_a.name in the_row(page, match)
    # The first row's first box has the focus: typing starts at once.
    first = the_row(page, tables[0])
    assert "autofocus" in re.search(r'<input[^>]*name="m\d+-c1_A"[^>]*>', first).group()
    assert page.count("autofocus") == 1


def test_the_desk_of_a_championship_opens_at_its_current_round(client, tables):
    answer = client.get(reverse("organiser:desk", args=[SLUG]))
    assert answer.status_code == 302 and answer.url == desk_url(tables[0])
    # Any round may be chosen by the picker (the page's GET form).
    chosen = client.get(
        reverse("organiser:desk", args=[SLUG]), {"round": f"{tables[0].stage_id}-1"}
    )
    assert chosen.url == desk_url(tables[0])


def test_a_row_typed_is_saved_and_confirmed_for_both_sides(client, tables):
    match = tables[2]
    answer = client.post(desk_url(match), row(match, (30, 25), (18, 30), (30, 12)))
    assert answer.status_code == 302
    assert answer.url == f"{desk_url(match)}?saved={match.pk}#row-{match.pk}"
    match.refresh_from_db()
    assert match.recorded == Match.Recorded.RESULT and match.winner_id == match.team_a_id
    assert match.confirmed_at is not None and match.reported_side == ""
    page = client.get(answer.url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "1 of 6 results in" in page
    saved = the_row(page, match)
    assert "desk-row--just-saved" in saved and "2–1 (30–25, 18–30, 30–12)" in saved
    assert f'form="desk-form-{match.pk}"' not in saved  # not typable any more
    assert reverse("organiser:match_result", args=[SLUG, match.pk]) in saved  # to correct it
    # The focus goes to the first row still empty.
    assert re.search(r"<input[^>]*autofocus", the_row(page, tables[0]))


def test_an_impossible_row_comes_back_with_its_sentence_and_what_was_typed(client, tables):
    match = tables[1]
    page = client.post(desk_url(match), row(match, (31, 12), (30, 2)), HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    typed = the_row(page.content.decode(), match)
    assert "has 31 in chico 1" in typed and 'role="alert"' in typed
    assert 'value="31"' in typed and "autofocus" in typed
    assert not Match.objects.get(pk=match.pk).games.exists()
    assert "0 of 6 results in" in page.content.decode()


def test_a_result_a_team_reported_differently_gets_the_services_sentence(client, tables):
    match = tables[0]
    result_services.match_result_report(
        match=match, side="B", games=[{"score": {"A": 25, "B": 30}}, {"score": {"A": 2, "B": 30}}]
    )
    page = client.get(desk_url(match), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    reported = the_row(page, match)
    assert f"Reported by {match.team_b.name}: 0–2 (25–30, 2–30)" in reported
    assert "1 reported by a team, to confirm" in page
    answer = client.post(desk_url(match), row(match, (30, 25), (30, 2)), HTTP_ACCEPT_LANGUAGE="en")
    refused = the_row(answer.content.decode(), match)
    assert "This match already has a result, 0–2 (25–30, 2–30), not 2–0 (30–25, 30–2)" in refused
    assert reverse("organiser:match_result", args=[SLUG, match.pk]) in refused
    match.refresh_from_db()
    assert match.winner_id == match.team_b_id and match.confirmed_at is None
    # The paper sheet says what the team reported: typing it confirms it for both.
    client.post(desk_url(match), row(match, (25, 30), (2, 30)))
    match.refresh_from_db()
    assert match.confirmed_at is not None
    assert set(match.confirmations.values_list("side", "status")) == {
        ("A", MatchConfirmation.Status.CONFIRMED),
        ("B", MatchConfirmation.Status.CONFIRMED),
    }


def test_a_row_sent_twice_is_one_result(client, tables):
    match = tables[3]
    data = row(match, (30, 25), (30, 2))
    first, second = client.post(desk_url(match), data), client.post(desk_url(match), data)
    assert first.status_code == second.status_code == 302
    assert match.revisions.filter(action=HandRevision.Action.RESULT).count() == 1
    assert Match.objects.get(pk=match.pk).games.count() == 2


def test_the_script_saves_a_row_and_gets_it_back_with_the_progress(client, tables):
    match = tables[4]
    answer = client.post(
        desk_url(match),
        row(match, (30, 25), (30, 2)),
        HTTP_ACCEPT="application/json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    body = answer.json()
    assert body["saved"] is True
    assert body["row"].lstrip().startswith("<tr") and "2–0 (30–25, 30–2)" in body["row"]
    assert "1 of 6 results in" in body["progress"]
    # The round picker's count of results to decide follows the saved row.
    picker = client.get(desk_url(match), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "5 to decide" in body["rounds"] and "5 to decide" in picker
    assert "selected" in body["rounds"]
    refused = client.post(
        desk_url(tables[5]),
        row(tables[5], (30, 30)),
        HTTP_ACCEPT="application/json",
        HTTP_ACCEPT_LANGUAGE="en",
    ).json()
    assert refused["saved"] is False and "Both" in refused["row"] and "reached 30" in refused["row"]
    assert "1 of 6 results in" in refused["progress"]


def test_byes_and_walkovers_are_shown_and_not_typed(client, organiser):
    matches = _round(organiser, 5)  # two tables and a bye
    bye = next(m for m in matches if m.is_bye)
    played = [m for m in matches if not m.is_bye]
    result_services.match_walkover(match=played[1], winner=played[1].team_b, reason="No show")
    page = client.get(desk_url(bye), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Bye: nothing to type." in the_row(page, bye)
    assert "<input" not in the_row(page, bye)
    walkover = the_row(page, played[1])
    assert f"Walkover: {played[1].team_b.name} wins." in walkover and "<input" not in walkover
    assert "1 of 2 results in" in page  # the tables: the bye is none
    assert client.post(desk_url(bye), row(bye, (30, 0), (30, 0))).status_code == 404


def test_only_the_organisers_reach_the_desk(client, tables, django_user_model):
    stranger = django_user_model.objects.create_user(username="curioso")
    client.force_login(stranger)
    assert client.get(desk_url(tables[0])).status_code == 404
    assert client.post(desk_url(tables[0]), row(tables[0], (30, 0), (30, 0))).status_code == 404
    assert not Match.objects.get(pk=tables[0].pk).games.exists()


# --- The check as a row is typed -----------------------------------------------------------


@pytest.mark.parametrize(
    ("pairs", "state", "sentences"),
    [
        (
            [(31, 12)],
            "refused",
            {
                "en": "has 31 in chico 1: a chico ends the moment a side reaches 30",
                "es": "tiene 31 en el chico 1",
                "ca": "té 31 al chico 1",
            },
        ),
        (
            [(30, 30)],
            "refused",
            {
                "en": "reached 30 in chico 1: only one side wins a chico",
                "es": "llegaron los dos a 30",
                "ca": "van arribar tots dos a 30",
            },
        ),
        (
            [(20, 12)],
            "refused",
            {
                "en": "Nobody reached 30 in chico 1",
                "es": "Nadie llegó a 30 en el chico 1",
                "ca": "Ningú no va arribar a 30 al chico 1",
            },
        ),
        (
            [(30, 2), (30, 5), (12, 30)],
            "refused",
            {
                "en": "had already won the match in chico 2: chico 3 cannot follow",
                "es": "ya había ganado el partido en el chico 2",
                "ca": "ja havia guanyat el partit al chico 2",
            },
        ),
        (
            [(30, 2)],
            "incomplete",
            {
                "en": "The match is not over: the chicos played (1) give no side the 2 it needs.",
                "es": "El partido no ha terminado",
                "ca": "El partit no s'ha acabat",
            },
        ),
    ],
)
def test_the_check_gives_the_engines_sentence_in_the_readers_language(
    client, tables, pairs, state, sentences
):
    match = tables[0]
    for language, sentence in sentences.items():
        answer = client.get(check_url(match), fields(match, *pairs), HTTP_ACCEPT_LANGUAGE=language)
        body = answer.json()
        assert body["state"] == state, (language, body)
        assert sentence in body["message"], (language, body["message"])
        if state == "refused" and "31" in str(pairs):
            assert match.team_a.name in body["message"]  # the side by its team's name
    assert not Match.objects.get(pk=match.pk).games.exists()  # a check stores nothing


@pytest.mark.parametrize(
    ("typed", "state", "english"),
    [
        ({}, "empty", ""),
        ({"c1_A": "30"}, "incomplete", "Give every side's score of chico 1."),
        ({"c2_A": "30", "c2_B": "1"}, "refused", "Fill the chicos in order, from the first."),
        ({"c1_A": "tres", "c1_B": "1"}, "refused", "Chico 1, Equipo"),
    ],
)
def test_the_check_of_a_row_half_typed(client, tables, typed, state, english):
    match = tables[0]
    data = {f"m{match.pk}-{name}": value for name, value in typed.items()}
    body = client.get(check_url(match), data, HTTP_ACCEPT_LANGUAGE="en").json()
    assert body["state"] == state and english in body["message"]


def test_the_check_of_a_possible_row_says_it_in_words(client, tables):
    match = tables[0]
    typed = fields(match, (30, 25), (18, 30), (30, 12))
    for language, won in (("en", "won by"), ("es", "ganado por"), ("ca", "guanyat per")):
        body = client.get(check_url(match), typed, HTTP_ACCEPT_LANGUAGE=language).json()
        assert body == {
            "state": "ok",
            "message": f"2–1 (30–25, 18–30, 30–12), {won} {match.team_a.name}",
        }


def test_the_check_at_a_table_of_three_asks_which_of_two_won(client, organiser):
    championship = ChampionshipFactory(
        slug=SLUG,
        scorekeeping=Scorekeeping.RESULTS,
        rules={"preset": "argentine", "gallo": "por_turno", "target": 15, "best_of": 1},
        team_size=1,
    )
    championship.organisers.add(organiser)
    for seed in range(1, 4):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="tables_swiss")
    (match,) = stage_services.round_generate(stage=stage)
    page = client.get(desk_url(match), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'name="m{match.pk}-c1_C"' in page and f'name="m{match.pk}-c1_winner"' in page
    typed = {
        f"m{match.pk}-c1_{side}": points for side, points in zip("ABC", (15, 15, 4), strict=True)
    }
    body = client.get(check_url(match), typed, HTTP_ACCEPT_LANGUAGE="en").json()
    assert body["state"] == "refused" and "say which of them won it" in body["message"]
    typed[f"m{match.pk}-c1_winner"] = "B"
    body = client.get(check_url(match), typed, HTTP_ACCEPT_LANGUAGE="en").json()
    assert body["state"] == "ok" and body["message"].startswith("0–1–0 (15–15–4)")
    saved = client.post(desk_url(match), {"match": match.pk, **typed})
    assert saved.status_code == 302
    assert Match.objects.get(pk=match.pk).winner_id == match.team_b_id


def test_only_the_championships_organisers_may_call_the_check(client, tables, django_user_model):
    url, typed = check_url(tables[0]), fields(tables[0], (30, 25))
    assert client.get(url, typed).status_code == 200
    other = ChampionshipFactory(slug="otra-copa")
    stranger = django_user_model.objects.create_user(username="organiza-otra")
    other.organisers.add(stranger)
    client.force_login(stranger)
    assert client.get(url, typed).status_code == 404
    client.logout()
    assert client.get(url, typed).status_code == 404
    # Another championship's slug with this match's id: no such match there either.
    client.force_login(stranger)
    assert client.get(url.replace(SLUG, "otra-copa"), typed).status_code == 404


def test_the_desk_is_linked_from_the_nav_and_the_stage(client, tables):
    stage_page = client.get(
        reverse("organiser:stage", args=[SLUG, tables[0].stage_id]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert desk_url(tables[0]) in stage_page
    assert reverse("organiser:desk", args=[SLUG]) in stage_page  # the nav
