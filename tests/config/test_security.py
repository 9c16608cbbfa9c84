"""Site security: login throttling (django-axes), the Content-Security-Policy (django-csp)
and the request body limit."""

from __future__ import annotations

import datetime
import re
from pathlib import Path

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import RequestFactory, override_settings
from django.urls import reverse

from config.middleware import client_ip
from tests.referees.conftest import make_match
from tests.tournaments.factories import ChampionshipFactory, RefereeFactory

PASSWORD = "falta-envido-33"
LOGIN = "/accounts/login/"


@pytest.fixture
def marta(db):
    return get_user_model().objects.create_user("marta", password=PASSWORD)


def attempt(client, username: str, password: str, *, ip: str = "127.0.0.1", url: str = LOGIN):
    return client.post(
        url, {"username": username, "password": password}, REMOTE_ADDR=ip, HTTP_ACCEPT_LANGUAGE="en"
    )


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


# --- Login throttling --------------------------------------------------------------------


def test_sixty_wrong_passwords_then_the_right_one_does_not_log_in(client, marta):
    limit = settings.AXES_FAILURE_LIMIT
    statuses = [attempt(client, "marta", f"wrong-{n}").status_code for n in range(60)]
    # The form answers the first failures; from the limit on, the lockout page.
    assert statuses[: limit - 1] == [200] * (limit - 1)
    assert set(statuses[limit:]) == {429}
    right = attempt(client, "marta", PASSWORD)
    assert right.status_code == 429
    assert not logged_in(client)
    page = right.content.decode()
    assert "Too many attempts" in page
    assert f"blocked for {settings.AXES_COOLOFF_TIME.seconds // 60} minutes" in page
    # Nothing behind the login opens either.
    assert client.get(reverse("organiser:dashboard")).status_code == 302


def test_the_lockout_page_speaks_the_visitors_language(client, marta):
    for n in range(settings.AXES_FAILURE_LIMIT):
        attempt(client, "marta", f"wrong-{n}")
    page = client.post(
        LOGIN, {"username": "marta", "password": PASSWORD}, HTTP_ACCEPT_LANGUAGE="es"
    ).content.decode()
    assert "Demasiados intentos" in page
    assert "minutos" in page


def test_a_lockout_touches_neither_other_users_nor_other_addresses(client, marta):
    get_user_model().objects.create_user("lucia", password=PASSWORD)
    for n in range(60):
        attempt(client, "marta", f"wrong-{n}", ip="192.0.2.10")
    assert attempt(client, "marta", PASSWORD, ip="192.0.2.10").status_code == 429
    # Another user from the same address logs in.
    assert attempt(client, "lucia", PASSWORD, ip="192.0.2.10").status_code == 302
    assert logged_in(client)
    client.logout()
    # The same user from another address logs in.
    assert attempt(client, "marta", PASSWORD, ip="198.51.100.20").status_code == 302
    assert logged_in(client)


def test_after_the_cool_off_the_right_password_logs_in(client, marta):
    for n in range(60):
        attempt(client, "marta", f"wrong-{n}")
    assert attempt(client, "marta", PASSWORD).status_code == 429
    # The cool-off passes: the last attempt is now older than it.
    past = settings.AXES_COOLOFF_TIME + datetime.timedelta(minutes=1)
    for row in AccessAttempt.objects.all():
        row.attempt_time -= past
        row.save(update_fields=["attempt_time"])
    response = attempt(client, "marta", PASSWORD)
    assert response.status_code == 302
    assert logged_in(client)
    # A success clears the count: one more mistake is not a lockout.
    client.logout()
    assert attempt(client, "marta", "wrong-again").status_code == 200
    assert attempt(client, "marta", PASSWORD).status_code == 302


def test_the_admin_login_is_throttled_too(client, db):
    get_user_model().objects.create_superuser("root", password=PASSWORD)
    admin_login = reverse("admin:login")
    for n in range(settings.AXES_FAILURE_LIMIT):
        attempt(client, "root", f"wrong-{n}", url=admin_login)
    assert attempt(client, "root", PASSWORD, url=admin_login).status_code == 429
    assert not logged_in(client)


