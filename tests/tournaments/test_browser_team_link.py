"""A team's personal link in a real browser, on a phone: the organiser issues the link
(shown once) and lets teams check in themselves; the team opens its link, checks in, sees
the table of its next match once the round is drawn, and confirms the result of its
finished match; the organiser's audit log shows what the team did.

Headless Debian Chromium through Playwright (skipped without it). Screenshots at phone,
tablet and desktop sizes go to ``$TANTEO_SCREENSHOT_DIR`` when it is set.
"""

from __future__ import annotations

import datetime

from django.contrib.auth import get_user_model
from django.utils import timezone

from tests.browsers import DESKTOP, PHONE, shoot_three_sizes, watch_csp
from tests.tournaments.conftest import play
from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.models import Championship, CheckIn, MatchConfirmation, TeamAct
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services

PASSWORD = "vale-cuatro-2026"


def test_a_team_checks_in_sees_its_table_and_confirms_through_its_link(
    browser, logged_in_page, live_server, shots, csp_violations
):
    marta = get_user_model().objects.create_user(username="marta", password=PASSWORD)
    championship = ChampionshipFactory(
        name="Abierto de Truco de Gràcia",
        slug="abierto-gracia",
        status=Championship.Status.RUNNING,
        time_zone="Europe/Madrid",
    )
    championship.organisers.add(marta)
    names = ["Los Anchos", "Las Siete de Oro", "El Mazo", "Flor y Contraflor"]
    for n, name in enumerate(names, start=1):
        TeamFactory(championship=championship, seed=n, name=name)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    first, other = stage_services.round_generate(stage=stage)
    play(first, first.team_a)
    # Round 1 is over: check-in through the links is for round 2 (it waits for the end of
    # the round being played).
    play(other, other.team_b)
    team = first.team_b

    # The organiser issues the team's link (shown once) and opens the self check-in.
    base = f"/organiser/{championship.slug}"
    organiser = logged_in_page(f"{base}/teams/{team.pk}/", "marta", PASSWORD, viewport=DESKTOP)
    assert "No live link." in organiser.inner_text("#team-link-panel")
    organiser.click("button:has-text('Issue a new personal link')")
    organiser.wait_for_selector("#team-link-text")
    link = organiser.input_value("#team-link-text")
    assert f"/c/{championship.slug}/team/" in link
    shoot_three_sizes(organiser, shots, "links-organiser-link-shown")
    organiser.goto(f"{live_server.url}{base}/teams/{team.pk}/")
    assert "A live link exists" in organiser.inner_text("#team-link-panel")
    shoot_three_sizes(organiser, shots, "links-organiser-team-panel")

    organiser.goto(f"{live_server.url}{base}/stages/{stage.pk}/check-in/")
    until = timezone.localtime(timezone.now() + datetime.timedelta(hours=2), championship.zone)
    organiser.fill("#id_until", until.strftime("%Y-%m-%dT%H:%M"))
    organiser.click("button:has-text('Let teams check in themselves')")
    organiser.wait_for_selector(".message:has-text('Teams may now check in themselves')")
    shoot_three_sizes(organiser, shots, "links-organiser-check-in-window")

    # The team, on a phone.
    phone = browser.new_context(viewport=PHONE, extra_http_headers={"Accept-Language": "en"})
    watch_csp(phone, csp_violations)
    page = phone.new_page()
    page.set_default_timeout(15_000)
    answer = page.goto(link)
    assert answer.headers["x-robots-tag"].startswith("noindex")
    assert answer.headers["referrer-policy"] == "strict-origin"
    assert team.name in page.inner_text("h1")
    assert "No match scheduled yet." in page.inner_text("#next-match")
    shoot_three_sizes(page, shots, "links-team-before")

    page.click("#check-in button:has-text('Check in')")
    page.wait_for_selector("#checked-in")
    assert f"{team.name} is checked in." in page.inner_text(".messages")
    assert CheckIn.objects.get(team=team, stage=stage, round_number=2).present

    # The organiser checks the others in, draws round 2 and gives the team its table.
    stage_services.check_in_all(stage=stage)
    round_two = stage_services.round_generate(stage=stage)
    mine = next(m for m in round_two if team.pk in (m.team_a_id, m.team_b_id))
    result_services.match_assign(
        match=mine,
        table="12",
        scheduled_at=datetime.datetime(2026, 5, 9, 17, 0, tzinfo=datetime.UTC),
        referee=None,
    )
    page.reload()
    assert page.inner_text("#next-match-table") == "12"
    assert "7 p.m." in page.inner_text("#next-match-time")  # 17:00 UTC, in Madrid
    opponent = mine.team_a if mine.team_b_id == team.pk else mine.team_b
    assert opponent.name in page.inner_text("#next-match-opponent")
    assert page.is_visible(f"#result-{first.pk}")
    shoot_three_sizes(page, shots, "links-team-next-match")

    # The result of its finished match, confirmed.
    page.click(f"#result-{first.pk} button:has-text('Confirm the result')")
    page.wait_for_selector(".message:has-text('Result confirmed.')")
    assert not page.is_visible(f"#result-{first.pk}")
    answer = MatchConfirmation.objects.get(match=first)
    side = "A" if first.team_a_id == team.pk else "B"
    assert (answer.side, answer.status, answer.on_behalf) == (side, "confirmed", False)
    shoot_three_sizes(page, shots, "links-team-after")

    # Every act through the link is in the organiser's audit log.
    assert set(TeamAct.objects.filter(via="link").values_list("action", flat=True)) == {
        "checked_in",
        "confirmed",
    }
    organiser.goto(f"{live_server.url}{base}/audit/")
    section = organiser.inner_text("#team-acts")
    assert "Checked in" in section and "Result confirmed" in section
    assert "personal link" in section
    shoot_three_sizes(organiser, shots, "links-organiser-audit")

    # A revoked link opens nothing.
    organiser.goto(f"{live_server.url}{base}/teams/{team.pk}/")
    organiser.click("button:has-text('Revoke the link')")
    organiser.wait_for_selector(".message:has-text('no longer works')")
    refused = page.goto(link)
    assert refused.status == 403
    assert "This link was revoked" in page.inner_text("#link-refused")
    shoot_three_sizes(page, shots, "links-team-refused")
    assert csp_violations == []
