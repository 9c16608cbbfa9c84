"""The public pages' cache: a saved result invalidates exactly the pages that show it.

A page served from the cache costs no query; one rendered again costs its usual few. So
the query count of each page after a write says whether the write invalidated it. The
writes run their on-commit announcements (``django_capture_on_commit_callbacks``), as a
real request's commit would.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournaments.conftest import chico_hand
from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.championships import services as championship_services
from tournaments.live import announce, pagecache, versions
from tournaments.models import Championship
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services
from tournaments.web.public import championships as public

pytestmark = pytest.mark.page_cache


def _league(name: str, commit, teams: int = 4) -> dict:
    championship = ChampionshipFactory(name=name, status=Championship.Status.RUNNING)
    for _ in range(teams):
        TeamFactory(championship=championship)
    stage = commit(stage_services.stage_create, championship=championship, format="round_robin")
    first, second, *_others = matches = commit(stage_services.round_generate, stage=stage)
    for match in matches:
        commit(result_services.match_start, match=match)
    slug = championship.slug
    return {
        "championship": championship,
        "stage": stage,
        "match": first,
        "urls": {
            "home": reverse("tournaments:home"),
            "championship": reverse("tournaments:championship", args=[slug]),
            "standings": reverse("tournaments:standings", args=[slug, stage.pk]),
            "round": reverse("tournaments:round", args=[slug, stage.pk, 1]),
            "match": reverse("tournaments:match", args=[slug, first.pk]),
            "other_match": reverse("tournaments:match", args=[slug, second.pk]),
        },
    }


@pytest.fixture
def leagues(db, commit):
    return _league("Copa Rosario", commit), _league("Liga Tandil", commit)


def _queries(client, url) -> int:
    """How many queries ``url`` costs now (0: it came from the cache)."""
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(captured.captured_queries)


def _heading(page: str) -> str:
    return page[page.index("<h1>") : page.index("</h1>")]


def _warm(client, urls) -> None:
    for url in urls:
        assert client.get(url).status_code == 200


def _a_chico_played_then_every_page_seen(client, leagues, commit, referee):
    """The first league's first match has won a chico; every page of both leagues is
    cached. Returns that league, the match and every page."""
    league, other = leagues
    match = league["match"]
    commit(
        result_services.hand_record, match=match, record=chico_hand(match, "A"), recorded_by=referee
    )
    everything = [*league["urls"].values(), *other["urls"].values()]
    _warm(client, everything)
    return league, match, everything


def test_a_page_seen_once_is_then_served_without_a_query(client, leagues):
    (league, _other) = leagues
    urls = league["urls"].values()
    _warm(client, urls)
    for url in urls:
        assert _queries(client, url) == 0, url


def test_a_hand_invalidates_exactly_the_pages_that_show_it(client, leagues, commit, referee):
    league, other = leagues
    everything = [*league["urls"].values(), *other["urls"].values()]
    _warm(client, everything)
    match = league["match"]

    commit(
        result_services.hand_record,
        match=match,
        record=chico_hand(match, "A"),
        recorded_by=referee,
    )

    rendered = {url for url in everything if _queries(client, url) > 0}
    # A chico won decides nothing yet: the standings and the championship's page (teams,
    # current rounds) stay as they were; the round and the match show the hand.
    shows_it = {league["urls"][name] for name in ("round", "match")}
    assert rendered == shows_it
    # And what they show is the new score, at once.
    page = client.get(league["urls"]["match"]).content.decode()
    assert 'data-games-side="A">1</span>' in page  # the chico won, in the headline


def test_a_deciding_hand_also_renews_the_standings_and_the_championship(
    client, leagues, commit, referee
):
    league, match, everything = _a_chico_played_then_every_page_seen(
        client, leagues, commit, referee
    )

    commit(
        result_services.hand_record, match=match, record=chico_hand(match, "A"), recorded_by=referee
    )

    match.refresh_from_db()
    assert match.winner_id == match.team_a_id
    rendered = {url for url in everything if _queries(client, url) > 0}
    shows_it = {league["urls"][name] for name in ("championship", "standings", "round", "match")}
    assert rendered == shows_it
    standings = client.get(league["urls"]["standings"]).content.decode()
    assert standings.index(match.team_a.name) < standings.index(match.team_b.name)


def _rows_drawn(monkeypatch, module, row_template: str) -> list[int]:
    """The matches whose row ``module`` draws with ``row_template`` from now on, in
    order (the list grows as they are drawn)."""
    drawn = []
    original = module.render_to_string

    def spy(template, context=None, *args, **kwargs):
        if template == row_template:
            drawn.append(context["match"].pk)
        return original(template, context, *args, **kwargs)

    monkeypatch.setattr(module, "render_to_string", spy)
    return drawn


def test_a_round_renders_again_only_the_row_of_the_match_that_changed(
    client, leagues, commit, referee, monkeypatch
):
    league, _other = leagues
    url = league["urls"]["round"]
    match = league["match"]
    _warm(client, [url])
    drawn = _rows_drawn(monkeypatch, public, "tournaments/_match_row.html")
    commit(
        result_services.hand_record, match=match, record=chico_hand(match, "B"), recorded_by=referee
    )

    page = client.get(url).content.decode()
    assert drawn == [match.pk]
    assert page.count('class="match-card match-card--') == 2  # both rows, in order
    assert page.index(match.team_a.name) < page.index(league["match"].team_b.name)
    # A team renamed: every row naming it is drawn again.
    drawn.clear()
    commit(championship_services.team_update, team=match.team_b, name="Los Renombrados")
    assert "Los Renombrados" in client.get(url).content.decode()
    assert sorted(drawn) == sorted(
        league["stage"].matches.filter(round__number=1).values_list("pk", flat=True)
    )


def test_the_schedule_draws_again_only_the_row_of_the_match_that_changed(
    client, leagues, commit, referee, monkeypatch
):
    """Every hand renews the schedule (it follows its championship), but its rows come
    from the cache but for the match that changed; the row then shows the result."""
    from tournaments.web.public import people

    league, match, _everything = _a_chico_played_then_every_page_seen(
        client, leagues, commit, referee
    )
    url = reverse("tournaments:schedule", args=[league["championship"].slug])
    _warm(client, [url])
    drawn = _rows_drawn(monkeypatch, people, "tournaments/_schedule_row.html")
    commit(
        result_services.hand_record, match=match, record=chico_hand(match, "A"), recorded_by=referee
    )

    page = client.get(url).content.decode()
    assert drawn == [match.pk]
    assert page.count('class="schedule-item ') == 2  # both rows, by table
    row = page[page.index(f"/matches/{match.pk}/") - 900 : page.index(f"/matches/{match.pk}/")]
    assert "2–0" in row or "2-0" in row, row
    # A search answers from the same rows and the matches of the teams found.
    drawn.clear()
    found = client.get(url, {"q": match.team_b.name}).content.decode()
    assert drawn == []
    # Each team found, with its match of the round (the one played: against team A).
    assert found.count('class="found__where"') == found.count('class="found__team"') >= 1
    section = found[found.index("schedule-found") : found.index("</section>")]
    assert section.count(match.team_a.name) == 1


def test_the_schedules_search_follows_renamed_teams_and_hidden_surnames(client, leagues, commit):
    """The names a search looks in are folded once and kept in the cache: a team renamed
    is found by its new name at once, and a player who asks to be shown as "Ana R." is no
    longer found by his surname."""
    from tests.tournaments.factories import StaffFactory
    from tournaments.people import services as people_services

    league, _other = leagues
    url = reverse("tournaments:schedule", args=[league["championship"].slug])
    team = league["match"].team_a
    player = team.memberships.select_related("player__person").first().player
    player.person.name = player.name = "Begoña Martínez Soler"
    player.person.save()
    player.save()

    def found(query: str) -> str:
        page = client.get(url, {"q": query}).content.decode()
        return page[page.index("schedule-found") : page.index("</section>")]

    assert team.name not in found("Los Renombrados")
    assert team.name in found("soler")
    commit(championship_services.team_update, team=team, name="Los Renombrados")
    assert "Los Renombrados" in found("renombrados")
    commit(
        people_services.person_update,
        person=player.person,
        by=StaffFactory(),
        initial_only=True,
    )
    assert "Los Renombrados" not in found("soler")
    assert "Begoña S." in found("begona")


def test_a_round_keeps_its_names_and_current_round_until_a_result_changes_them(
    client, leagues, commit, referee, monkeypatch
):
    league, _other = leagues
    url = league["urls"]["round"]
    first, second = league["stage"].matches.filter(round__number=1).order_by("pk")
    # The next round out already: round 1 stays the current one while it is being played.
    commit(stage_services.round_generate, stage=league["stage"])
    slug, stage = league["championship"].slug, league["stage"].pk
    now_playing = '<a class="is-current-round" href="{}">'
    round_2 = reverse("tournaments:round", args=[slug, stage, 2])
    page = client.get(url).content.decode()
    assert "badge--current" in _heading(page)
    assert now_playing.format(url) in page
    drawn = []
    original = public.render_to_string

    def spy(template, context=None, *args, **kwargs):
        drawn.append(template)
        return original(template, context, *args, **kwargs)

    monkeypatch.setattr(public, "render_to_string", spy)

    def hand(match, side):
        commit(
            result_services.hand_record,
            match=match,
            record=chico_hand(match, side),
            recorded_by=referee,
        )

    # A hand that decides nothing: the row of its match alone, from one query.
    hand(first, "A")
    assert _queries(client, url) == 1
    assert drawn == ["tournaments/_match_row.html"]
    # Results that decide the round's two matches: round 2 is now the current one.
    for match in (first, second, second):
        hand(match, "A")
    drawn.clear()
    page = client.get(url).content.decode()
    assert "tournaments/_round_body.html" in drawn
    assert "badge--current" not in _heading(page)
    assert now_playing.format(round_2) in page
    assert page.count('class="match-card match-card--') == 2


def test_a_tap_at_the_table_renders_only_the_hand_in_progress(
    client, leagues, commit, referee, monkeypatch
):
    """A draft step renews the match page (and the board) and no other; the page then
    tells the draft's events without reading or telling the stored hands again."""
    from tournaments.results import drafts, story

    league, match, everything = _a_chico_played_then_every_page_seen(
        client, leagues, commit, referee
    )
    told = []
    original = story.hand_lines
    monkeypatch.setattr(story, "hand_lines", lambda *a, **k: told.append(1) or original(*a, **k))

    # The next hand's mano and an opponent, as the engine seats them.
    mano, other = (event["by"] for event in chico_hand(match, "A")["events"][:2])
    events = [{"by": mano, "call": "envido"}]
    commit(
        drafts.draft_save,
        match=match,
        number=match.hands.count() + 1,
        record={"events": events},
        device="tablet-1",
        revision=0,
        by=referee,
    )

    rendered = {url for url in everything if _queries(client, url) > 0}
    assert rendered == {league["urls"]["match"]}
    page = client.get(league["urls"]["match"]).content.decode()
    assert "hand-now__lines" in page and "envido" in page
    assert told == []  # the stored hands came from the cache, as they were
    # One query: the draft (the championship is kept until its names or status change).
    commit(
        drafts.draft_save,
        match=match,
        number=match.hands.count() + 1,
        record={"events": [*events, {"by": other, "answer": "quiero"}]},
        device="tablet-1",
        revision=1,
        by=referee,
    )
    assert _queries(client, league["urls"]["match"]) == 1
    assert "quiero" in client.get(league["urls"]["match"]).content.decode()

    # The hand saved: the stored part is told again, with the new hand and no draft.
    commit(
        result_services.hand_record, match=match, record=chico_hand(match, "B"), recorded_by=referee
    )
    page = client.get(league["urls"]["match"]).content.decode()
    assert told == [1]
    assert page.count('class="hand-line"') == 2
    assert "hand-now__lines" not in page


