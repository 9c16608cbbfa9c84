"""Benchmark: the referee's tablet in a browser, engine in the page's Web Worker.

    .venv/bin/python bench/tablet.py                 # --taps 100; a temporary SQLite database

Headless Debian Chromium (``/usr/bin/chromium``, driven by Playwright) on a tablet
viewport (820×1180) against a live server of this checkout on loopback. Measures

- **engine load**: from the page creating the Web Worker to the engine answering
  (Pyodide started, ``scoring`` unpacked and imported), ``window.tanteoTablet.loadMs``:
  *cold* in a fresh browser profile, *cached* on a reload once the service worker holds
  Pyodide and the engine;
- **tap**: from a tap (a click on a ``data-event`` button, or on "Undo", alternately) to
  the buttons drawn again for the next step, measured in the page (``performance.now()``
  around the click and the redraw), median and 95th percentile over ``--taps`` taps;
- **server tap**, for comparison: the same taps with JavaScript off, each a form post and
  a page load through the server (the flow without the engine in the browser).

Target: a tap under 50 ms once loaded (bench/README.md, "The tablet").
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
TABLET = {"width": 820, "height": 1180}
PASSWORD = "bench-falta-envido"

# In the page: N taps, each timed from the click to the redraw of #entry.
TAPS_JS = """async (n) => {
    const entry = document.querySelector("#entry");
    const times = [];
    for (let i = 0; i < n; i++) {
        const button = i % 2 === 0
            ? entry.querySelector("[data-event*='trick']")
            : entry.querySelector("[data-op=undo]");
        const redrawn = new Promise((resolve) => {
            const seen = new MutationObserver(() => { seen.disconnect(); resolve(); });
            seen.observe(entry, { childList: true });
        });
        const start = performance.now();
        button.click();
        await redrawn;
        times.push(performance.now() - start);
    }
    return times;
}"""


def ms(values: list[float]) -> str:
    return f"{statistics.median(values):.1f} ms"


def p95(values: list[float]) -> str:
    ordered = sorted(values)
    return f"{ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--taps", type=int, default=100)
    parser.add_argument("--server-taps", type=int, default=20)
    args = parser.parse_args()

    folder = tempfile.TemporaryDirectory()
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{folder.name}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # Playwright's sync API runs an event loop in this thread (as in tests/conftest.py).
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.core.management import call_command
    from django.test.testcases import LiveServerThread
    from django.urls import reverse
    from playwright.sync_api import sync_playwright

    from referees import tablet
    from tournaments.championships import services as championship_services
    from tournaments.results import services as result_services
    from tournaments.stages import services as stage_services

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "localhost"]
    call_command("migrate", verbosity=0)
    referee = get_user_model().objects.create_user(username="bench.referee", password=PASSWORD)
    championship = championship_services.championship_create(
        name="Banco", slug="bench-tablet", start_date="2026-01-01", team_size=2
    )
    for name, players in (("Norte", ["Ana", "Alba"]), ("Sur", ["Beto", "Bruno"])):
        championship_services.team_create(championship=championship, name=name, players=players)
    for status in ("registration", "running"):
        championship_services.championship_set_status(championship=championship, status=status)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    championship_services.referee_add(championship=championship, user=referee, added_by=None)
    result_services.match_assign(match=match, referee=referee, table="1")
    result_services.match_start(match=match, by=referee)

    server = LiveServerThread("localhost", StaticFilesHandler, port=0)
    server.daemon = True
    server.start()
    server.is_ready.wait()
    if server.error:
        raise server.error
    base = f"http://localhost:{server.port}"
    sheet = base + reverse("referees:sheet", args=[match.pk])

    print(f"Python {sys.version.split()[0]}; Pyodide {tablet.pyodide_version()}; ", end="")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        print(f"Chromium {browser.version}")

        def login(context):
            page = context.new_page()
            page.set_default_timeout(120_000)
            page.goto(sheet)
            page.fill("#id_username", "bench.referee")
            page.fill("#id_password", PASSWORD)
            page.click("button[type=submit]:has-text('Log in')")
            page.wait_for_url(sheet)
            return page

        # The engine in the browser: cold, then cached by the service worker.
        context = browser.new_context(viewport=TABLET)
        page = login(context)
        started = time.perf_counter()
        page.wait_for_selector("#entry[data-engine=browser]")
        cold = page.evaluate("window.tanteoTablet.loadMs")
        cold_page = 1000 * (time.perf_counter() - started)
        page.wait_for_function("window.tanteoTablet.offline === true")
        cached = []
        for _ in range(3):
            page.reload()
            page.wait_for_selector("#entry[data-engine=browser]")
            cached.append(page.evaluate("window.tanteoTablet.loadMs"))
        page.evaluate(TAPS_JS, 10)  # warm-up, not counted
        taps = page.evaluate(TAPS_JS, args.taps)
        context.close()

        # The server-rendered flow, JavaScript off: every tap a post and a page load.
        context = browser.new_context(viewport=TABLET, java_script_enabled=False)
        page = login(context)
        server_taps = []
        for i in range(args.server_taps + 2):
            if i % 2 == 0:
                button = page.locator("button[name=action][value*='trick']").first
            else:
                button = page.locator("button[name=op][value=undo]")
            start = time.perf_counter()
            with page.expect_navigation():
                button.click()
            if i >= 2:  # the first two warm up
                server_taps.append(1000 * (time.perf_counter() - start))
        context.close()
        browser.close()

    print(f"engine load, cold: {cold:.0f} ms (page open to buttons drawn: {cold_page:.0f} ms)")
    print(f"engine load, cached: {ms(cached)} (of {len(cached)} reloads)")
    print(f"tap to buttons, engine in the worker: median {ms(taps)}, p95 {p95(taps)}")
    print(f"tap to page, server round trip: median {ms(server_taps)}, p95 {p95(server_taps)}")


if __name__ == "__main__":
    main()
