"""The public pages a spectator follows: the match's running score and its hands told, the
board (and its TV mode), round names by stage, qualifying places, the current round."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from tests.conftest import clear_own_cache
from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.models import Championship, HandDraft, Match, Round, round_name
from tournaments.results import records, story
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services


@pytest.fixture(autouse=True)
def no_language_left_behind():
    """The client's requests activate a language in this thread: leave none active."""
    yield
    translation.deactivate()


def html_of(response) -> str:
    assert response.status_code == 200
    return response.content.decode()


def scores(html: str) -> dict[str, str]:
    """The running score of each side, as the page marks it (``data-score-side``)."""
    return dict(re.findall(r'data-score-side="([AB])">(\d+)<', html))


def singles(names=("Eliana", "Ivan"), **championship) -> Match:
    """A started match of one player a side, each team named after its player."""
    running = ChampionshipFactory(team_size=1, **championship)
    for name in names:
        team = TeamFactory(championship=running, name=name)
        player = team.memberships.get().player
        player.name = name
        player.save()
    stage = stage_services.stage_create(championship=running, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    return result_services.match_start(match=match)


def keys(match: Match) -> tuple[str, str]:
    """The record keys of side A's and side B's player."""
    match = result_selectors.match_detail(pk=match.pk)
    return records.team_keys(match.team_a)[0], records.team_keys(match.team_b)[0]


def next_mano(match: Match) -> str:
    match = result_selectors.match_detail(pk=match.pk)
    state = records.stored_state(match, match.hands.count())
    return state.next_hand(records.match_head(match)).mano


def penalty_hand(match: Match, side: str, points: int) -> dict:
    """A hand the referee awards ``points`` to ``side``, the other side going to the mazo
    (which adds what the engine says a mazo is worth)."""
    match = result_selectors.match_detail(pk=match.pk)
    folders = records.team_keys(match.team_b if side == "A" else match.team_a)
    return {
        "events": [
            {"penalty": {"to": side, "points": points, "reason": "test"}},
            *({"by": folder, "mazo": True} for folder in folders),
        ]
    }


def page(client, match: Match, language: str = "en") -> str:
    url = reverse("tournaments:match", args=[match.stage.championship.slug, match.pk])
    return html_of(client.get(url, HTTP_ACCEPT_LANGUAGE=language))


def test_the_headline_is_the_running_score_with_malas_buenas_and_the_mano(client, referee):
    match = singles()
    result_services.hand_record(
        match=match, record=penalty_hand(match, "A", 16), recorded_by=referee
    )
    result_services.hand_record(
        match=match, record=penalty_hand(match, "B", 5), recorded_by=referee
    )
    match.refresh_from_db()
    state = match.state
    html = page(client, match)
    # The engine's running score of the chico, not the chicos (still 0-0).
    assert scores(html) == {"A": str(state["score"]["A"]), "B": str(state["score"]["B"])}
    assert state["score"]["A"] >= 15 > state["score"]["B"]
    assert f"{state['score']['A'] - 15} buenas" in html
    assert f"{state['score']['B']} malas" in html
    assert re.findall(r'data-games-side="([AB])">(\d+)<', html) == [("A", "0"), ("B", "0")]
    mano = {"Eliana": keys(match)[0], "Ivan": keys(match)[1]}
    mano_name = next(name for name, key in mano.items() if key == next_mano(match))
    assert f"{mano_name} is mano" in html


def test_each_hand_is_told_with_its_calls_answers_and_points(client, referee):
    match = singles()
    eliana, ivan = keys(match)
    assert next_mano(match) == eliana
    hand = {
        "events": [
            {"by": eliana, "call": "real_envido"},
            {"by": ivan, "answer": "no_quiero"},
            {"by": eliana, "call": "truco"},
            {"by": ivan, "call": "retruco"},
            {"by": eliana, "call": "vale_cuatro"},
            {"by": ivan, "answer": "quiero"},
            {"trick": "B"},
            {"trick": "B"},
        ]
    }
    result_services.hand_record(match=match, record=hand, recorded_by=referee)
    text = re.sub(r"<[^>]+>", "", page(client, match))
    text = re.sub(r"\s+", " ", text)
    assert "Eliana: real envido, Ivan: no quiero — Eliana +1" in text
    assert (
        "Eliana: truco, Ivan: retruco, Eliana: vale cuatro, Ivan: quiero, trick 1 to Ivan, "
        "trick 2 to Ivan — Ivan +4"
    ) in text
    # The same in Spanish, with the game's own words.
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page(client, match, "es")))
    assert "Eliana: real envido, Ivan: no quiero — Eliana +1" in text
    assert "Mano a mano" in text


