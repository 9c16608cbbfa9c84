"""Real-browser tests: headless Debian Chromium driven by Playwright, one per test process.

A pytest plugin of the suite (``tests/conftest.py`` names it in ``pytest_plugins``): the
``browser`` and ``logged_in_page`` fixtures, the screenshot sizes and the CSP watch.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
# Debian's Chromium, headless, with its calls home switched off: the machine has no network.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


class _SharedChromium:
    """One Playwright driver and one Chromium for the browser tests of a test process.

    Launching them took a second or two a test. Playwright's synchronous API leaves its
    event loop set as this thread's running loop while it is open, which Django's ORM (and
    asgiref's ``async_to_sync``, behind every page's announcement) refuse: it stays open
    only while browser tests run, which the run's order puts first, and is closed before
    the first test that is not one (``pytest_runtest_setup``)."""

    def __init__(self) -> None:
        self.manager = None
        self.browser = None

    def get(self):
        if self.browser is None:
            sync_api = pytest.importorskip(
                "playwright.sync_api", reason="the playwright package is not installed"
            )
            # Django refuses to run its ORM in a thread with a running loop unless told it
            # is safe (its documented workaround): here it is, the loop never runs our code.
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
            self.manager = sync_api.sync_playwright()
            playwright = self.manager.__enter__()
            self.browser = playwright.chromium.launch(
                executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
            )
        return self.browser

    def close(self) -> None:
        if self.manager is None:
            return
        try:
            if self.browser is not None:
                self.browser.close()
        finally:
            self.manager.__exit__(None, None, None)
            self.manager = self.browser = None
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


_chromium = _SharedChromium()
BROWSER_FIXTURES = frozenset({"browser", "logged_in_page"})


@pytest.fixture(scope="session", autouse=True)
def _chromium_closed_at_the_end() -> Iterator[None]:
    yield
    _chromium.close()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Close the shared Chromium before a test that does not use it (``_SharedChromium``),
    before any of its fixtures: a database connection opened while Playwright's loop was
    set stays bound to it."""
    if not BROWSER_FIXTURES.intersection(getattr(item, "fixturenames", ())):
        _chromium.close()


@pytest.fixture
def browser():
    """Headless Debian Chromium driven by Playwright (never a browser Playwright downloads),
    shared by the browser tests of this process: each test's contexts (its pages, cookies,
    storage, service workers) are closed after it, so no test sees another's.

    Skips the test when the browser or the ``playwright`` package is missing.
    """
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    browser = _chromium.get()
    before = set(browser.contexts)
    try:
        yield browser
    finally:
        for context in browser.contexts:
            if context not in before:
                context.close()


def screenshots_kept() -> bool:
    """Whether the browser tests draw their screenshots: only into ``$TANTEO_SCREENSHOT_DIR``,
    to be looked at (the ``shots`` fixture)."""
    return bool(os.environ.get("TANTEO_SCREENSHOT_DIR"))


def _not_drawn(*args, **kwargs) -> bytes:
    return b""


@pytest.fixture
def shots(tmp_path, monkeypatch) -> Path:
    """Where a test's screenshots go: ``$TANTEO_SCREENSHOT_DIR``, to look at its pages.

    Without it nobody would look at them: the test's screenshots are not drawn (they took
    a tenth of the browser tests' time), while everything the test checks on its pages at
    each size (``shoot_three_sizes``'s width on the phone included) is still checked."""
    if not screenshots_kept():
        sync_api = pytest.importorskip(
            "playwright.sync_api", reason="the playwright package is not installed"
        )
        for kind in (sync_api.Page, sync_api.Locator, sync_api.ElementHandle):
            monkeypatch.setattr(kind, "screenshot", _not_drawn)
        return tmp_path
    folder = Path(os.environ["TANTEO_SCREENSHOT_DIR"])
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def csp_violations() -> list[str]:
    """What the browser said about the Content-Security-Policy while a test ran.

    :func:`watch_csp` (which ``logged_in_page`` applies) appends each console message in
    which Chromium reports content the policy blocked; a test asserts the list is empty.
    """
    return []


PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}
DESKTOP = {"width": 1280, "height": 800}


def shoot_three_sizes(page, shots: Path, name: str) -> None:
    """Screenshots of ``page`` at phone, tablet and desktop sizes (``name-phone.png``...);
    on the phone nothing may be wider than the screen."""
    size = page.viewport_size
    for label, viewport in (("phone", PHONE), ("tablet", TABLET), ("desktop", DESKTOP)):
        page.set_viewport_size(viewport)
        if label == "phone":
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name
        page.screenshot(path=str(shots / f"{name}-{label}.png"), full_page=True)
    page.set_viewport_size(size)


def watch_csp(context, violations: list[str]) -> None:
    """Collect into ``violations`` every CSP report of the pages of a browser context."""

    def on_console(message) -> None:
        if "Content Security Policy" in message.text:
            violations.append(f"{message.page.url if message.page else ''}: {message.text}")

    context.on("console", on_console)


def log_in(context, live_server, username: str, password: str) -> None:
    """Log ``username`` in for the pages of the browser ``context``, as the login form would
    (a session on the server, its cookie in the browser) without loading the form's pages:
    three page loads a browser test had no need of. The form itself is driven in the
    browser by the tests that are about it (the admin's, the entry pages', the league's)."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    user = get_user_model().objects.get(username=username)
    assert user.check_password(password), username
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    context.add_cookies(
        [
            {
                "name": name,
                "value": client.cookies[name].value,
                "url": live_server.url,
                "httpOnly": True,
                "secure": settings.SESSION_COOKIE_SECURE,
                "sameSite": "Lax",
            }
        ]
    )


@pytest.fixture
def logged_in_page(browser, live_server, csp_violations):
    """A page of ``path`` opened by a logged-in user (``log_in``), and return it.

    Called as ``logged_in_page(path, username, password, viewport=..., language=...)``.
    Whatever the policy blocks on its pages goes to ``csp_violations``.
    """

    def open_page(path: str, username: str, password: str, *, viewport, language: str = "en"):
        context = browser.new_context(
            viewport=viewport, extra_http_headers={"Accept-Language": language}
        )
        watch_csp(context, csp_violations)
        log_in(context, live_server, username, password)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(f"{live_server.url}{path}")
        assert page.url == f"{live_server.url}{path}", page.url
        return page

    return open_page
