"""The environment reader and the settings it feeds: defaults, parsing and clear errors."""

import doctest
import json
import os
import re
import secrets
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

import config.env
from config.env import Env, EnvError, parse_cache_url, parse_database_url

BASE = Path("/srv/tanteo")


def test_env_module_examples_hold():
    result = doctest.testmod(config.env)
    assert result.attempted > 0
    assert result.failed == 0


# --- Env: plain values ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("1", True),
        ("true", True),
        ("TRUE", True),
        ("Yes", True),
        (" on ", True),
        ("0", False),
        ("false", False),
        ("No", False),
        ("OFF", False),
    ],
)
def test_bool_accepts_the_usual_spellings(raw, expected):
    assert Env({"DEBUG": raw}).bool("DEBUG") is expected


@pytest.mark.parametrize("raw", ["maybe", "2", "truee", "-"])
def test_bool_rejects_anything_else_naming_the_variable(raw):
    with pytest.raises(EnvError, match=r"DEBUG must be a boolean .*" + raw):
        Env({"DEBUG": raw}).bool("DEBUG")


def test_unset_and_empty_values_take_the_default():
    env = Env({"EMPTY": "", "BLANK": "   "})
    assert env.bool("MISSING", default=True) is True
    assert env.bool("EMPTY", default=False) is False
    assert env.str("BLANK", default="fallback") == "fallback"
    assert env.list("MISSING", default=["a"]) == ["a"]
    assert env.int("EMPTY", default=7) == 7


def test_a_required_variable_that_is_missing_is_named():
    with pytest.raises(EnvError, match="SECRET_KEY is required"):
        Env({}).str("SECRET_KEY")


def test_env_error_is_a_value_error_and_improperly_configured():
    from django.core.exceptions import ImproperlyConfigured

    assert issubclass(EnvError, ValueError)
    assert issubclass(EnvError, ImproperlyConfigured)


def test_int_parses_and_checks_its_minimum():
    env = Env({"N": "60", "BAD": "sixty", "NEG": "-1"})
    assert env.int("N") == 60
    with pytest.raises(EnvError, match="BAD must be a whole number, not 'sixty'"):
        env.int("BAD")
    with pytest.raises(EnvError, match="NEG must be at least 0"):
        env.int("NEG", minimum=0)


def test_list_splits_on_commas_and_drops_blanks():
    assert Env({"H": " a.example ,b.example,, "}).list("H") == ["a.example", "b.example"]


# --- Database URLs ----------------------------------------------------------------------


def test_sqlite_relative_path_is_under_the_project():
    entry = parse_database_url("sqlite:///db.sqlite3", base_dir=BASE)
    assert entry == {"ENGINE": "django.db.backends.sqlite3", "NAME": "/srv/tanteo/db.sqlite3"}


def test_sqlite_absolute_path_with_four_slashes():
    entry = parse_database_url("sqlite:////var/lib/tanteo/data.sqlite3", base_dir=BASE)
    assert entry["NAME"] == "/var/lib/tanteo/data.sqlite3"


@pytest.mark.parametrize("url", ["sqlite://:memory:", "sqlite:///:memory:"])
def test_sqlite_in_memory(url):
    assert parse_database_url(url, base_dir=BASE)["NAME"] == ":memory:"


@pytest.mark.parametrize("url", ["sqlite://host/db.sqlite3", "sqlite://", "sqlite:///"])
def test_bad_sqlite_urls_are_explained(url):
    with pytest.raises(ValueError, match="SQLite URL"):
        parse_database_url(url, base_dir=BASE)


@pytest.mark.parametrize("scheme", ["postgres", "postgresql", "pgsql"])
def test_postgres_url_is_split_into_django_fields(scheme):
    entry = parse_database_url(
        f"{scheme}://tanteo:s%3Acret%40x@db.internal:5433/championships?sslmode=require",
        base_dir=BASE,
    )
    assert entry["ENGINE"] == "django.db.backends.postgresql"
    assert (entry["USER"], entry["PASSWORD"]) == ("tanteo", "s:cret@x")
    assert (entry["HOST"], entry["PORT"], entry["NAME"]) == ("db.internal", "5433", "championships")
    assert entry["OPTIONS"] == {"sslmode": "require", "pool": True}


def test_postgres_pool_never_comes_with_persistent_connections():
    pooled = parse_database_url("postgres://localhost/tanteo", base_dir=BASE)
    # Every connection is checked as it is handed out (a dropped one is replaced).
    assert pooled["OPTIONS"]["pool"] is True
    assert pooled["CONN_HEALTH_CHECKS"] is True
    assert pooled["CONN_MAX_AGE"] == 0
    plain = parse_database_url("postgres://localhost/tanteo", base_dir=BASE, pool=False)
    assert "pool" not in plain["OPTIONS"]
    assert plain["CONN_HEALTH_CHECKS"] is True


def test_postgres_defaults_when_parts_are_left_out():
    entry = parse_database_url("postgres:///tanteo", base_dir=BASE)
    assert (entry["USER"], entry["PASSWORD"], entry["HOST"], entry["PORT"]) == ("", "", "", "")


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("mysql://localhost/tanteo", "unsupported database scheme 'mysql'"),
        ("localhost/tanteo", "unsupported database scheme"),
        ("postgres://localhost", "needs a database name"),
        ("postgres://localhost/", "needs a database name"),
        ("postgres://localhost:port/tanteo", "port .* is not a number"),
    ],
)
def test_bad_database_urls_are_explained(url, message):
    with pytest.raises(ValueError, match=message):
        parse_database_url(url, base_dir=BASE)


