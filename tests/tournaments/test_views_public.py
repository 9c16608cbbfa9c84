"""Public championship pages: detail, standings, bracket, rounds and matches, in 3 languages."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.models import Championship, Match, StandingsSnapshot
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services
from tournaments.standings import selectors as standing_selectors
from tournaments.standings import services as standing_services


def html_of(response) -> str:
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def running(db):
    return ChampionshipFactory(
        name="Copa Rosario",
        status=Championship.Status.RUNNING,
        tiebreaks=["points", "chico_diff", "tantos_diff", "lots"],
    )


def round_robin_played(championship, count, play_match):
    """A round robin of ``count`` teams whose first round is played: better seeds win."""
    teams = [TeamFactory(championship=championship) for _ in range(count)]
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    for match in stage_services.round_generate(stage=stage):
        if not match.is_bye:
            a, b = match.team_a, match.team_b
            play_match(match, a if a.seed < b.seed else b)
    return stage, teams


def test_the_home_page_links_to_the_championship(client, running):
    html = html_of(client.get("/"))
    assert reverse("tournaments:championship", args=[running.slug]) in html


def test_championship_page_shows_rules_stages_and_teams(client, running, play_match):
    stage, teams = round_robin_played(running, 4, play_match)
    html = html_of(
        client.get(
            reverse("tournaments:championship", args=[running.slug]), HTTP_ACCEPT_LANGUAGE="en"
        )
    )
    assert "Argentine truco, teams of 2." in html
    assert "A match is won by the first team to win two games of 30 points." in html
    assert stage.name in html
    for team in teams:
        assert team.name in html
        for membership in team.memberships.all():
            assert membership.player.name in html


def test_a_draft_is_not_public(client, db):
    draft = ChampionshipFactory(status=Championship.Status.DRAFT)
    assert client.get(reverse("tournaments:championship", args=[draft.slug])).status_code == 404


def team_name(team) -> str:
    """A team's name in a standings table: a link to its page."""
    url = reverse("tournaments:team", args=[team.championship.slug, team.pk])
    return f'<span class="team-name"><a class="team-link" href="{url}">{team.name}</a></span>'


