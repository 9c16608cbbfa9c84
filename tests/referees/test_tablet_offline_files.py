"""The offline-first tablet's server side: the engine the browser runs is the server's own
files, the page hands its script a context from which the same engine offers the same
buttons, and the worker, service worker and manifest are served as the browser needs."""

from __future__ import annotations

import io
import json
import re
import zipfile
from html import unescape
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.urls import reverse
from django.utils.html import escapejs

import scoring
from referees import tablet as tablet_files
from scoring.session import Session
from tournaments.models import Hand, Match


def context_of(page) -> dict:
    found = re.search(
        r'<script id="tablet-context" type="application/json">(.*?)</script>', page.raw, re.S
    )
    assert found, "no #tablet-context on the sheet"
    return json.loads(found.group(1))


def test_the_engine_zip_is_the_servers_scoring_package_named_by_its_content(client):
    digest = tablet_files.engine_zip()[0]
    response = client.get(reverse("referees:engine", args=[digest]))
    assert response.status_code == 200
    assert "immutable" in response["Cache-Control"]
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    folder = Path(scoring.__file__).parent
    sources = {f"scoring/{p.name}": p.read_bytes() for p in folder.glob("*.py")}
    assert {name: archive.read(name) for name in archive.namelist()} == sources
    # Another engine's name (an old page's) is not served: it would be out of step.
    assert client.get(reverse("referees:engine", args=["0" * 16])).status_code == 404


def test_only_the_engines_worker_may_compile_webassembly(client, started, tablet):
    worker = client.get(reverse("referees:worker"))
    assert worker.status_code == 200
    assert worker["Content-Type"].startswith("text/javascript")
    assert "'wasm-unsafe-eval'" in worker["Content-Security-Policy"]
    assert tablet_files.engine_url() in worker.content.decode()
    page = tablet(started)
    assert "wasm-unsafe-eval" not in page.response["Content-Security-Policy"]


def test_the_service_worker_keeps_the_engine_pyodide_and_the_static_files(client):
    response = client.get(reverse("referees:service_worker"))
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-cache"
    text = response.content.decode()
    assert escapejs(tablet_files.cache_name()) in text
    urls = tablet_files.cached_urls()
    assert tablet_files.engine_url() in urls and reverse("referees:worker") in urls
    if tablet_files.pyodide_version():
        assert "/static/pyodide/pyodide.asm.wasm" in urls
        for name in tablet_files.PYODIDE_FILES:
            assert finders.find(f"pyodide/{name}"), name
    else:  # pragma: no cover - make install runs npm ci
        pytest.fail("Pyodide is not installed: run `make install` (npm ci)")


def test_the_manifest_makes_the_tablet_page_installable_in_the_referees_language(client):
    response = client.get(reverse("referees:manifest"), HTTP_ACCEPT_LANGUAGE="es")
    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["start_url"] == manifest["scope"] == reverse("referees:matches")
    assert manifest["display"] == "standalone"
    assert "árbitro" in manifest["name"]
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        path = icon["src"].removeprefix(settings.STATIC_URL)
        assert finders.find(path), icon["src"]


def test_the_pages_context_gives_the_browsers_engine_the_servers_buttons(started, tablet):
    page = tablet(started)
    page.tap("Ana calls truco")
    context = context_of(page)
    assert context["match"] == started.pk and context["number"] == 1
    assert context["draft"]["record"] == page.events
    assert context["urls"]["hands"] == f"/api/v1/matches/{started.pk}/hands/"
    assert context["labels"]["save"] == "Save hand"
    session = Session(
        context["head"], context["state"], plays=context["plays"], draft=context["draft"]["record"]
    )
    offered = {json.dumps(a["event"], separators=(",", ":")) for a in session.actions()}
    shown = set(page.buttons().values())
    assert offered == shown


def test_a_hand_saved_in_the_browser_leaves_the_state_the_server_stores(started, tablet):
    page = tablet(started)
    context = context_of(page)
    session = Session(context["head"], context["state"])
    for label in ("Ana calls truco", "Beto: quiero", "Trick to Ana and Alba"):
        page.tap(label)
    page.tap("Trick to Ana and Alba")
    for event in page.events["events"]:
        assert session.run({"op": "event", "event": event})["error"] is None
    view = session.run({"op": "save"})
    page.save()
    hand = Hand.objects.get(match=started)
    match = Match.objects.get(pk=started.pk)
    assert view["saved"]["record"] == hand.record
    assert view["saved"]["points"] == {"A": hand.points_a, "B": hand.points_b}
    assert view["saved"]["state"] == match.state
    # The next hand, as the browser would draw it offline, is the server's next hand.
    assert view["number"] == 2 and view["start_score"] == context_of(page)["next"]["score"]
    assert unescape(context_of(page)["names"][view["mano"]]) == "Beto"


def test_only_pyodides_runtime_files_are_served():
    """npm's package also holds a REPL page and type declarations: not served."""
    for name in tablet_files.PYODIDE_FILES:
        assert finders.find(f"pyodide/{name}"), name
    for name in ("console.html", "pyodide.d.ts", "package.json", "../pyodide/console.html"):
        assert not finders.find(f"pyodide/{name}"), name


def test_the_service_worker_shows_a_teams_pushes_with_an_icon_it_serves(client):
    # The same worker a team's page registers for its phone's notifications (its handling
    # of a real push: tests/tournaments/notices/test_browser_push.py).
    text = client.get(reverse("referees:service_worker")).content.decode()
    assert 'addEventListener("push"' in text and 'addEventListener("notificationclick"' in text
    icon = json.loads('"' + re.search(r'icon: "([^"]+)"', text).group(1) + '"')
    assert finders.find(icon.removeprefix(settings.STATIC_URL))
