"""The ``>>>`` examples in the formats, tie-break and live topics docstrings (not collected
by default)."""

import doctest
import importlib

import pytest

MODULES = [
    "tournaments.formats.base",
    "tournaments.formats.round_robin",
    "tournaments.formats.swiss",
    "tournaments.formats.elimination",
    "tournaments.formats.groups",
    "tournaments.formats.tables",
    "tournaments.formats.tables_schedule",
    "tournaments.standings.tables",
    "tournaments.standings.tiebreaks",
    # Which pages a write renders again: the examples are the rule's table.
    "tournaments.live.topics",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0


def test_formats_import_no_django():
    import subprocess
    import sys

    code = (
        "import sys, tournaments.formats as f; "
        "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules), "
        "sorted(m for m in sys.modules if m.startswith('django'))"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