def test_a_tap_leaves_the_championships_pages_that_do_not_show_it_alone(
    client, leagues, commit, referee, settings
):
    """The board, the schedule, the statistics and the matchdays show the stored hands,
    never a hand in progress: a tap at any table renders none of them again (at 35 taps a
    second on a day of 200 tables, each would otherwise be rendered at every one), and
    each, rendered afresh from the database, is still the page the cache serves."""
    from tournaments.results import drafts

    league, match, _everything = _a_chico_played_then_every_page_seen(
        client, leagues, commit, referee
    )
    slug = league["championship"].slug
    pages = [
        reverse(f"tournaments:{name}", args=[slug])
        for name in ("board", "schedule", "statistics", "fixtures")
    ]
    _warm(client, [*pages, league["urls"]["match"]])
    mano = chico_hand(match, "B")["events"][0]["by"]
    commit(
        drafts.draft_save,
        match=match,
        number=match.hands.count() + 1,
        record={"events": [{"by": mano, "call": "envido"}]},
        device="tablet-1",
        revision=0,
        by=referee,
    )

    assert {url: _queries(client, url) for url in pages} == dict.fromkeys(pages, 0)
    assert _queries(client, league["urls"]["match"]) > 0  # the page that shows the tap
    cached = {url: _unstamped(client.get(url).content) for url in pages}
    settings.PAGE_CACHE = False
    assert {url: _unstamped(client.get(url).content) for url in pages} == cached


