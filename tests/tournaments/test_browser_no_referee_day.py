"""A circuit qualifier of 16 pairs with no referee at all (issue 34), in a real browser.

The pairs enter on the public entry form and check in from the links it gives them; a
Swiss of three rounds is played with every result coming from the players' phones
(390×844: one team reports, the other confirms) or from the organiser's desk: in round 1
one result is disputed and the organiser settles it from his "results to settle" page;
in round 2 one match is kept hand by hand on a player's phone (the network cut in the
middle of its last hand, the hand sent when it returns) and the others are reported and
confirmed on the phones; round 3 comes back on paper and is typed at the desk. The
championship, an event of a circuit, is finished: the standings follow the results the
teams reported (checked against our own tally and the standings service), the circuit
ranking gives its winners their points, and the players' pages show the ratings the
ratings service computed.

No user but the organiser exists: nobody referees. Headless Debian Chromium through
Playwright (skipped without it). Screenshots at phone, tablet and desktop sizes of the
team's report and confirmation, the results to settle, the desk and the final standings
go to ``$TANTEO_SCREENSHOT_DIR`` when it is set.
"""

from __future__ import annotations

import datetime
from collections import Counter

from django.contrib.auth import get_user_model

from tests.browsers import DESKTOP, PHONE, shoot_three_sizes, watch_csp
from tests.tournaments.factories import ChampionshipFactory
from tests.tournaments.no_referee_day import (
    check_in,
    confirm,
    desk_row,
    dispute,
    enter_team,
    falta_envido_hand,
    keeper_phone,
    report,
    result_words,
    sheet_for,
)
from tournaments.circuits import services as circuit_services
from tournaments.circuits.selectors import circuit_ranking
from tournaments.entries import services as entry_services
from tournaments.models import (
    Championship,
    CircuitEvent,
    Entry,
    Match,
    MatchConfirmation,
    Person,
    Rating,
    Scorekeeping,
    Team,
    TeamAct,
)
from tournaments.ratings.selectors import person_ratings
from tournaments.stages import services as stage_services
from tournaments.standings.selectors import stage_standings

PASSWORD = "sin-arbitro-33"
SLUG = "clasificatorio-gracia"
PAIRS = 16


def _phone(browser, csp_violations):
    context = browser.new_context(viewport=PHONE, extra_http_headers={"Accept-Language": "en"})
    watch_csp(context, csp_violations)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def _strength(team: Team) -> int:
    # "Pareja 1" is the strongest pair, "Pareja 16" the weakest: the better one always wins.
    return int(team.name.rsplit(" ", 1)[1])


def _winner_side(match: Match) -> str:
    return "A" if _strength(match.team_a) < _strength(match.team_b) else "B"


def _generate(page, base: str, stage_id: int, number: int) -> list[Match]:
    page.goto(f"{base}/organiser/{SLUG}/stages/{stage_id}/")
    page.click("button:has-text('Generate the next round')")
    page.wait_for_selector(f"text=Round {number}")
    matches = list(
        Match.objects.filter(stage_id=stage_id, round__number=number)
        .select_related("team_a", "team_b")
        .order_by("pk")
    )
    assert len(matches) == PAIRS // 2 and all(m.team_b_id for m in matches)
    return matches