def test_throttling_follows_its_variables(run_project):
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.AXES_FAILURE_LIMIT, int(s.AXES_COOLOFF_TIME.total_seconds()), "
        "s.TRUSTED_PROXY_COUNT, s.REQUEST_MAX_BODY_SIZE)"
    )
    env = {
        "LOGIN_FAILURE_LIMIT": "3",
        "LOGIN_COOLOFF_MINUTES": "2",
        "TRUSTED_PROXY_COUNT": "1",
        "REQUEST_MAX_BODY_SIZE": "3000000",
    }
    done = run_project(["-c", code], env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["3", "120", "1", "3000000"]
    bad = run_project(["manage.py", "check"], {"LOGIN_FAILURE_LIMIT": "0"})
    assert "LOGIN_FAILURE_LIMIT must be at least 1" in bad.stderr


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, "203.0.113.9", "10.0.0.1"),  # no proxy: the header is the client's own words
        (1, "203.0.113.9", "203.0.113.9"),
        (1, "6.6.6.6, 203.0.113.9", "203.0.113.9"),  # a forged entry on the left is ignored
        (2, "203.0.113.9, 10.0.0.7", "203.0.113.9"),
        (2, "203.0.113.9", "10.0.0.1"),  # fewer entries than proxies: the peer
    ],
)
def test_the_address_counted_is_the_one_the_trusted_proxies_saw(proxies, forwarded, expected):
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=forwarded)
    with override_settings(TRUSTED_PROXY_COUNT=proxies):
        assert client_ip(request) == expected


# --- Content-Security-Policy -------------------------------------------------------------

