"""The board of tables in play (and its TV mode), the current round marked everywhere,
the round page's running scores and times, and the championship page's squads."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tests.tournaments.public_pages.conftest import html_of, penalty_hand, scores, singles
from tournaments.models import Championship, Match
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services


def test_the_current_round_is_marked_everywhere(client, db):
    running = ChampionshipFactory()
    for _ in range(4):
        TeamFactory(championship=running)
    stage = stage_services.stage_create(championship=running, format="round_robin")
    for match in stage_services.round_generate(stage=stage):
        result_services.match_walkover(match=match, winner=match.team_a, reason="no show")
    stage_services.round_generate(stage=stage)  # round 2, still to play
    round_2 = reverse("tournaments:round", args=[running.slug, stage.pk, 2])
    round_1 = reverse("tournaments:round", args=[running.slug, stage.pk, 1])
    html = html_of(client.get(round_1, HTTP_ACCEPT_LANGUAGE="en"))
    assert f'<a href="{round_2}" class="is-current-round" aria-current="step">Round 2</a>' in html
    assert "current round</span>" not in html  # round 1 is not the current one
    html = html_of(client.get(round_2, HTTP_ACCEPT_LANGUAGE="en"))
    assert "current round</span>" in html
    championship_page = reverse("tournaments:championship", args=[running.slug])
    html = html_of(client.get(championship_page, HTTP_ACCEPT_LANGUAGE="en"))
    assert "Now: Round 2" in html
    board = html_of(
        client.get(reverse("tournaments:board", args=[running.slug]), HTTP_ACCEPT_LANGUAGE="en")
    )
    assert f'class="is-current-round" href="{round_2}">Round 2</a>' in board


def test_once_every_round_is_over_the_last_one_is_not_called_now(client, db):
    """A round robin of 3 teams played to its end: its last round is the last one played,
    on the championship page, the standings' rounds and the schedule, in every language."""
    over = ChampionshipFactory()
    for _ in range(3):
        TeamFactory(championship=over)
    stage = stage_services.stage_create(championship=over, format="round_robin")
    while True:
        matches = [m for m in stage_services.round_generate(stage=stage) if m.team_b_id]
        for match in matches:
            result_services.match_walkover(match=match, winner=match.team_a, reason="no show")
        if stage.rounds.count() == 3:
            break
    pages = {
        "championship": reverse("tournaments:championship", args=[over.slug]),
        "standings": reverse("tournaments:standings", args=[over.slug, stage.pk]),
        "schedule": reverse("tournaments:schedule", args=[over.slug]),
    }
    for name in ("championship", "standings"):
        html = html_of(client.get(pages[name], HTTP_ACCEPT_LANGUAGE="en"))
        assert "Now: Round 3" not in html, name
        assert "Last played: Round 3" in html, name
    schedule = html_of(client.get(pages["schedule"], HTTP_ACCEPT_LANGUAGE="en"))
    assert "The last round played" in schedule
    assert ">Now<" not in schedule
    spanish = html_of(client.get(pages["championship"], HTTP_ACCEPT_LANGUAGE="es"))
    assert "Última disputada: Ronda 3" in spanish


def board_with_tables(count: int, referee) -> tuple[Championship, list[Match]]:
    running = ChampionshipFactory()
    for _ in range(2 * count):
        TeamFactory(championship=running)
    stage = stage_services.stage_create(championship=running, format="round_robin")
    matches = stage_services.round_generate(stage=stage)
    for table, match in enumerate(matches, start=1):
        result_services.match_assign(match=match, table=str(table), scheduled_at=None, referee=None)
        match = result_services.match_start(match=match)
        result_services.hand_record(
            match=match, record=penalty_hand(match, "A", table), recorded_by=referee
        )
    return running, [Match.objects.get(pk=m.pk) for m in matches]


def test_the_board_shows_every_table_in_play_with_its_live_score(client, referee):
    running, matches = board_with_tables(3, referee)
    url = reverse("tournaments:board", args=[running.slug])
    html = html_of(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
    found = re.findall(r'data-score-side="A">(\d+)</span> – <span data-score-side="B">(\d+)<', html)
    assert sorted(found) == sorted(
        (str(m.state["score"]["A"]), str(m.state["score"]["B"])) for m in matches
    )
    for table in ("Table 1", "Table 2", "Table 3"):
        assert table in html
    assert 'class="site-header"' in html
    # The championship page links the board and its TV mode.
    detail = html_of(client.get(reverse("tournaments:championship", args=[running.slug])))
    assert url in detail and f"{url}?tv=1" in detail


def test_the_tv_mode_is_full_screen_without_navigation(client, referee):
    running, matches = board_with_tables(2, referee)
    url = reverse("tournaments:board", args=[running.slug])
    html = html_of(client.get(url + "?tv=1", HTTP_ACCEPT_LANGUAGE="en"))
    assert '<body class="tv"' in html
    assert 'class="site-header"' not in html and "site-nav" not in html
    assert len(re.findall(r'data-score-side="A"', html)) == len(matches)


def test_the_round_page_shows_the_running_score_of_a_match_in_play(client, referee):
    match = singles()
    result_services.hand_record(
        match=match, record=penalty_hand(match, "B", 4), recorded_by=referee
    )
    match.refresh_from_db()
    url = reverse("tournaments:round", args=[match.stage.championship.slug, match.stage_id, 1])
    html = html_of(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
    assert scores(html) == {"A": "0", "B": str(match.state["score"]["B"])}
    assert match.state["score"]["B"] > 0


def test_the_board_answers_in_the_same_number_of_queries_for_2_and_6_tables(
    client, referee, django_assert_max_num_queries
):
    counts = {}
    for count in (2, 6):
        running, _matches = board_with_tables(count, referee)
        url = reverse("tournaments:board", args=[running.slug])
        with django_assert_max_num_queries(16) as captured:
            html_of(client.get(url))
        counts[count] = len(captured)
    assert counts[2] == counts[6]


def test_a_draft_championship_has_no_board(client, db):
    draft = ChampionshipFactory(status=Championship.Status.DRAFT)
    assert client.get(reverse("tournaments:board", args=[draft.slug])).status_code == 404


def test_match_times_show_in_the_championships_time_zone(client, db):
    import datetime

    running = ChampionshipFactory(time_zone="America/Argentina/Buenos_Aires")
    for _ in range(2):
        TeamFactory(championship=running)
    stage = stage_services.stage_create(championship=running, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    result_services.match_assign(
        match=match,
        table="1",
        scheduled_at=datetime.datetime(2026, 6, 13, 20, 0, tzinfo=datetime.UTC),
        referee=None,
    )
    url = reverse("tournaments:round", args=[running.slug, stage.pk, 1])
    html = html_of(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
    assert "<span>5 p.m.</span>" in html  # 20:00 UTC is 17:00 in Buenos Aires


@pytest.mark.parametrize("language", ["en", "es", "ca"])
def test_a_catalan_squad_names_its_cap_de_colla_in_every_language(client, db, language):
    running = ChampionshipFactory(rules={"preset": "catalan"}, team_size=3)
    team = TeamFactory(championship=running)
    captain = team.memberships.get(is_captain=True).player
    url = reverse("tournaments:championship", args=[running.slug])
    html = html_of(client.get(url, HTTP_ACCEPT_LANGUAGE=language))
    assert f"{captain.name}</a> (cap de colla)" in html