def test_a_circuit_qualifier_run_with_no_referee_from_entries_to_ratings(
    browser, live_server, logged_in_page, shots, csp_violations, settings
):
    # Sixteen pairs send the form from one address here (one test browser): the limit per
    # address is for the public, not for this test.
    settings.ENTRY_FORM_LIMIT = 100
    base = live_server.url
    marta = get_user_model().objects.create_user(username="marta", password=PASSWORD)
    circuit = circuit_services.circuit_create(
        name="Circuito de Truco de Gràcia",
        slug="circuito-gracia",
        family="argentine",
        start_date=datetime.date(2026, 1, 1),
        end_date=datetime.date(2026, 12, 31),
        points=[100, 70, 50, 40],
        best_of=None,
        qualify_per_event=0,
        qualify_by_points=0,
        by=marta,
    )
    championship = ChampionshipFactory(
        name="Clasificatorio de Gràcia",
        slug=SLUG,
        status=Championship.Status.REGISTRATION,
        scorekeeping=Scorekeeping.PLAYERS,
        # A falta envido is worth the whole chico: the phone keeps a chico in one hand.
        rules={"preset": "argentine", "falta_envido": "whole_chico"},
        time_zone="Europe/Madrid",
        start_date=datetime.date(2026, 6, 13),
    )
    championship.organisers.add(marta)
    entry_services.entry_policy_set(
        championship=championship,
        by=None,
        is_open=True,
        capacity=PAIRS,
        closes_at=None,
        asks=[],
        fee=None,
        fee_instructions="",
    )
    circuit_services.circuit_event_add(
        circuit=circuit, championship=championship, kind=CircuitEvent.Kind.QUALIFIER, by=marta
    )
    assert not get_user_model().objects.exclude(pk=marta.pk).exists()  # no referee account

    # 1. Sixteen pairs enter on the public form, each keeping the link it answers with.
    phone = _phone(browser, csp_violations)
    links: dict[str, str] = {}
    for number in range(1, PAIRS + 1):
        name = f"Pareja {number}"
        players = [f"Jugadora {number}A", f"Jugador {number}B"]
        links[name] = enter_team(phone, base, SLUG, name, players)
    teams = {team.name: team for team in Team.objects.filter(championship=championship)}
    assert len(teams) == PAIRS

    # 2. The organiser accepts the entries, opens play and lets the teams check in from
    # their links.
    desk = logged_in_page(f"/organiser/{SLUG}/entries/", "marta", PASSWORD, viewport=DESKTOP)
    for entry in Entry.objects.filter(championship=championship).order_by("position"):
        desk.click(f"#entry-{entry.pk} button:has-text('Accept')")
        desk.wait_for_selector(f".message:has-text('{entry.team.name} is accepted.')")
    stage = stage_services.stage_create(
        championship=championship, format="swiss", settings={"rounds": 3}
    )
    assert stage.teams.count() == PAIRS
    desk.goto(f"{base}/organiser/{SLUG}/")
    desk.click("button:has-text('Move to “In play”')")
    desk.wait_for_selector("text=The championship is now: In play.")
    desk.goto(f"{base}/organiser/{SLUG}/stages/{stage.pk}/check-in/")
    desk.click("button:has-text('Let teams check in themselves through their links')")
    desk.wait_for_selector("text=Teams may now check in themselves through their links.")
    for name, link in links.items():
        check_in(phone, link, name)
    desk.goto(f"{base}/organiser/{SLUG}/stages/{stage.pk}/check-in/")
    assert "16 of 16 teams checked in" in desk.inner_text(".check-in-summary")
    assert TeamAct.objects.filter(action=TeamAct.Action.CHECKED_IN, via="link").count() == PAIRS

    # Our own tally of what the teams and the desk said, to check the standings against.
    wins: Counter[str] = Counter()
    chicos: dict[int, list[tuple[int, int]]] = {}
    other = _phone(browser, csp_violations)
    played = 0

    def decided(match: Match, sheet: list[tuple[int, int]]) -> None:
        nonlocal played
        won = match.team_a if _winner_side(match) == "A" else match.team_b
        wins[won.name] += 1
        chicos[match.pk] = sheet
        played += 1

    # 3. Round 1: every match reported on one phone and confirmed on the other; the
    # first is disputed instead, and the organiser settles it.
    round_one = _generate(desk, base, stage.pk, 1)
    for index, match in enumerate(round_one):
        side = _winner_side(match)
        sheet = sheet_for(played, side)
        reporter, answerer = (match.team_a, match.team_b)
        if index == 0:
            # Side A reports 2–0, the second chico forgotten; side B disputes it.
            phone.goto(links[reporter.name])
            shoot_three_sizes(phone, shots, "day-report-form")
            sheet = sheet_for(1, side)  # in truth 2–1: the second chico, 21–30, to the losers
            reported = [sheet[0], sheet[2]]  # as if they forgot the chico they lost
            report(phone, links[reporter.name], match, reported, side)
            other.goto(links[answerer.name])
            shoot_three_sizes(other, shots, "day-confirm-or-dispute")
            dispute(other, links[answerer.name], match, "A second chico was played.")
            disputed, truth = match, sheet
            decided(match, sheet)
            continue
        report(phone, links[reporter.name], match, sheet, side)
        confirm(other, links[answerer.name], match, result_words(sheet))
        decided(match, sheet)
    assert Match.objects.get(pk=disputed.pk).status == Match.Status.FINISHED

    desk.goto(f"{base}/organiser/{SLUG}/disputes/")
    item = desk.locator(".queue__item", has_text="A second chico was played")
    assert f"{disputed.team_b.name} disputes" in item.inner_text()
    shoot_three_sizes(desk, shots, "day-results-to-settle")
    item.locator("a:has-text('Correct the result')").click()
    for number, (a, b) in enumerate(truth, start=1):
        desk.fill(f"#id_c{number}_A", str(a))
        desk.fill(f"#id_c{number}_B", str(b))
    desk.fill("#id_reason", "Both teams agree at the desk: a second chico was played.")
    desk.click("button:has-text('Save the result')")
    desk.wait_for_selector(f"text=Result saved: {result_words(truth)}.")
    desk.goto(f"{base}/organiser/{SLUG}/disputes/")
    desk.wait_for_selector("#nothing-to-settle")
    settled = Match.objects.get(pk=disputed.pk)
    assert settled.confirmed_at is not None
    assert [(g.score_a, g.score_b) for g in settled.games.order_by("number")] == truth
    assert set(MatchConfirmation.objects.filter(match=settled).values_list("side", "status")) == {
        ("A", "confirmed"),
        ("B", "confirmed"),
    }

    # 4. Round 2: the first match kept hand by hand on a player's phone, the network cut
    # in the middle of its last hand; every other one reported and confirmed on phones.
    round_two = _generate(desk, base, stage.pk, 2)
    kept = round_two[0]
    side = _winner_side(kept)
    keeper = keeper_phone(browser, csp_violations)
    keeper.goto(links[kept.team_a.name])
    keeper.click("#keep-score")
    keeper.wait_for_url(f"**/matches/{kept.pk}/")
    keeper.click("button:has-text('Start the match')")
    keeper.wait_for_selector("#entry[data-engine=browser]", timeout=120_000)
    keeper.wait_for_selector("[data-sync=saved]")
    falta_envido_hand(keeper, kept, side)
    keeper.wait_for_selector("[data-sync=saved]")
    assert kept.hands.count() == 1
    falta_envido_hand(keeper, kept, side, cut_after_call=True)
    keeper.wait_for_selector("[data-sync=offline]")
    assert kept.hands.count() == 1  # hand 2 is on the phone alone
    keeper.context.set_offline(False)
    # The last hand sent, the phone shows the server's page of the finished match (it
    # reloads into it: no waiting for the sync marker of the page it leaves).
    keeper.wait_for_selector("#team-confirmed", timeout=60_000)
    keeper.screenshot(path=str(shots / "day-phone-sheet-over.png"), full_page=True)
    assert keeper.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    kept.refresh_from_db()
    assert kept.status == Match.Status.FINISHED and kept.recorded == Match.Recorded.HANDS
    sheet = [(30, 0), (30, 0)] if side == "A" else [(0, 30), (0, 30)]
    other.goto(links[kept.team_b.name])
    assert other.inner_text(f"#result-words-{kept.pk}") == (
        f"Kept hand by hand: {result_words(sheet)}"
    )
    confirm(other, links[kept.team_b.name], kept, result_words(sheet))
    decided(kept, sheet)
    keeper.context.close()
    for match in round_two[1:]:
        side = _winner_side(match)
        sheet = sheet_for(played, side)
        # The losers report it this time: a team reports its own defeat as well.
        winner, loser = (match.team_a, match.team_b)
        if side == "B":
            winner, loser = loser, winner
        report(phone, links[loser.name], match, sheet, side)
        confirm(other, links[winner.name], match, result_words(sheet))
        decided(match, sheet)
    shoot_three_sizes(other, shots, "day-confirmed")

    # 5. Round 3: the paper sheets come back to the desk and are typed there.
    round_three = _generate(desk, base, stage.pk, 3)
    desk.goto(f"{base}/organiser/{SLUG}/stages/{stage.pk}/rounds/3/desk/")
    assert "0 of 8 results in" in desk.inner_text("#desk-progress")
    for match in round_three:
        sheet = sheet_for(played, _winner_side(match))
        desk_row(desk, match, sheet)
        decided(match, sheet)
    desk.wait_for_function(
        "document.getElementById('desk-progress').innerText.includes('8 of 8 results in')"
    )
    shoot_three_sizes(desk, shots, "day-desk")

    # Every result is stored as its teams (or the desk) said, confirmed, no hand kept.
    matches = Match.objects.filter(stage=stage)
    assert matches.count() == 24
    for match in matches:
        way = Match.Recorded.HANDS if match.pk == kept.pk else Match.Recorded.RESULT
        assert match.recorded == way and match.confirmed_at is not None
        assert [(g.score_a, g.score_b) for g in match.games.order_by("number")] == chicos[match.pk]
    assert set(matches.filter(hands__isnull=False).values_list("pk", flat=True)) == {kept.pk}
    # Each act through a link is in the audit log: rounds 1 and 2 reported and answered,
    # and the phone's team confirming its match by saving the last hand.
    acts = Counter(TeamAct.objects.filter(via="link").values_list("action", flat=True))
    assert (acts["reported"], acts["confirmed"], acts["disputed"]) == (15, 16, 1)
    assert acts["hand_recorded"] == 2

    # 6. The championship ends: the final standings follow the results.
    desk.goto(f"{base}/organiser/{SLUG}/")
    desk.click("button:has-text('Move to “Finished”')")
    desk.wait_for_selector("text=The championship is now: Finished.")
    lines = stage_standings(stage=stage, use_snapshot=False)
    # A Swiss of 16 in three rounds: two unbeaten pairs, then 6, 6 and 2 on 2, 1 and 0.
    assert sorted(Counter(wins[t] for t in teams).items()) == [(0, 2), (1, 6), (2, 6), (3, 2)]
    assert [line.wins for line in lines] == sorted((wins[t] for t in teams), reverse=True)
    for line in lines:
        assert line.wins == wins[line.team.name], line.team.name
        assert line.losses == 3 - wins[line.team.name], line.team.name
    public = phone
    public.goto(f"{base}/c/{SLUG}/stages/{stage.pk}/standings/")
    rows = public.locator("table.standings tbody tr")
    shown = [
        (
            rows.nth(i).locator(".team-name").inner_text(),
            rows.nth(i).locator("td").nth(1).inner_text(),
        )
        for i in range(rows.count())
    ]
    assert shown == [(line.team.name, str(line.wins)) for line in lines]
    # The strongest pair beat everyone it met: it is first.
    assert shown[0] == ("Pareja 1", "3")
    shoot_three_sizes(public, shots, "day-final-standings")

    # 7. The circuit ranking gives the qualifier's first places their points.
    public.goto(f"{base}/circuits/{circuit.slug}/")
    expected = circuit_ranking(circuit=circuit)
    first, second = lines[0].team, lines[1].team
    for kind, per_team in (("teams", 1), ("persons", 2)):
        rows = public.locator(f"table.circuit-ranking--{kind} tbody tr")
        assert rows.count() == PAIRS * per_team  # every pair placed, nobody twice
        for place, (team, points) in enumerate(((first, "100"), (second, "70"))):
            for row in range(place * per_team, (place + 1) * per_team):
                cells = rows.nth(row)
                assert cells.locator("td").nth(0).inner_text() == points, (kind, row)
                shown = cells.locator("th").inner_text()
                # A team's row names its two players; a player's row, one of the two.
                assert sum(p.name in shown for p in team.players.all()) == 2 // per_team
    assert [(line.points, line.rank) for line in expected.teams[:2]] == [(100, 1), (70, 2)]

    # 8. Each player's page shows the rating the ratings service computed for him.
    for team in (first, teams["Pareja 16"]):
        for player in team.players.all():
            (rating,) = person_ratings(person_id=player.person_id)
            assert rating.matches == 3
            public.goto(f"{base}/people/{player.person_id}/")
            assert public.inner_text("#rating-argentine") == "Rating in Argentine truco"
            assert public.inner_text(".rating__value") == str(rating.shown)
    best = Rating.objects.get(person=first.players.first().person)
    worst = Rating.objects.get(person=teams["Pareja 16"].players.first().person)
    assert best.mu > worst.mu
    assert Person.objects.filter(ratings__matches=3).count() == PAIRS * 2
    assert csp_violations == []
    for page in (phone, other, desk):
        page.context.close()