DIRECTIVES = {
    "default-src": "'self'",
    "style-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


def policy(response) -> dict[str, str]:
    header = response["Content-Security-Policy"]
    return dict(part.strip().split(" ", 1) for part in header.split(";") if part.strip())


def assert_strict(response) -> None:
    assert response.status_code == 200
    found = policy(response)
    for directive, value in DIRECTIVES.items():
        assert found[directive] == value, (directive, found)
    assert found["script-src"].split()[0] == "'self'"
    assert "unsafe-inline" not in response["Content-Security-Policy"]
    assert "unsafe-eval" not in response["Content-Security-Policy"]
    html = response.content.decode()
    # Nothing inline that the policy would block. A JSON data block (``json_script``: the
    # tablet's context) is never run, so the policy has nothing to block there.
    inline_scripts = re.findall(
        r'<script(?![^>]*\bsrc=)(?![^>]*\bnonce=)(?![^>]*type="application/json")[^>]*>', html
    )
    assert inline_scripts == []
    assert re.search(r"<style|\sstyle=|\son[a-z]+=", html) is None


@pytest.fixture
def sites(db):
    referee = RefereeFactory(username="arbitra")
    match = make_match(referee=referee)
    championship = match.stage.championship
    organiser = get_user_model().objects.create_user("organiser")
    championship.organisers.add(organiser)
    return {"match": match, "championship": championship, "referee": referee, "org": organiser}


def test_public_pages_carry_the_policy(client, sites):
    slug = sites["championship"].slug
    for url in (
        "/",
        f"/c/{slug}/",
        reverse("tournaments:match", args=[slug, sites["match"].pk]),
        LOGIN,
    ):
        assert_strict(client.get(url))


def test_organiser_pages_carry_the_policy(client, sites):
    client.force_login(sites["org"])
    slug = sites["championship"].slug
    for url in (
        reverse("organiser:dashboard"),
        reverse("organiser:championship", args=[slug]),
        reverse("organiser:teams", args=[slug]),
        reverse("organiser:stage", args=[slug, sites["match"].stage_id]),
    ):
        assert_strict(client.get(url))


def test_referee_pages_carry_the_policy(client, sites):
    client.force_login(sites["referee"])
    match = sites["match"]
    assert_strict(client.get(reverse("referees:matches")))
    assert_strict(client.get(reverse("referees:sheet", args=[match.pk])))
    client.post(reverse("referees:seats", args=[match.pk]), {})
    sheet = client.get(reverse("referees:sheet", args=[match.pk]))
    assert_strict(sheet)
    assert "js/tablet.js" in sheet.content.decode()
    assert '<script id="tablet-context" type="application/json">' in sheet.content.decode()


def test_no_template_has_inline_code(settings):
    """Scripts and styles live in static/: no template holds code the policy would block
    (an inline script would need ``nonce="{{ request.csp_nonce }}"``)."""
    offenders = []
    for path in Path(settings.BASE_DIR, "templates").rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        for pattern in (
            r"<script(?![^>]*\bsrc=)(?![^>]*\bnonce=)[^>]*>",
            r"<style",
            r"\sstyle=",
            r"\son[a-z]+=",
            r"javascript:",
        ):
            offenders += [f"{path.name}: {m}" for m in re.findall(pattern, text)]
    assert offenders == []


# --- Request bodies ----------------------------------------------------------------------


def test_an_oversized_body_is_refused_with_413_before_it_is_read(client, sites):
    client.force_login(sites["org"])
    url = reverse("organiser:teams", args=[sites["championship"].slug])
    response = client.post(
        url,
        b"x" * 10,
        content_type="application/octet-stream",
        CONTENT_LENGTH=str(settings.REQUEST_MAX_BODY_SIZE + 1),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 413
    assert "Too much data" in response.content.decode()
    assert "at most 5 MB" in response.content.decode()
    assert sites["championship"].teams.count() == 2


def test_a_real_oversized_upload_is_413_and_changes_nothing(client, sites):
    client.force_login(sites["org"])
    slug = sites["championship"].slug
    big = SimpleUploadedFile("teams.csv", b"team,player\n" + b"\n" * settings.REQUEST_MAX_BODY_SIZE)
    response = client.post(
        reverse("organiser:teams_import", args=[slug]), {"file": big}, HTTP_ACCEPT_LANGUAGE="es"
    )
    assert response.status_code == 413
    assert "Demasiados datos" in response.content.decode()


@pytest.mark.parametrize(
    "data",
    [
        {"name": "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 10)},  # too many bytes
        {f"field{n}": "1" for n in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1)},
    ],
    ids=["bytes", "fields"],
)
def test_a_form_too_large_is_413_never_500(client, sites, data):
    client.force_login(sites["org"])
    url = reverse("organiser:teams", args=[sites["championship"].slug])
    response = client.post(url, data, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 413
    assert "Too much data" in response.content.decode()
    assert sites["championship"].teams.count() == 2


def test_the_csv_import_still_takes_a_file_of_almost_2_mb(client, db):
    """The body limit leaves the CSV import its 2 MB: a valid file padded to just under
    2 MB with blank lines (which the import skips) is imported."""
    championship = ChampionshipFactory(status="registration")
    organiser = get_user_model().objects.create_user("organiser")
    championship.organisers.add(organiser)
    client.force_login(organiser)
    rows = b"team,player,seed\nEl Mazo,Eva,1\nEl Mazo,Fede,\nLa Falta,Gabi,2\nLa Falta,Hugo,\n"
    padded = rows + b"\n" * (1_990_000 - len(rows))
    upload = SimpleUploadedFile("teams.csv", padded, content_type="text/csv")
    response = client.post(
        reverse("organiser:teams_import", args=[championship.slug]), {"file": upload}
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert championship.teams.count() == 2


def test_the_favicon_browsers_ask_for_is_the_sites_icon(client, db):
    """``/favicon.ico`` answered 404 on every page's first visit."""
    from django.contrib.staticfiles import finders

    answer = client.get("/favicon.ico")
    assert answer.status_code == 301
    assert answer["Location"].endswith("tablet/icon-192.png")
    assert finders.find("tablet/icon-192.png")
    home = client.get("/").content.decode()
    assert 'rel="icon"' in home