def _unstamped(page: bytes) -> str:
    """A page without its "last updated" time (the moment it was rendered)."""
    text = page.decode()
    return re.sub(r"\d\d:\d\d:\d\d", "", text)


def test_a_renamed_team_invalidates_its_championship_only(client, leagues, commit):
    league, other = leagues
    _warm(client, [*league["urls"].values(), *other["urls"].values()])
    team = league["match"].team_a

    commit(championship_services.team_update, team=team, name="Los Renombrados")

    for name, url in league["urls"].items():
        expected = 0 if name == "home" else 1
        assert min(_queries(client, url), 1) == expected, name
    for url in other["urls"].values():
        assert _queries(client, url) == 0, url
    assert "Los Renombrados" in client.get(league["urls"]["match"]).content.decode()


def test_a_championship_edit_reaches_the_home_page(client, leagues, commit):
    league, _other = leagues
    home = league["urls"]["home"]
    _warm(client, [home])
    championship = league["championship"]

    commit(
        championship_services.championship_update,
        championship=championship,
        name="Copa Rosario 2026",
        start_date=championship.start_date,
    )

    assert _queries(client, home) > 0
    assert "Copa Rosario 2026" in client.get(home).content.decode()


def test_a_championship_edit_reaches_every_page_that_keeps_the_championship(
    client, leagues, commit
):
    league, _other = leagues
    pages = [league["urls"][name] for name in ("championship", "round", "match", "standings")]
    _warm(client, pages)
    commit(
        championship_services.championship_update,
        championship=league["championship"],
        name="Copa Rosario Renombrada",
        start_date=league["championship"].start_date,
    )
    for url in pages:
        assert "Copa Rosario Renombrada" in client.get(url).content.decode(), url


