"""Tokens, sessions, throttles, ETags, the schema and its docs page."""

from __future__ import annotations

import re

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.staticfiles import finders
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.api.conftest import V1, client_for
from tournaments.models import Championship

TOKEN = f"{V1}/auth/token/"
NEW = {"name": "Nuevo", "slug": "nuevo", "start_date": "2026-01-01"}


def test_a_token_for_a_username_and_password_then_revoked(db):
    get_user_model().objects.create_user("ana", password="una-clave-larga")
    api = APIClient()
    wrong = api.post(TOKEN, {"username": "ana", "password": "otra"}, format="json")
    assert wrong.status_code == 401
    assert wrong.json()["error"]["code"] == "authentication_failed"
    token = api.post(TOKEN, {"username": "ana", "password": "una-clave-larga"}).json()["token"]
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api.post(f"{V1}/championships/", NEW, format="json").status_code == 201
    assert api.delete(TOKEN).status_code == 204
    refused = api.get(f"{V1}/championships/")
    assert refused.status_code == 401
    assert refused.json()["error"]["code"] == "authentication_failed"


def test_anonymous_writes_ask_for_credentials(db):
    response = APIClient().post(f"{V1}/championships/", NEW, format="json")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"


def test_the_site_session_works_with_its_csrf_token(db):
    ana = get_user_model().objects.create_user("ana", password="una-clave-larga")
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(ana)  # the login page itself is tested with the throttling
    assert browser.get(f"{V1}/championships/").status_code == 200
    without = browser.post(f"{V1}/championships/", NEW, content_type="application/json")
    assert without.status_code == 403
    assert "CSRF" in without.json()["error"]["message"]
    browser.get("/api/token/")  # any page of the site sets the CSRF cookie
    csrf = browser.cookies["csrftoken"].value
    created = browser.post(
        f"{V1}/championships/", NEW, content_type="application/json", HTTP_X_CSRFTOKEN=csrf
    )
    assert created.status_code == 201


def test_the_token_page_shows_creates_and_revokes_the_token(db):
    user = get_user_model().objects.create_user("ana", password="x")
    browser = Client(HTTP_ACCEPT_LANGUAGE="ca")
    assert browser.get("/api/token/").status_code == 302  # log in first
    browser.force_login(user)
    page = browser.get("/api/token/").content.decode()
    assert "No tens cap token de l'API." in page
    assert 'href="/api/token/"' in page  # linked from the nav
    browser.post("/api/token/", {"action": "create"})
    key = Token.objects.get(user=user).key
    assert key in browser.get("/api/token/").content.decode()
    browser.post("/api/token/", {"action": "revoke"})
    assert not Token.objects.filter(user=user).exists()


def test_anonymous_reads_are_throttled(db, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "3/min", "user_write": "100/min"},
    }
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    codes = [api.get(f"{V1}/championships/").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    throttled = api.get(f"{V1}/championships/")
    assert throttled.json()["error"]["code"] == "throttled"
    assert throttled.json()["error"]["wait"] > 0
    assert int(throttled["Retry-After"]) > 0


def test_writes_are_rate_limited_per_user_and_reads_are_not(db, settings, organiser):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "100/min", "user_write": "2/min"},
    }
    api = client_for(organiser)
    statuses = [
        api.post(f"{V1}/championships/", {**NEW, "slug": f"c{n}"}, format="json").status_code
        for n in range(3)
    ]
    assert statuses == [201, 201, 429]
    assert Championship.objects.count() == 2
    assert all(api.get(f"{V1}/championships/").status_code == 200 for _ in range(5))
    other = client_for(get_user_model().objects.create_user("otro"))
    assert other.post(f"{V1}/championships/", NEW, format="json").status_code == 201


