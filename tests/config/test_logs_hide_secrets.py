"""No log line carries the token of a secret address (a team's link, an invitation, a
check-in code): Django's handlers through each entry point of a team's link, gunicorn
and daphne run with the project's settings, the Celery worker's handlers, the console
mail backend, and nginx with the block docs/configuration.md gives."""

from __future__ import annotations

import io
import logging
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.core import mail, signing
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from config.logs import ConsoleEmailBackend, hide_secrets
from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.entries.services import link_issue, link_revoke
from tournaments.models.entries import LINK_SALT

ROOT = Path(__file__).resolve().parents[2]
# A token as the site makes them, signed with another key: every server refuses it
# without reading a database, and it must never be logged all the same.
FORGED = signing.dumps({"l": 7}, salt=LINK_SALT, key="another-site")


def _token_routes(resolver: URLResolver, prefix: str = "") -> list[tuple[str, set[str]]]:
    found = []
    for entry in resolver.url_patterns:
        space = f"{prefix}{entry.namespace}:" if getattr(entry, "namespace", None) else prefix
        if isinstance(entry, URLResolver):
            found += _token_routes(entry, space)
        elif isinstance(entry, URLPattern) and "token" in entry.pattern.converters:
            found.append((f"{space}{entry.name}", set(entry.pattern.converters)))
    return found


def test_every_address_with_a_token_is_hidden():
    routes = _token_routes(get_resolver())
    assert len(routes) >= 3  # a team's link, an invitation, a check-in code
    for name, parameters in routes:
        values = {"token": "Tok3n-Secret_9:x:y", "match_id": "12"}
        kwargs = {p: values.get(p, "copa") for p in parameters}
        path = reverse(name, kwargs=kwargs)
        for line in (f'"GET {path} HTTP/1.1" 200', f"Not Found: {path}more/"):
            assert "Tok3n-Secret_9" not in hide_secrets(line), name
            assert "[hidden]" in hide_secrets(line)


@pytest.fixture
def every_handler(settings):
    """Each handler of every logger writes to a buffer of the test's own; DEBUG on, so a
    handler Django keeps for DEBUG alone would speak too."""
    settings.DEBUG = True
    loggers = [logging.getLogger()] + [
        logger
        for logger in logging.root.manager.loggerDict.values()
        if isinstance(logger, logging.Logger)
    ]
    handlers = {h for logger in loggers for h in logger.handlers}
    streams = [h for h in handlers if type(h) is logging.StreamHandler]
    assert streams  # the project's console
    buffers = {h: io.StringIO() for h in streams}
    olds = {h: h.setStream(buffer) for h, buffer in buffers.items()}
    yield buffers
    for handler, old in olds.items():
        handler.setStream(old)


def test_no_handler_writes_a_token_through_the_links_entry_points(db, every_handler):
    championship = ChampionshipFactory(slug="copa")
    team = TeamFactory(championship=championship)
    live = link_issue(team=team, via="organiser")
    url = reverse("tournaments:team_link", args=["copa", live])
    client = Client()
    assert client.get(url).status_code == 200
    assert client.post(url, {"action": "check_in"}).status_code == 302
    assert client.post(url, {"action": "nothing"}).status_code == 302
    assert Client(enforce_csrf_checks=True).post(url, {"action": "check_in"}).status_code == 403
    assert client.get(f"{url}more/").status_code == 404
    assert client.get(url.rstrip("/")).status_code in (301, 404)
    forged = reverse("tournaments:team_link", args=["copa", FORGED])
    assert client.get(forged).status_code == 403
    revoked = link_issue(team=team, via="organiser")
    link_revoke(team=team)
    assert client.post(reverse("tournaments:team_link", args=["copa", revoked])).status_code == 403
    # runserver's line for a request, as its request handler writes it.
    logging.getLogger("django.server").info('"GET %s HTTP/1.1" 200 0', url)
    written = "".join(buffer.getvalue() for buffer in every_handler.values())
    for token in (live, FORGED, revoked):
        assert token not in written
    assert "Not Found: /c/copa/team/[hidden]/more/" in written
    assert "Forbidden (CSRF cookie not set.): /c/copa/team/[hidden]/" in written
    assert '"GET /c/copa/team/[hidden]/ HTTP/1.1" 200' in written


def test_the_celery_workers_handlers_hide_secrets(monkeypatch):
    from config.celery import app

    root, task = logging.getLogger(), logging.getLogger("celery.task")
    kept = {name: logging.getLogger(name).handlers[:] for name in ("", "celery", "celery.task")}
    level, propagate = root.level, task.propagate
    monkeypatch.setattr(type(app.log), "_setup", False)
    for name in ("_MP_FORK_LOGLEVEL_", "_MP_FORK_LOGFILE_", "_MP_FORK_LOGFORMAT_"):
        monkeypatch.setenv(name, "")
    stream = io.StringIO()
    try:
        app.log.setup_logging_subsystem(loglevel="INFO", logfile=stream)  # as a worker starts
        root.warning("Could not mail http://x/c/copa/team/%s/", FORGED)
        task.warning("Task failed for /organiser/invitation/%s/", FORGED)
    finally:
        for name, handlers in kept.items():
            logging.getLogger(name).handlers = handlers
        root.setLevel(level)
        task.propagate = propagate
    assert FORGED not in stream.getvalue()
    assert "/c/copa/team/[hidden]/" in stream.getvalue()
    assert "/organiser/invitation/[hidden]/" in stream.getvalue()