def test_a_stored_hand_is_told_by_the_engine_once(client, referee, admin_user, monkeypatch):
    """The page of a long match is rendered again after each hand: only the new hand (or
    one whose record, names or language changed) is scored by the engine again."""
    clear_own_cache()
    match = singles()
    for side in "ABA":
        hand = {"events": [{"trick": side}, {"trick": side}]}
        result_services.hand_record(match=match, record=hand, recorded_by=referee)
    told = []
    original = story._told

    def counted(record, names, tricks):
        told.append(record["score"])
        return original(record, names, tricks)

    monkeypatch.setattr(story, "_told", counted)
    page(client, match)
    assert len(told) == 3
    told.clear()
    page(client, match)
    assert told == []

    hand = {"events": [{"trick": "B"}, {"trick": "B"}]}
    result_services.hand_record(match=match, record=hand, recorded_by=referee)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page(client, match)))
    assert len(told) == 1
    assert text.count("trick 2 to Ivan — Ivan +1") == 2

    told.clear()
    page(client, match, "es")  # the segments are words: each language has its own
    assert len(told) == 4

    # Hand 2 corrected: it and the hands after it (their score before changed) anew.
    told.clear()
    second = match.hands.get(number=2)
    result_services.hand_correct(
        hand=second,
        record={"events": [{"trick": "A"}, {"trick": "A"}]},
        corrected_by=admin_user,
        reason="wrong side",
    )
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page(client, match)))
    assert len(told) == 3
    assert text.count("trick 2 to Eliana — Eliana +1") == 3

    # A player renamed: every hand is told with the new name.
    told.clear()
    player = match.team_a.memberships.get().player
    player.name = "Eli"
    player.save()
    page(client, match)
    assert len(told) == 4


def test_a_hand_won_without_calls_is_won_on_the_tricks(client, referee):
    match = singles()
    hand = {"events": [{"trick": "A"}, {"trick": "A"}]}
    result_services.hand_record(match=match, record=hand, recorded_by=referee)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page(client, match)))
    assert "trick 1 to Eliana, trick 2 to Eliana — Eliana +1" in text


def test_the_hand_in_progress_is_shown_from_the_tablets_draft(client, referee):
    match = singles()
    result_services.hand_record(
        match=match, record=penalty_hand(match, "A", 3), recorded_by=referee
    )
    mano = next_mano(match)
    other = next(k for k in keys(match) if k != mano)
    names = {keys(match)[0]: "Eliana", keys(match)[1]: "Ivan"}
    HandDraft.objects.create(
        match=match,
        number=2,
        record={
            "events": [
                {"by": mano, "call": "envido"},
                {"by": other, "answer": "quiero"},
                # Refused by the engine (the envido is answered): shown up to here.
                {"by": other, "answer": "quiero"},
            ]
        },
    )
    html = page(client, match)
    assert "Hand 2, in play" in html
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))
    assert f"{names[mano]}: envido, {names[other]}: quiero" in text
    assert f"{names[other]}: quiero, {names[other]}: quiero" not in text


@pytest.mark.parametrize(
    "record",
    [{"events": "not a list"}, {"events": [{"by": "nobody", "call": "truco"}]}, {"events": [7]}],
    ids=["not-a-list", "unknown-player", "not-an-event"],
)
def test_a_draft_the_engine_refuses_never_breaks_the_page(client, referee, record):
    match = singles()
    HandDraft.objects.create(match=match, number=1, record=record)
    html = page(client, match)
    assert "Hand by hand" in html


def test_a_stale_draft_is_not_shown(client, referee):
    match = singles()
    result_services.hand_record(
        match=match, record=penalty_hand(match, "A", 3), recorded_by=referee
    )
    eliana, _ivan = keys(match)
    HandDraft.objects.create(
        match=match, number=1, record={"events": [{"by": eliana, "call": "envido"}]}
    )
    assert ", in play" not in page(client, match)


def test_a_catalan_championship_speaks_of_jocs_and_the_mestre_in_every_language(client, referee):
    match = singles(names=("Anna", "Biel"), rules={"preset": "catalan"})
    result_services.hand_record(
        match=match, record=penalty_hand(match, "A", 10), recorded_by=referee
    )
    match.refresh_from_db()
    assert match.state["score"]["A"] == 11  # the engine's mazo in catalan is worth 1
    for language in ("en", "es", "ca"):
        html = page(client, match, language)
        assert scores(html) == {"A": "11", "B": "0"}
        assert "mestre" in html
        assert "jocs" in html
        assert "chico" not in html.lower()
        assert "malas" not in html and "buenas" not in html