def test_the_reader_names_the_variable_of_a_bad_database_url():
    with pytest.raises(EnvError, match="DATABASE_URL: unsupported database scheme 'mysql'"):
        Env({"DATABASE_URL": "mysql://x/y"}).database("DATABASE_URL", "sqlite:///a", base_dir=BASE)


def test_cache_urls():
    assert parse_cache_url(None)["BACKEND"].endswith("LocMemCache")
    assert parse_cache_url("rediss://cache:6380/1")["BACKEND"].endswith("RedisCache")
    with pytest.raises(EnvError, match="REDIS_URL: unsupported cache scheme 'memcached'"):
        Env({"REDIS_URL": "memcached://x"}).cache("REDIS_URL")


# --- The settings in use ----------------------------------------------------------------


def test_the_database_in_use_follows_database_url(db):
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith(("postgres:", "postgresql:", "pgsql:")):
        assert connection.vendor == "postgresql"
        assert connection.settings_dict["OPTIONS"]["pool"] is True
    else:
        assert not url or url.startswith("sqlite:")
        assert connection.vendor == "sqlite"
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def test_the_redis_cache_keeps_its_client_and_renews_counters_at_once():
    """Django's backend built a Redis client for every call (a quarter of a cached page's
    time); config.cache keeps one per connection pool, and it works as the cache."""
    from config.cache import RedisCache

    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.skip("REDIS_URL is not set: the cache is in memory")
    cache = RedisCache(url, {"KEY_PREFIX": f"tanteo-client-test-{os.getpid()}"})
    assert cache._cache.get_client() is cache._cache.get_client(write=True)
    cache.set("a", {"x": 1})
    assert cache.get_many(["a", "b"]) == {"a": {"x": 1}}
    cache.delete("a")
    assert cache.get("a") is None
    # A version counter: set past ``start`` when missing (evicted), else one more.
    cache.incr_or_set_many(["n", "m"], 1000)
    cache.incr_or_set_many(["n"], 5)
    assert cache.get_many(["n", "m"]) == {"n": 1002, "m": 1001}
    cache.delete_many(["n", "m"])


def test_celery_and_cache_follow_their_variables():
    broker = os.environ.get("CELERY_BROKER_URL")
    assert settings.CELERY_TASK_ALWAYS_EAGER is (not broker)
    backend = settings.CACHES["default"]["BACKEND"]
    expected = "RedisCache" if os.environ.get("REDIS_URL") else "LocMemCache"
    assert backend.endswith(expected)


def _settings_of(run_project, env: dict[str, str]) -> dict:
    code = (
        "import json; from django.conf import settings as s; print(json.dumps({"
        "'debug': s.DEBUG, 'db': s.DATABASES['default']['ENGINE'],"
        "'db_name': str(s.DATABASES['default']['NAME']),"
        "'eager': s.CELERY_TASK_ALWAYS_EAGER, 'backend': s.CELERY_RESULT_BACKEND,"
        "'cache': s.CACHES['default']['BACKEND'], 'language': s.LANGUAGE_CODE,"
        "'ssl_redirect': s.SECURE_SSL_REDIRECT, 'hsts': s.SECURE_HSTS_SECONDS}))"
    )
    done = run_project(["-c", code], env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_defaults_need_no_service(run_project):
    values = _settings_of(run_project, {})
    assert values["debug"] is True
    assert values["db"] == "django.db.backends.sqlite3"
    assert values["db_name"] == str(settings.BASE_DIR / "db.sqlite3")
    assert values["eager"] is True
    assert values["backend"] is None
    assert values["cache"].endswith("LocMemCache")
    assert values["language"] == "es"
    assert (values["ssl_redirect"], values["hsts"]) == (False, 0)


def test_a_broker_turns_eager_mode_off_and_keeps_results_on_redis(run_project):
    values = _settings_of(run_project, {"CELERY_BROKER_URL": "redis://127.0.0.1:6379/3"})
    assert values["eager"] is False
    assert values["backend"] == "redis://127.0.0.1:6379/3"


def test_production_defaults_when_debug_is_off(run_project):
    env = {"DEBUG": "false", "SECRET_KEY": secrets.token_urlsafe(50)}
    values = _settings_of(run_project, env)
    assert values["debug"] is False
    assert values["ssl_redirect"] is True
    assert values["hsts"] == 31536000


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DEBUG": "false"}, "SECRET_KEY is required when DEBUG is off"),
        ({"DEBUG": "nope"}, "DEBUG must be a boolean"),
        ({"DATABASE_URL": "oracle://db/x"}, "DATABASE_URL: unsupported database scheme"),
        ({"LANGUAGE_CODE": "fr"}, "LANGUAGE_CODE must be one of es, ca, en"),
        ({"SECURE_HSTS_SECONDS": "a year"}, "SECURE_HSTS_SECONDS must be a whole number"),
    ],
)
def test_bad_configuration_stops_with_a_clear_message(run_project, env, message):
    done = run_project(["manage.py", "check"], env)
    assert done.returncode != 0
    assert message in done.stderr


def test_deploy_check_is_clean_with_debug_off_and_a_real_secret(run_project):
    env = {
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "tanteo.example",
    }
    done = run_project(["manage.py", "check", "--deploy", "--fail-level", "DEBUG"], env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues (0 silenced)." in done.stdout


def test_every_variable_the_settings_read_is_documented():
    source = (settings.BASE_DIR / "config" / "settings.py").read_text(encoding="utf-8")
    read = set(re.findall(r"env\.\w+\(\s*\"([A-Z][A-Z0-9_]*)\"", source))
    documented = (settings.BASE_DIR / "docs" / "configuration.md").read_text(encoding="utf-8")
    assert {"DEBUG", "SECRET_KEY", "DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL"} <= read
    assert sorted(name for name in read if f"| `{name}` |" not in documented) == []
