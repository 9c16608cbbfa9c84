"""Fixtures shared by the whole suite."""

import datetime
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import factory
import pytest

from tournaments.models import Championship

PROJECT_ROOT = Path(__file__).resolve().parent.parent

# What a child process may inherit; everything else (DATABASE_URL, DEBUG...) is dropped so
# each test states the configuration it runs under.
_INHERITED = {"PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "VIRTUAL_ENV", "PYTHONPATH", "TZ"}


class ChampionshipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Championship

    name = factory.Sequence(lambda n: f"Championship {n}")
    slug = factory.Sequence(lambda n: f"championship-{n}")
    status = Championship.Status.REGISTRATION
    start_date = datetime.date(2026, 4, 23)
    venue = "Casal de Sant Andreu"


@pytest.fixture
def championship_factory(db) -> type[ChampionshipFactory]:
    """The factory of championships (factory_boy), with database access enabled."""
    return ChampionshipFactory


def _child_env(overrides: Mapping[str, str] | None = None) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key in _INHERITED}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    env.update(overrides or {})
    return env


@pytest.fixture
def child_env():
    """Build a child process's environment: the bare minimum plus the given overrides."""
    return _child_env


@pytest.fixture
def run_project():
    """Run ``python <args>`` from the project root with only the given variables set."""

    def run(args: list[str], env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, *args],
            cwd=PROJECT_ROOT,
            env=_child_env(env),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    return run