def test_reads_carry_an_etag_and_a_matching_one_is_not_modified(championship_factory):
    championship_factory(slug="copa")
    api = APIClient()
    first = api.get(f"{V1}/championships/copa/")
    assert first.status_code == 200
    etag = first["ETag"]
    again = api.get(f"{V1}/championships/copa/", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again.content == b""
    Championship.objects.filter(slug="copa").update(venue="Casal")
    changed = api.get(f"{V1}/championships/copa/", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert changed["ETag"] != etag


def test_the_schema_and_its_docs_are_served_without_a_cdn(db):
    browser = Client()
    schema = browser.get("/api/schema/?format=json").json()
    assert schema["openapi"].startswith("3.")
    assert "/api/v1/matches/{match_id}/hands/" in schema["paths"]
    post = schema["paths"]["/api/v1/matches/{match_id}/hands/"]["post"]
    assert {"200", "201", "400", "401", "403", "404", "409", "422", "429"} <= set(post["responses"])
    assert "Idempotency-Key" in [p["name"] for p in post["parameters"]]
    operations = [
        (path, operation)
        for path, item in schema["paths"].items()
        for operation in item.values()
        if not path.endswith("/auth/token/")
    ]
    assert [path for path, op in operations if "Who: " not in op["description"]] == []
    docs = browser.get("/api/docs/").content.decode()
    assert "swagger-ui" in docs
    assert "/static/drf_spectacular_sidecar/" in docs
    assert "cdn" not in docs.lower()
    assert "<script>" not in docs  # no inline script: the settings come as a file
    assert browser.get("/api/docs/?script=")["Content-Type"] == "application/javascript"


def test_the_docs_page_holds_nothing_inline_the_policy_would_block(db):
    """The Content-Security-Policy allows this site's files only: every script and style
    sheet of the docs page is a file (drf-spectacular's page had an inline <style>)."""
    response = Client().get("/api/docs/")
    policy = response["Content-Security-Policy"]
    assert "style-src 'self'" in policy and "'unsafe-inline'" not in policy
    docs = response.content.decode()
    scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", docs, flags=re.S)
    assert scripts and all(
        "src=" in attributes and not body.strip() for attributes, body in scripts
    )
    assert "<style" not in docs
    assert not re.search(r"\sstyle=", docs)
    assert not re.search(r"\son[a-z]+=", docs)  # no inline event handler either
    sheets = re.findall(r'<link rel="stylesheet" href="([^"]+)"', docs)
    assert "/static/css/swagger.css" in sheets
    assert all(finders.find(sheet.removeprefix(settings.STATIC_URL)) for sheet in sheets)


def test_the_schema_asks_for_credentials_only_where_they_are_needed(db):
    """Public reads say ``security: []`` (Swagger UI draws no lock on them); everything
    else names the API's credentials, never "none" (which Swagger UI drew a lock for on
    every public GET)."""
    schema = Client().get("/api/schema/?format=json").json()
    operations = {
        (method.upper(), path): operation
        for path, item in schema["paths"].items()
        for method, operation in item.items()
    }
    needs = {
        key: operation["security"] for key, operation in operations.items() if operation["security"]
    }
    public = {key for key, operation in operations.items() if operation["security"] == []}
    assert ("GET", "/api/v1/championships/") in public
    assert ("GET", "/api/v1/matches/{match_id}/hands/") in public
    assert ("POST", "/api/v1/auth/token/") in public  # you get your token with a password
    assert ("GET", "/api/v1/matches/{match_id}/draft/") in needs
    assert ("GET", "/api/v1/championships/{slug}/referees/") in needs
    assert ("DELETE", "/api/v1/auth/token/") in needs
    # The entry form for programs: anyone enters a team, without credentials.
    assert ("POST", "/api/v1/championships/{slug}/entries/") in public
    assert ("GET", "/api/v1/championships/{slug}/entries/") in needs
    writes = {key for key in operations if key[0] != "GET"}
    anyones = {("POST", "/api/v1/auth/token/"), ("POST", "/api/v1/championships/{slug}/entries/")}
    assert writes - anyones <= set(needs)
    for requirements in needs.values():
        assert {} not in requirements
        assert {"tokenAuth": []} in requirements


def test_the_token_pages_date_ends_its_sentence_once(db):
    """English dates end in "p.m.": "Created on ... p.m.." ended in two periods."""
    import datetime

    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    user = get_user_model().objects.create_user("ana", password="x")
    token = Token.objects.create(user=user)
    afternoon = timezone.make_aware(datetime.datetime(2026, 11, 25, 15, 30))
    Token.objects.filter(pk=token.pk).update(created=afternoon)
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    browser.force_login(user)
    page = browser.get("/api/token/").content.decode()
    assert "Created: Nov. 25, 2026, 3:30 p.m." in page
    assert "p.m.." not in page