def test_a_finished_match_headline_is_the_chicos_won(client, db, play_match):
    match = singles()
    play_match(match, match.team_b)
    match.refresh_from_db()
    html = page(client, match)
    assert scores(html) == {"A": str(match.chicos_a), "B": str(match.chicos_b)}
    assert "Final result" in html


# -- Round names --------------------------------------------------------------------


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


# -- Standings ---------------------------------------------------------------------


def groups_stage(running: Championship, teams: int = 8, advance: int = 2):
    for _ in range(teams):
        TeamFactory(championship=running)
    stage = stage_services.stage_create(
        championship=running,
        format="groups_knockout",
        settings={"group_count": 2, "advance": advance},
    )
    for match in stage_services.round_generate(stage=stage):
        if not match.is_bye:
            result_services.match_walkover(match=match, winner=match.team_a, reason="no show")
    return stage


def test_standings_mark_the_qualifying_places_with_a_legend(client, db):
    running = ChampionshipFactory()
    stage = groups_stage(running, advance=2)
    url = reverse("tournaments:standings", args=[running.slug, stage.pk])
    html = html_of(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
    assert html.count('<tr class="qualifies">') == 2 * 2  # two groups, two places each
    assert "The first 2 of each group go on to the knockout" in html
    for abbr, meaning in (("P", "Matches played"), ("W", "Matches won"), ("L", "Matches lost")):
        assert f"<dt>{abbr}</dt><dd>{meaning}</dd>" in html
    html = html_of(client.get(url, HTTP_ACCEPT_LANGUAGE="es"))
    assert "Los 2 primeros de cada grupo pasan a la eliminatoria" in html


def test_a_round_robin_has_no_qualifying_places(client, db, play_match):
    running = ChampionshipFactory()
    for _ in range(2):
        TeamFactory(championship=running)
    stage = stage_services.stage_create(championship=running, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    play_match(match, match.team_a)
    url = reverse("tournaments:standings", args=[running.slug, stage.pk])
    html = html_of(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
    assert 'class="qualifies"' not in html
    assert "knockout" not in html


def test_the_lots_column_shows_only_when_the_lots_decided(client, db, play_match):
    chain = ["points", "chico_diff", "lots"]
    running = ChampionshipFactory(tiebreaks=chain)
    for _ in range(2):
        TeamFactory(championship=running)
    stage = stage_services.stage_create(championship=running, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    play_match(match, match.team_a)
    url = reverse("tournaments:standings", args=[running.slug, stage.pk])
    html = html_of(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
    assert "Drawing of lots" not in html  # the points separated the two teams

    # Four teams, every match a walkover for team A: winners tie on everything but lots.
    tied = ChampionshipFactory(tiebreaks=chain)
    for _ in range(4):
        TeamFactory(championship=tied)
    stage = stage_services.stage_create(championship=tied, format="round_robin")
    for match in stage_services.round_generate(stage=stage):
        result_services.match_walkover(match=match, winner=match.team_a, reason="no show")
    url = reverse("tournaments:standings", args=[tied.slug, stage.pk])
    html = html_of(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
    assert '<abbr title="Drawing of lots">Lot</abbr>' in html


# -- The current round and the board --------------------------------------------------


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


def test_the_api_names_rounds_as_the_pages_do(db):
    from tests.api.conftest import V1, client_for

    running = ChampionshipFactory()
    for _ in range(4):
        TeamFactory(championship=running)
    stage = stage_services.stage_create(championship=running, format="single_elimination")
    stage_services.round_generate(stage=stage)
    body = client_for(language="es").get(f"{V1}/championships/{running.slug}/matches/").json()
    assert {(m["round_label"], m["round_name"]) for m in body["results"]} == {("W1", "Semifinales")}


@pytest.mark.parametrize("language", ["es", "ca", "en"])
def test_the_score_charts_numbers_are_never_written_the_readers_way(client, referee, language):
    """Spanish and Catalan write 60,0 for 60.0: in an SVG coordinate that drew the
    malas/buenas line at the top."""
    match = singles()
    result_services.hand_record(
        match=match, record=penalty_hand(match, "A", 4), recorded_by=referee
    )
    html = page(client, match, language)
    half = re.search(r'<line class="chart__half"[^>]*y1="([^"]+)"', html)
    assert half is not None
    assert half.group(1) == "60.0"  # half of 120 px: 15 of 30 points
    points = re.findall(r'points="([^"]+)"', html)
    assert points and all(re.fullmatch(r"[0-9.]+,[0-9.]+( [0-9.]+,[0-9.]+)*", p) for p in points)