def test_standings_in_rank_order_with_tiebreak_columns(client, running, play_match):
    stage, _teams = round_robin_played(running, 4, play_match)
    url = reverse("tournaments:standings", args=[running.slug, stage.pk])
    html = html_of(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
    lines = standing_selectors.stage_standings(stage=stage)
    positions = [html.index(team_name(line.team)) for line in lines]
    assert positions == sorted(positions)
    # The winners of round one are ranked above the losers.
    assert {line.team.pk for line in lines[:2]} == set(
        stage.matches.values_list("winner_id", flat=True)
    )
    for abbr, name in [
        ("Pts", "Match points"),
        ("ChD", "Chico difference"),
        ("TD", "Tantos difference"),
    ]:
        assert f'<abbr title="{name}">{abbr}</abbr>' in html
        assert f"<dt>{abbr}</dt><dd>{name}" in html
    assert "Buchholz" not in html  # not in this championship's chain
    # The two winners played the same hands (a falta envido each chico): only the lots
    # separate them, so the lots column is shown.
    assert '<abbr title="Drawing of lots">Lot</abbr>' in html


def test_standings_per_group(client, running):
    teams = [TeamFactory(championship=running) for _ in range(6)]
    stage = stage_services.stage_create(
        championship=running,
        format="groups_knockout",
        settings={"group_count": 2, "advance": 1},
    )
    stage_services.round_generate(stage=stage)
    html = html_of(
        client.get(
            reverse("tournaments:standings", args=[running.slug, stage.pk]),
            HTTP_ACCEPT_LANGUAGE="es",
        )
    )
    assert "Grupo A" in html and "Grupo B" in html
    for team in teams:
        assert html.count(team_name(team)) == 1


# One more since leagues: the stage's matches postponed and still to be played (one query,
# whatever the number of teams).
STANDINGS_MAX_QUERIES = 9


def standings_page_of(client, count: int, *, snapshot: bool):
    """A round robin of ``count`` teams with round one decided; its standings URL."""
    championship = ChampionshipFactory(status=Championship.Status.RUNNING)
    teams = [TeamFactory(championship=championship) for _ in range(count)]
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    for match in stage_services.round_generate(stage=stage):
        result_services.match_walkover(match=match, winner=match.team_a, reason="no show")
    if snapshot:  # what the Celery task stores after each result
        standing_services.standings_refresh(stage=stage)
    else:
        StandingsSnapshot.objects.filter(stage=stage).delete()
    return reverse("tournaments:standings", args=[championship.slug, stage.pk]), teams


@pytest.mark.parametrize("snapshot", [True, False], ids=["snapshot", "computed"])
def test_standings_query_count_is_the_same_for_4_and_40_teams(
    client, db, snapshot, django_assert_max_num_queries
):
    counts = {}
    for size in (4, 40):
        url, teams = standings_page_of(client, size, snapshot=snapshot)
        with django_assert_max_num_queries(STANDINGS_MAX_QUERIES) as captured:
            html = html_of(client.get(url))
        counts[size] = len(captured)
        assert all(team_name(team) in html for team in teams)
    assert counts[4] == counts[40]


def test_match_page_shows_games_and_hands(client, running, play_match):
    teams = [TeamFactory(championship=running) for _ in range(2)]
    stage = stage_services.stage_create(championship=running, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    play_match(match, teams[1])
    match = result_selectors.match_detail(pk=match.pk)
    html = html_of(
        client.get(
            reverse("tournaments:match", args=[running.slug, match.pk]), HTTP_ACCEPT_LANGUAGE="en"
        )
    )
    assert 'http-equiv="refresh"' not in html  # finished: nothing to follow
    assert "Chicos" in html and "Hand by hand" in html
    games = list(match.games.all())
    assert len(games) == 3
    for game in games:
        assert f'<td class="num">{game.score_a} – {game.score_b}</td>' in html
    hands = list(match.hands.all())
    assert html.count("Ends the chico") == len(hands)
    # Decided: the headline is the chicos won.
    assert f'data-score-side="A">{match.chicos_a}<' in html
    assert f'data-score-side="B">{match.chicos_b}<' in html
    assert f"Winner: {teams[1].name}" in html


def test_a_match_in_play_follows_its_hands_live(client, running, referee):
    from tests.tournaments.conftest import chico_hand

    TeamFactory(championship=running)
    TeamFactory(championship=running)
    stage = stage_services.stage_create(championship=running, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    result_services.match_start(match=match)
    result_services.hand_record(match=match, record=chico_hand(match, "A"), recorded_by=referee)
    html = html_of(
        client.get(
            reverse("tournaments:match", args=[running.slug, match.pk]), HTTP_ACCEPT_LANGUAGE="ca"
        )
    )
    # No reload every 30 s: static/js/live.js follows the match's topics and swaps <main>.
    assert 'http-equiv="refresh"' not in html
    assert f'data-live-topics="site cm.{running.slug} m.{match.pk} d.{match.pk}"' in html
    assert '<main class="site-main" id="main" data-live="">' in html
    assert "/static/js/live.js" in html
    assert "Darrera actualització a les" in html
    assert "Mà a mà" in html


def test_a_match_of_another_championship_is_404(client, running):
    other = ChampionshipFactory(status=Championship.Status.RUNNING)
    TeamFactory(championship=other)
    TeamFactory(championship=other)
    stage = stage_services.stage_create(championship=other, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    url = reverse("tournaments:match", args=[running.slug, match.pk])
    assert client.get(url).status_code == 404


def test_round_page_lists_its_matches(client, running, play_match):
    stage, _teams = round_robin_played(running, 4, play_match)
    html = html_of(
        client.get(
            reverse("tournaments:round", args=[running.slug, stage.pk, 1]),
            HTTP_ACCEPT_LANGUAGE="en",
        )
    )
    for match in stage.matches.all():
        assert reverse("tournaments:match", args=[running.slug, match.pk]) in html
        assert match.team_a.name in html and match.team_b.name in html


def test_bracket_page_shows_rounds_as_columns(client, running, play_match):
    teams = [TeamFactory(championship=running) for _ in range(4)]
    stage = stage_services.stage_create(championship=running, format="single_elimination")
    semis = stage_services.round_generate(stage=stage)
    for match in semis:
        play_match(match, match.team_a if match.team_a.seed < match.team_b.seed else match.team_b)
    url = reverse("tournaments:bracket", args=[running.slug, stage.pk])
    html = html_of(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
    assert html.count('class="bracket__column') == 2
    assert html.index(">Semi-finals") < html.index(">Final")
    # The two favourites reached the final, shown as its (undecided) match.
    final = stage.matches.get(bracket_id="W2-1")
    assert {final.team_a, final.team_b} == {teams[0], teams[1]}
    assert reverse("tournaments:match", args=[running.slug, final.pk]) in html
    assert html.count("bracket__team--winner") == 2
    play_match(final, teams[1])
    html = html_of(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
    assert f"Champion: {teams[1].name}" in html


def test_a_round_robin_has_no_bracket(client, running, play_match):
    stage, _teams = round_robin_played(running, 2, play_match)
    assert (
        client.get(reverse("tournaments:bracket", args=[running.slug, stage.pk])).status_code == 404
    )


LANGUAGES = {
    "es": ("Clasificación", "Equipo", "Leyenda y desempates"),
    "ca": ("Classificació", "Equip", "Llegenda i desempats"),
    "en": ("Standings", "Team", "Legend and tie-breaks"),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_pages_answer_in_each_language(client, running, play_match, language):
    stage, _teams = round_robin_played(running, 2, play_match)
    match = stage.matches.get()
    pages = {
        "standings": reverse("tournaments:standings", args=[running.slug, stage.pk]),
        "detail": reverse("tournaments:championship", args=[running.slug]),
        "match": reverse("tournaments:match", args=[running.slug, match.pk]),
    }
    heading, team, tiebreaks = LANGUAGES[language]
    html = html_of(client.get(pages["standings"], HTTP_ACCEPT_LANGUAGE=language))
    assert f'<html lang="{language}">' in html
    assert heading in html and team in html and tiebreaks in html
    for url in pages.values():
        assert f'<html lang="{language}">' in html_of(
            client.get(url, HTTP_ACCEPT_LANGUAGE=language)
        )
    assert Match.objects.filter(pk=match.pk, status=Match.Status.FINISHED).exists()


def test_match_page_query_count_does_not_grow_with_hands(
    client, running, referee, django_assert_max_num_queries
):
    """The page every spectator reloads each 30 s: a fixed number of queries."""
    from tests.tournaments.conftest import chico_hand

    TeamFactory(championship=running)
    TeamFactory(championship=running)
    stage = stage_services.stage_create(championship=running, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    result_services.match_start(match=match)
    url = reverse("tournaments:match", args=[running.slug, match.pk])
    counts = []
    for winner in ("A", "B"):
        result_services.hand_record(
            match=match, record=chico_hand(match, winner), recorded_by=referee
        )
        with django_assert_max_num_queries(10) as captured:
            html_of(client.get(url))
        counts.append(len(captured))
    assert counts[0] == counts[1]


def test_bracket_page_query_count_is_the_same_for_4_and_16_teams(
    client, db, django_assert_max_num_queries
):
    counts = {}
    for size in (4, 16):
        championship = ChampionshipFactory(status=Championship.Status.RUNNING)
        for _ in range(size):
            TeamFactory(championship=championship)
        stage = stage_services.stage_create(championship=championship, format="double_elimination")
        for match in stage_services.round_generate(stage=stage):
            result_services.match_walkover(match=match, winner=match.team_a, reason="no show")
        url = reverse("tournaments:bracket", args=[championship.slug, stage.pk])
        with django_assert_max_num_queries(8) as captured:
            html = html_of(client.get(url))
        counts[size] = len(captured)
        assert html.count('class="bracket__match"') > size // 2
    assert counts[4] == counts[16]


@pytest.mark.parametrize(
    ("language", "november", "october"),
    [
        ("ca", "22 de novembre de 2026", "22 d'octubre de 2026"),
        ("es", "22 de noviembre de 2026", "22 de octubre de 2026"),
    ],
)
def test_a_long_date_reads_as_its_language_writes_it(client, db, language, november, october):
    """Catalan dates read "22 novembre de 2026" (Django's own catalog leaves the "de" out)."""
    import datetime

    from tests.tournaments.factories import ChampionshipFactory

    for day, expected in (
        (datetime.date(2026, 11, 22), november),
        (datetime.date(2026, 10, 22), october),
    ):
        championship = ChampionshipFactory(start_date=day, end_date=day)
        url = reverse("tournaments:championship", args=[championship.slug])
        html = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert expected in html.replace("&#x27;", "'")


def test_head_to_head_shows_a_dash_where_no_tie_was_to_break(client, admin_user, play_match):
    """Head-to-head is a mini-table of the teams level on points: a team level with no
    other has none, shown as a dash with a legend (not a blank a reader takes for a bug)."""
    chain = ["points", "head_to_head", "chico_diff", "lots"]
    league = ChampionshipFactory(tiebreaks=chain)
    teams = [TeamFactory(championship=league) for _ in range(3)]
    stage = stage_services.stage_create(championship=league, format="round_robin")
    for _round in range(3):
        for match in stage_services.round_generate(stage=stage):
            if not match.is_bye:
                a, b = match.team_a, match.team_b
                play_match(match, a if a.seed < b.seed else b)
    url = reverse("tournaments:standings", args=[league.slug, stage.pk])
    html = html_of(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
    lines = standing_selectors.stage_standings(stage=stage)
    assert [line.points for line in lines] == [3, 2, 1]  # a win each, and a bye each
    assert html.count('<span class="not-needed" title="No tie to break">') == len(teams)
    assert "<dt>–</dt><dd>Not needed: head-to-head counts only the matches among teams" in html
    # The standings printed for the notice board say the same.
    client.force_login(admin_user)
    printed = reverse("organiser:print_standings", args=[league.slug, stage.pk])
    html = html_of(client.get(printed, HTTP_ACCEPT_LANGUAGE="en"))
    assert html.count('<td class="num">–</td>') == len(teams)
    assert "<strong>–</strong> Not needed" in html
    client.logout()

    # Level teams have their head-to-head, and no dash or legend line is needed.
    tied = ChampionshipFactory(tiebreaks=chain)
    stage, _teams = round_robin_played(tied, 4, play_match)
    url = reverse("tournaments:standings", args=[tied.slug, stage.pk])
    html = html_of(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
    assert "not-needed" not in html and "<dt>–</dt>" not in html
