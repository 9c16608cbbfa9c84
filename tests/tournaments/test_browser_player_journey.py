"""A player's whole journey on his own phone (390×844), in a real browser: he signs his
team up from the poster's address, receives the team's personal link (on screen and by
email), checks in with it, finds his table on the schedule by typing his name, confirms
his match's result, and looks back at what he played on his own page. The organiser
only accepts the entry, draws the round and gives the table: he types no team.

Headless Debian Chromium through Playwright (skipped without it). Screenshots at phone,
tablet and desktop sizes go to ``$TANTEO_SCREENSHOT_DIR`` when it is set.
"""

from __future__ import annotations

import datetime

from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import timezone

from tests.browsers import DESKTOP, PHONE, shoot_three_sizes, watch_csp
from tests.tournaments.conftest import play
from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.championships import services as championship_services
from tournaments.entries import acts
from tournaments.entries import services as entry_services
from tournaments.models import (
    Championship,
    Entry,
    MatchConfirmation,
    Person,
    TeamAct,
)
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services

PASSWORD = "vale-cuatro-2026"


def test_a_player_signs_up_checks_in_finds_his_table_and_confirms_from_his_phone(
    browser, logged_in_page, live_server, shots, csp_violations
):
    organiser = get_user_model().objects.create_user(username="marta", password=PASSWORD)
    championship = ChampionshipFactory(
        name="Open de Truco de Primavera",
        slug="open-primavera",
        status=Championship.Status.REGISTRATION,
        time_zone="Europe/Madrid",
    )
    championship.organisers.add(organiser)
    for seed, name in enumerate(["Los Anchos", "Siete Bravo", "La Parda"], start=1):
        TeamFactory(championship=championship, seed=seed, name=name)
    entry_services.entry_policy_set(
        championship=championship,
        by=organiser,
        is_open=True,
        capacity=4,
        closes_at=timezone.now() + datetime.timedelta(days=3),
        asks=["club", "email"],
        fee=None,
        fee_instructions="",
    )

    # The poster carries the entry page's address (its QR code's).
    poster = logged_in_page(
        f"/organiser/{championship.slug}/entries/poster/", "marta", PASSWORD, viewport=DESKTOP
    )
    assert poster.locator("svg").count() >= 1
    entry_url = poster.inner_text("figcaption strong").strip()
    assert entry_url == f"{live_server.url}/c/{championship.slug}/enter/"

    # On his phone, Ana signs the team up and gets its link, on screen and by email.
    phone = browser.new_context(viewport=PHONE, extra_http_headers={"Accept-Language": "en"})
    watch_csp(phone, csp_violations)
    page = phone.new_page()
    page.set_default_timeout(15_000)
    page.goto(entry_url)
    shoot_three_sizes(page, shots, "journey-entry-form")
    page.fill("#id_team_name", "Los Pardos")
    page.fill("#id_player_1", "Ana Ruiz")
    page.fill("#id_player_2", "Juan Gil")
    page.fill("#id_club", "Rosario")
    page.fill("#id_email", "ana@example.com")
    page.click("button[type=submit]")
    page.wait_for_selector("#team-link")
    link = page.input_value("#team-link-text")
    assert link.startswith(f"{live_server.url}/c/{championship.slug}/team/")
    assert "Los Pardos is entered." in page.inner_text("#entry-place")
    shoot_three_sizes(page, shots, "journey-entry-done")
    (message,) = mail.outbox
    assert message.to == ["ana@example.com"] and link in message.body

    # The organiser accepts the entry, starts, and lets the teams check in themselves.
    entry = Entry.objects.get(team__name="Los Pardos")
    entry_services.entry_accept(entry=entry, by=organiser, via=TeamAct.Via.ORGANISER)
    stage = stage_services.stage_create(
        championship=championship, format="swiss", settings={"rounds": 3}
    )
    assert stage.teams.filter(name="Los Pardos").exists()
    championship_services.championship_set_status(championship=championship, status="running")
    acts.championship_self_check_in(
        championship=championship,
        until=timezone.now() + datetime.timedelta(hours=2),
        by=organiser,
    )

    page.goto(link)
    page.click("#check-in button:has-text('Check in')")
    page.wait_for_selector("#checked-in")
    shoot_three_sizes(page, shots, "journey-checked-in")

    # The others checked in at the door; the round drawn; the match given table 7.
    for team in stage.teams.exclude(name="Los Pardos"):
        stage_services.check_in_set(stage=stage, team=team, present=True)
    ours = next(
        m
        for m in stage_services.round_generate(stage=stage)
        if entry.team_id in (m.team_a_id, m.team_b_id)
    )
    result_services.match_assign(match=ours, table="7")

    # Ana finds her table on the schedule by her name, typed without its capital.
    page.goto(f"{live_server.url}/c/{championship.slug}/")
    page.click("a:has-text('Schedule: find my table')")
    page.fill("#schedule-q", "ana ruiz")
    page.click(".schedule-search button")
    page.wait_for_selector(".schedule-found")
    assert "Los Pardos" in page.inner_text(".schedule-found")
    assert "7" in page.inner_text(".found__table")
    shoot_three_sizes(page, shots, "journey-schedule-found")

    # The match is played; Ana confirms its result through the link.
    play(ours, entry.team)
    page.goto(link)
    page.click(f"#result-{ours.pk} button:has-text('Confirm the result')")
    page.wait_for_selector(".message:has-text('Result confirmed.')")
    answer = MatchConfirmation.objects.get(match=ours)
    assert answer.status == "confirmed" and not answer.on_behalf
    shoot_three_sizes(page, shots, "journey-confirmed")

    # And she looks back at what she played, on her own page.
    ana = Person.objects.get(players__name="Ana Ruiz")
    page.goto(f"{live_server.url}/people/{ana.pk}/")
    body = page.inner_text("main")
    assert "Open de Truco de Primavera" in body and "Los Pardos" in body
    assert "Juan Gil" in body  # her partner
    shoot_three_sizes(page, shots, "journey-person")

    # Every act through the link is in the audit log; the organiser typed no team.
    assert set(
        TeamAct.objects.filter(team=entry.team, via=TeamAct.Via.LINK).values_list(
            "action", flat=True
        )
    ) == {"checked_in", "confirmed"}
    assert csp_violations == []