def test_the_console_mail_backend_prints_a_link_hidden():
    stream = io.StringIO()
    message = mail.EmailMessage(
        "Your link", f"Keep it: http://x/c/copa/team/{FORGED}/", to=["a@b.c"]
    )
    ConsoleEmailBackend(stream=stream).send_messages([message])
    assert FORGED not in stream.getvalue() and "/c/copa/team/[hidden]/" in stream.getvalue()
    assert settings.EMAIL_BACKEND == "django.core.mail.backends.locmem.EmailBackend"  # tests


# --- The servers, run as the compose file and README.md run them ---------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(command: list[str], port: int, tmp_path: Path) -> tuple[subprocess.Popen, Path, Path]:
    out, err = tmp_path / "stdout.log", tmp_path / "stderr.log"
    env = {
        **os.environ,
        "DEBUG": "true",
        "SECRET_KEY": "a-test-key",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": f"sqlite:///{tmp_path}/empty.sqlite3",
        "REDIS_URL": "",
        "PYTHONUNBUFFERED": "1",
    }
    with out.open("w") as stdout, err.open("w") as stderr:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=stdout, stderr=stderr, start_new_session=True
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return process, out, err
        time.sleep(0.2)
    _stop(process)
    pytest.fail(f"{command[0]} did not start: {err.read_text()[-2000:]}")


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(20)


def _hit(base: str) -> None:
    """A team's link page (forged), its POST, a 404 under it, an invitation: each with a
    link in its Referer."""
    link = f"/c/copa/team/{FORGED}/"
    for path, data in ((link, None), (link, b"action=check_in"), (f"{link}more/", None)):
        request = urllib.request.Request(base + path, data=data, headers={"Referer": base + link})
        try:
            urllib.request.urlopen(request, timeout=30).close()
        except urllib.error.HTTPError as error:
            assert error.code in (403, 404)


def _read_when_written(*files: Path, needle: str) -> str:
    deadline = time.monotonic() + 20
    while True:
        text = "".join(f.read_text() for f in files)
        if needle in text or time.monotonic() > deadline:
            return text
        time.sleep(0.2)


def test_gunicorn_with_the_projects_settings_logs_no_token(tmp_path):
    port = _free_port()
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    command = [gunicorn, "config.wsgi", "--config", "python:config.gunicorn"]
    process, out, err = _serve(
        [*command, "--bind", f"127.0.0.1:{port}", "--workers", "1"], port, tmp_path
    )
    try:
        _hit(f"http://127.0.0.1:{port}")
        written = _read_when_written(out, err, needle="/more/ HTTP/1.1")
    finally:
        _stop(process)
    assert FORGED not in written
    access = out.read_text()
    assert '"GET /c/copa/team/[hidden]/ HTTP/1.1" 403' in access  # gunicorn's format, run
    assert '"POST /c/copa/team/[hidden]/ HTTP/1.1" 403' in access
    assert '"GET /c/copa/team/[hidden]/more/ HTTP/1.1" 404' in access
    assert f'"http://127.0.0.1:{port}/c/copa/team/[hidden]/"' in access  # the referrer
    assert "Forbidden (CSRF cookie not set.): /c/copa/team/[hidden]/" in err.read_text()


def test_daphne_as_the_compose_file_runs_it_logs_no_token(tmp_path):
    port = _free_port()
    command = [sys.executable, "-m", "config.live_server", "--bind", "127.0.0.1"]
    process, out, err = _serve(
        [*command, "--port", str(port), "config.asgi:application"], port, tmp_path
    )
    try:
        _hit(f"http://127.0.0.1:{port}")
        written = _read_when_written(out, err, needle="/more/")
    finally:
        _stop(process)
    assert FORGED not in written
    assert '"GET /c/copa/team/[hidden]/" 403' in out.read_text()


def _docs_nginx_block() -> str:
    text = (ROOT / "docs" / "configuration.md").read_text()
    logs = text[text.index("## Logs") :]
    return re.search(r"```nginx\n(.*?)```", logs, re.S).group(1)


def test_nginx_with_the_documented_block_logs_no_token(tmp_path):
    if shutil.which("nginx") is None:
        pytest.skip("nginx is not installed (apt-get install nginx-light)")
    port = _free_port()
    home = tmp_path / "nginx"
    (home / "tmp").mkdir(parents=True)
    block = _docs_nginx_block().replace("/var/log/nginx/access.log", str(home / "access.log"))
    user = "user root;\n" if os.geteuid() == 0 else ""
    (home / "nginx.conf").write_text(
        f"{user}daemon off; pid {home}/nginx.pid; error_log {home}/error.log warn;\n"
        "events { worker_connections 64; }\n"
        f"http {{ client_body_temp_path {home}/tmp;\n{block}\n"
        f"server {{ listen 127.0.0.1:{port}; location / {{ return 403; }} }} }}\n"
    )
    process = subprocess.Popen(
        ["nginx", "-c", str(home / "nginx.conf"), "-p", str(home)], start_new_session=True
    )
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        _hit(f"http://127.0.0.1:{port}")
        for path in (f"/organiser/invitation/{FORGED}/", f"/C/copa/TEAM/{FORGED}"):
            with pytest.raises(urllib.error.HTTPError):
                urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30)
        log = _read_when_written(home / "access.log", needle="TEAM/[hidden]")
    finally:
        _stop(process)
    assert FORGED not in log
    assert '"GET /c/copa/team/[hidden]/ HTTP/1.1" 403' in log
    assert '"GET /organiser/invitation/[hidden]/ HTTP/1.1" 403' in log
    assert f'"http://127.0.0.1:{port}/c/copa/team/[hidden]/"' in log
