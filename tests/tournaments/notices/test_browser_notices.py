"""The organiser calls a round from his phone and reads what was told; the page at every
size (screenshots to look at), and the one-click unsubscribe page a player opens."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from tests.tournaments.factories import ChampionshipFactory
from tests.tournaments.notices.conftest import round_of
from tests.tournaments.test_browser_league import SIZES
from tournaments.models import Notice, Scorekeeping
from tournaments.notices.stops import stop_token

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "truco-y-retruco-2026"


def test_the_round_is_called_from_a_phone_and_each_notice_listed(
    browser, live_server, shots, csp_violations, logged_in_page
):
    championship = ChampionshipFactory(
        name="Copa Avisos", slug="copa-avisos", scorekeeping=Scorekeeping.RESULTS
    )
    matches = round_of(championship, ["es", "ca", "en", "en", "es", "ca"])
    for n, match in enumerate(matches, start=1):
        match.table = str(n)
        match.save()
    user = get_user_model().objects.create_user(username="avisos", password=PASSWORD)
    championship.organisers.add(user)
    path = reverse("organiser:round_notices", args=[championship.slug, matches[0].stage_id, 1])
    page = logged_in_page(path, "avisos", PASSWORD, viewport=SIZES["phone"])
    page.click("#call-round-button")
    page.wait_for_selector(".told--sent")
    assert page.get_by_text("6 teams told their match is ready.").is_visible()
    assert Notice.objects.filter(state=Notice.State.SENT).count() == 6
    assert len(mail.outbox) == 6
    page.fill("#message-text", "Bring the\nsheets back to the desk")
    page.select_option("#message-to", str(matches[0].pk))
    page.click("#message-send")
    page.wait_for_selector("text=Message sent to 2 teams.")
    context = page.context
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.goto(f"{live_server.url}{path}")
        page.screenshot(path=str(shots / f"notices-round-{size}.png"), full_page=True)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"the notices page is {width}px wide at {size}"
    stop = f"/mails/stop/{stop_token(matches[0].team_a.entry)}/"
    page.set_viewport_size(SIZES["phone"])
    page.goto(f"{live_server.url}{stop}")
    page.click("#mails-stop")
    page.wait_for_selector("#mails-stopped")
    page.screenshot(path=str(shots / "notices-stopped-phone.png"), full_page=True)
    context.close()
    assert csp_violations == []


def test_the_share_button_opens_the_phones_share_sheet_with_the_rounds_tables(
    browser, live_server, csp_violations, logged_in_page
):
    championship = ChampionshipFactory(name="Copa Compartida", slug="copa-compartida")
    matches = round_of(championship, ["es", "ca", "en", "en"])
    for n, match in enumerate(matches, start=1):
        match.table = str(n)
        match.save()
    user = get_user_model().objects.create_user(username="comparte", password=PASSWORD)
    championship.organisers.add(user)
    path = reverse("organiser:round_assign", args=[championship.slug, matches[0].stage_id, 1])
    page = logged_in_page(path, "comparte", PASSWORD, viewport=SIZES["phone"])
    # Without a share sheet (a desktop browser): the button is the WhatsApp link.
    link = page.locator("#share")
    assert link.get_attribute("href").startswith("https://wa.me/?text=")
    # A phone's share sheet gets the text, and the page stays.
    page.context.add_init_script(
        "navigator.share = (data) => { window.__shared = data.text; return Promise.resolve(); };"
    )
    page.goto(f"{live_server.url}{path}")
    page.click("#share")
    shared = page.evaluate("window.__shared")
    assert shared.startswith("Copa Compartida — Round 1\ntable 1: ")
    assert shared.endswith(f"/c/copa-compartida/stages/{matches[0].stage_id}/rounds/1/")
    assert page.url.endswith(path)
    page.context.close()
    assert csp_violations == []