def test_an_anonymous_page_carries_no_visitor_state(client, leagues):
    league, _other = leagues
    for url in league["urls"].values():
        for _ in range(2):  # rendered, then from the cache
            response = client.get(url)
            assert not response.cookies, url
            assert "csrfmiddlewaretoken" not in response.content.decode()
            assert "Cookie" not in response.get("Vary", ""), url
            assert response["ETag"].startswith('"')
            assert "public" in response["Cache-Control"]


def test_a_browser_revalidating_gets_304_until_a_result(client, leagues, commit, referee):
    league, _other = leagues
    url = league["urls"]["round"]
    etag = client.get(url)["ETag"]

    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again["ETag"] == etag

    match = league["match"]
    commit(
        result_services.hand_record,
        match=match,
        record=chico_hand(match, "B"),
        recorded_by=referee,
    )
    fresh = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert fresh.status_code == 200
    assert fresh["ETag"] != etag


def test_each_language_is_cached_apart(client, leagues):
    league, _other = leagues
    url = league["urls"]["standings"]
    spanish = client.get(url, HTTP_ACCEPT_LANGUAGE="es")
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert '<html lang="es">' in spanish.content.decode()
    assert '<html lang="en">' in english.content.decode()
    assert spanish["ETag"] != english["ETag"]
    assert '<html lang="en">' in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_a_logged_in_user_gets_his_own_page(client, leagues, django_user_model):
    league, _other = leagues
    url = league["urls"]["match"]
    client.get(url, HTTP_ACCEPT_LANGUAGE="en")  # cached for anonymous readers
    user = django_user_model.objects.create_user("marta", password="x-Very-long-1")
    client.force_login(user)

    response = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert "Log out marta" in html  # not the anonymous page from the cache
    assert "private" in response["Cache-Control"]
    assert "ETag" not in response
    assert _queries(client, url) > 0


def test_a_part_whose_match_vanished_as_the_page_renders_is_left_out(db):
    # The ids were read, then one match was removed (its round deleted) before its row
    # was rendered: the page lists the others rather than failing.
    rows = pagecache.fragments(
        "match-row",
        [1, 2, 3],
        lambda pk: [f"m.{pk}"],
        lambda missing: {1: "<li>1</li>", 3: "<li>3</li>"},
    )
    assert rows == ["<li>1</li>", "<li>3</li>"]


def test_parts_once_read_come_from_this_process_until_they_change(db, monkeypatch):
    """A round of 200 tables reads its rows from this process's memory, not the shared
    cache, and a changed row is the only one rendered and fetched."""
    rendered: list[int] = []

    def render(missing):
        rendered.extend(missing)
        return {pk: f"<li>{pk}.{versions.versions([f'm.{pk}'])[0]}</li>" for pk in missing}

    def topics(pk):
        return [f"m.{pk}"]

    first = pagecache.fragments("row", [1, 2, 3], topics, render)
    asked: list[list[str]] = []
    shared = pagecache.cache.get_many

    def spy(keys, *args, **kwargs):
        if any(key.startswith(pagecache.FRAGMENT_PREFIX) for key in keys):
            asked.append(list(keys))
        return shared(keys, *args, **kwargs)

    monkeypatch.setattr(pagecache.cache, "get_many", spy)
    assert pagecache.fragments("row", [1, 2, 3], topics, render) == first
    assert asked == []  # every row from memory: the shared cache is not asked
    announce.bump(["m.2"])
    again = pagecache.fragments("row", [1, 2, 3], topics, render)
    assert (again[0], again[2]) == (first[0], first[2])
    assert again[1] != first[1]
    assert rendered == [1, 2, 3, 2]
    assert len(asked) == 1 and len(asked[0]) == 1  # only the changed row was looked for
