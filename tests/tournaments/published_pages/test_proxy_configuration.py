"""``manage.py proxy_config``: nginx's configuration, in parts and for several nodes, and
nginx serving the published pages as Django would."""

from __future__ import annotations

import urllib.error
import urllib.request
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tests.conftest import start_nginx
from tests.tournaments.conftest import chico_hand
from tests.tournaments.published_pages.conftest import _file
from tests.tournaments.test_page_cache import _league
from tournaments.results import services as result_services


def test_the_configuration_needs_a_folder(settings):
    settings.PUBLISHED_PAGES_DIR = ""
    with pytest.raises(CommandError, match="PUBLISHED_PAGES_DIR"):
        call_command("proxy_config")


def _configuration(upstream: str, **options: str) -> str:
    out = StringIO()
    call_command("proxy_config", upstream=upstream, stdout=out, **options)
    return out.getvalue()


@pytest.mark.page_cache
def test_each_part_of_the_configuration_alone(transactional_db, pages):
    """One file for nginx's http block, one for the site's server block: each is only
    what goes there."""
    http = _configuration("http://127.0.0.1:8000", part="http")
    server = _configuration("http://127.0.0.1:8000", part="server")
    assert http.lstrip().startswith("map ") and "location" not in http
    assert server.lstrip().startswith("location / {") and "map " not in server
    assert f"root {pages.resolve()};" in server
    assert "proxy_pass http://127.0.0.1:8000;" in server
    assert 'add_header Content-Security-Policy "' in server and "object-src 'none'" in server


@pytest.mark.page_cache
def test_several_nodes_share_the_requests_the_files_do_not_answer(transactional_db, pages):
    """One ``--upstream`` per node: nginx sends them the requests in turn
    (docs/configuration.md, "Several nodes"); an address it cannot balance on is a
    sentence, not a configuration nginx refuses later."""
    out = StringIO()
    nodes = ["http://10.0.0.1:8000", "http://web:8000"]
    call_command("proxy_config", upstream=nodes, stdout=out)
    printed = out.getvalue()
    assert "upstream tanteo_nodes {\n    server 10.0.0.1:8000;\n    server web:8000;\n}" in printed
    assert "proxy_pass http://tanteo_nodes;" in printed

    assert "proxy_set_header X-Forwarded-Proto $scheme;" in printed
    # Behind a TLS proxy (the compose file's nginx): what that proxy said is passed on.
    out = StringIO()
    call_command("proxy_config", upstream=nodes, forwarded_proto="incoming", stdout=out)
    assert "proxy_set_header X-Forwarded-Proto $http_x_forwarded_proto;" in out.getvalue()

    with pytest.raises(CommandError, match=r"http://host:puerto.*http://10\.0\.0\.3:8000/site/"):
        call_command("proxy_config", upstream=[*nodes, "http://10.0.0.3:8000/site/"])


@pytest.fixture
def nginx(live_server, pages, tmp_path, settings):
    """nginx on a port of its own, configured by ``proxy_config``, in front of the live
    server."""
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
    http = _configuration(live_server.url, part="http")
    server = _configuration(live_server.url, part="server")
    process, url = start_nginx(tmp_path / "nginx", http, server)
    yield url
    process.terminate()
    process.wait(10)


def _get(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


_PROXY_OWN = {"date", "content-length", "etag", "last-modified", "server", "accept-ranges"}


def _comparable(headers: dict[str, str]) -> dict[str, object]:
    found: dict[str, object] = {
        name.lower(): value for name, value in headers.items() if name.lower() not in _PROXY_OWN
    }
    found.pop("connection", None)
    policy = found.get("content-security-policy")
    if isinstance(policy, str):  # the same directives, in any order
        found["content-security-policy"] = {part.strip() for part in policy.split(";")}
    return found


def test_nginx_serves_the_published_page_as_django_would_and_asks_django_otherwise(
    nginx, pages, commit, referee
):
    league = _league("Copa Rosario", commit)
    url = league["urls"]["match"]

    status, from_django, page = _get(nginx + url)
    assert status == 200
    file = _file(pages, url)
    assert file.read_bytes() == page
    # From now on the proxy answers from the file, with Django's headers.
    file.write_bytes(page.replace(b"</body>", b"<!-- the file --></body>"))
    status, from_file, served = _get(nginx + url)
    assert status == 200 and b"<!-- the file -->" in served
    assert _comparable(from_file) == _comparable(from_django)

    # Whatever Django would decide otherwise is Django's.
    assert b"<!-- the file -->" not in _get(nginx + url, **{"Accept-Language": "de"})[2]
    assert b"<!-- the file -->" not in _get(nginx + url, Cookie="sessionid=abc")[2]
    assert b"<!-- the file -->" not in _get(nginx + url + "?tv=1")[2]
    assert b"<!-- the file -->" not in _get(nginx + url, Cookie="django_language=en")[2]
    english = _file(pages, url, "en")
    assert english.exists()
    status, headers, _page = _get(nginx + url, Cookie="django_language=en")
    assert headers["Content-Language"] == "en"

    # A hand: the write renders the page again, and the proxy serves the new one.
    commit(
        result_services.hand_record,
        match=league["match"],
        record=chico_hand(league["match"], "A"),
        recorded_by=referee,
    )
    status, _headers, page = _get(nginx + url)
    assert b'data-games-side="A">1</span>' in page and b"<!-- the file -->" not in page
    assert page == file.read_bytes()
