"""In a real browser: the Content-Security-Policy is enforced, and the admin works under it.

Headless Debian Chromium driven by Playwright (tests/conftest.py); skips without them.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model

from tests.browsers import watch_csp
from tests.tournaments.factories import ChampionshipFactory

DESKTOP = {"width": 1280, "height": 900}


def test_the_browser_blocks_an_inline_script_and_says_so(browser, live_server, csp_violations):
    """The watcher the other browser tests rely on does hear the browser refuse code."""
    context = browser.new_context(viewport=DESKTOP)
    watch_csp(context, csp_violations)
    page = context.new_page()
    page.goto(f"{live_server.url}/")
    page.evaluate(
        """() => {
            const script = document.createElement("script");
            script.textContent = "window.injected = true;";
            document.body.appendChild(script);
        }"""
    )
    page.wait_for_timeout(200)  # the console message arrives asynchronously
    assert page.evaluate("window.injected === undefined")
    assert any("inline script" in message for message in csp_violations), csp_violations
    context.close()


def test_the_admin_works_under_the_policy(browser, live_server, csp_violations):
    get_user_model().objects.create_superuser("root", password="retruco-y-vale-4")
    championship = ChampionshipFactory(name="Copa del Admin")
    context = browser.new_context(viewport=DESKTOP, extra_http_headers={"Accept-Language": "en"})
    watch_csp(context, csp_violations)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/admin/")
    page.fill("#id_username", "root")
    page.fill("#id_password", "retruco-y-vale-4")
    page.click("input[type=submit]")
    page.wait_for_selector("text=Site administration")
    page.goto(f"{live_server.url}/admin/tournaments/championship/")
    page.wait_for_selector("text=Copa del Admin")
    page.goto(f"{live_server.url}/admin/tournaments/championship/{championship.pk}/change/")
    page.wait_for_selector("input[name=name]")
    # The admin's own scripts ran (its theme toggle and the sidebar are static files).
    assert page.evaluate("typeof window.django") == "object"
    assert csp_violations == []
    context.close()
