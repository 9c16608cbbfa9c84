"""The database emptied after each test that commits, in a tenth of the time.

A pytest plugin of the suite (``tests/conftest.py`` names it in ``pytest_plugins``). A test
that commits (``transactional_db``: the browser tests, the live servers, the races) is
followed by Django's ``flush``, which on PostgreSQL is one ``TRUNCATE`` of every table:
0.3 s each time on this machine, since a truncated table gets new files, against 0.02 s to
``DELETE`` the few rows a test leaves. Here ``flush`` deletes them instead, in the one
transaction Django runs it in: Django makes PostgreSQL's foreign keys ``DEFERRABLE
INITIALLY DEFERRED``, so they are checked at its commit, when the rows are all gone, and
the order of the deletes does not matter; the tables are locked first, as ``TRUNCATE``
locks them. The content types and permissions, which ``post_migrate`` would make again
after it, are kept as they are; a flush asked to reset the sequences or to cascade is
Django's own.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management.commands import flush as flush_command

_truncate = flush_command.sql_flush
# What ``post_migrate`` makes again after each flush, the same rows every time: kept, not
# deleted and inserted anew (a deleted row stays in the table, dead, until PostgreSQL
# vacuums it: 250 permissions a flush slowed every permission check of the tests after).
_MADE_AGAIN = frozenset({"django_content_type", "auth_permission"})


def _delete_rows(
    style: Any, connection: Any, reset_sequences: bool = False, allow_cascade: bool = False
) -> list[str]:
    if connection.vendor != "postgresql" or reset_sequences or allow_cascade:
        return _truncate(
            style, connection, reset_sequences=reset_sequences, allow_cascade=allow_cascade
        )
    tables = sorted(
        connection.ops.quote_name(table)
        for table in connection.introspection.django_table_names(
            only_existing=True, include_views=False
        )
        if table not in _MADE_AGAIN
    )
    # As TRUNCATE would, wait for whatever still writes (a live server's last request) and
    # keep it out until the commit: no row of this test is left for the next one.
    return [
        f"LOCK TABLE {', '.join(tables)} IN ACCESS EXCLUSIVE MODE",
        *(f"DELETE FROM {table}" for table in tables),
    ]


@pytest.fixture(scope="session", autouse=True)
def _flush_by_deleting_rows() -> Any:
    flush_command.sql_flush = _delete_rows
    yield
    flush_command.sql_flush = _truncate
