"""The API's docs page (Swagger UI) in a real browser, under the site's Content-Security-
Policy: nothing blocked, no error, and a lock only on the operations that need credentials.

Headless Debian Chromium driven by Playwright (tests/conftest.py); skips without them.
"""

from __future__ import annotations

from tests.browsers import watch_csp

DESKTOP = {"width": 1280, "height": 900}


def test_the_docs_page_works_under_the_policy_with_locks_only_where_needed(
    browser, live_server, csp_violations
):
    context = browser.new_context(viewport=DESKTOP, extra_http_headers={"Accept-Language": "en"})
    watch_csp(context, csp_violations)
    errors: list[str] = []
    context.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector(".opblock")

    def operation(method: str, path: str):
        return page.locator(f".opblock-{method}:has([data-path='{path}'])").first

    # The page's own style (a file now) applied: the body has no margin.
    assert page.evaluate("getComputedStyle(document.body).margin") == "0px"
    public = operation("get", "/api/v1/championships/{slug}/")
    assert public.count() == 1
    assert public.locator(".authorization__btn").count() == 0
    written = operation("patch", "/api/v1/championships/{slug}/")
    assert written.locator(".authorization__btn").count() == 1
    draft = operation("get", "/api/v1/matches/{match_id}/draft/")
    assert draft.locator(".authorization__btn").count() == 1
    assert csp_violations == []
    assert errors == []
    context.close()
