"""The archive the hostile files are made from imports whole, and so does every value of
it replaced in turn (by one of another type, or one no column holds) unless it is refused
with its JSON path, nothing written; a bad name (slug) for the copy is refused."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction

from tests.tournaments.archive_hostile.conftest import LONE, MAX_MESSAGE, counts
from tournaments.io.archive_checks import ArchiveError
from tournaments.io.archive_import import archive_import
from tournaments.models import Championship, Match, Substitution


@pytest.mark.django_db
def test_the_file_the_hostile_ones_are_made_from_imports_whole(archive, tmp_path):
    file = tmp_path / "archive.json"
    file.write_text(json.dumps(archive), encoding="utf-8")
    call_command("import_archive", str(file), "--slug", "copia")
    copy_ = Championship.objects.get(slug="copia")
    assert copy_.teams.count() == 4 and copy_.entries.count() == 4
    assert Match.objects.filter(stage__championship=copy_).count() == len(archive["matches"])
    assert Substitution.objects.filter(team__championship=copy_).count() == 1
    played = Match.objects.get(stage__championship=copy_, outcome="played")
    # What people typed in a text box keeps its line breaks (a reason, a comment).
    assert played.revisions.filter(reason="El envido\nera de B").exists()
    assert played.confirmations.get(side="B").comment == "Mal contado"


@pytest.mark.django_db
def test_free_text_keeps_what_the_text_rule_keeps(archive):
    # A reason as typed on any system: CR LF, CR, a tab, a line separator (tournaments.text).
    spoiled = copy.deepcopy(archive)
    played = next(m for m in spoiled["matches"] if m["outcome"] == "played")
    played["confirmations"][1]["comment"] = "Mal\r\ncontado\rotra\tvez\u2028fin"
    done = archive_import(archive=spoiled, slug="lineas")
    match = Match.objects.get(stage__championship=done.championship, outcome="played")
    assert match.confirmations.get(side="B").comment == "Mal\r\ncontado\rotra\tvez\u2028fin"


@pytest.mark.django_db
def test_a_name_whose_plain_form_is_longer_than_the_column_imports(archive):
    # "ﷺ" is one character, its NFKD form eighteen: the person's name key (200 at most)
    # is cut, not refused by PostgreSQL.
    spoiled = copy.deepcopy(archive)
    spoiled["people"][0]["name"] = "ﷺ" * 200
    done = archive_import(archive=spoiled, slug="largo")
    assert done.championship.teams.count() == 4


def _wrong(value: Any) -> Any:
    """A value of another JSON type than ``value``."""
    if isinstance(value, bool):
        return "yes"
    if isinstance(value, dict):
        return ["not", "an", "object"]
    if isinstance(value, list):
        return {"not": "a list"}
    if isinstance(value, str):
        return 12
    if value is None:
        return [None]
    return "12"


def _hostile(value: Any) -> Any:
    """A value of the same JSON type as ``value`` that no database column holds."""
    if isinstance(value, bool) or value is None:
        return 2**63
    if isinstance(value, dict):
        return {**value, "\x00": LONE}
    if isinstance(value, list):
        return [*value, -(2**63)]
    if isinstance(value, str):
        return f"{value}{LONE}\x00"
    return 2**63 + value


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    """A path to every value of ``value`` (of each list, the first and the last item)."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list) and value:
        for index in sorted({0, len(value) - 1}):
            found += _paths(value[index], (*path, index))
    return found


def _set(archive: dict, path: tuple, value: Any) -> None:
    parent = archive
    for part in path[:-1]:
        parent = parent[part]
    parent[path[-1]] = value


@pytest.mark.django_db
@pytest.mark.parametrize("change", [_wrong, _hostile])
def test_a_bad_value_anywhere_is_refused_or_imported_whole(archive, change):
    """Every value of the archive (of each list the first and the last item) replaced,
    one at a time: by one of another type, or by one no database column holds."""
    paths = [p for p in _paths(archive) if p]
    assert len(paths) > 300
    refused = 0
    for path in paths:
        spoiled = copy.deepcopy(archive)
        _set(spoiled, path, change(_get(archive, path)))
        before = counts()
        try:
            with transaction.atomic():
                done = archive_import(archive=spoiled, slug="tipos")
                assert done.championship.teams.count() == len(spoiled["teams"]), path
                transaction.set_rollback(True)
        except ArchiveError as error:
            refused += 1
            assert error.path.startswith("$"), path
            assert len(error.text) <= MAX_MESSAGE, (path, error.text)
            assert counts() == before, path
    # What is kept as it came (a change's record) may be anything JSON: the rest is not.
    assert refused > len(paths) * 3 // 4


def _get(archive: dict, path: tuple) -> Any:
    value = archive
    for part in path:
        value = value[part]
    return value


@pytest.mark.django_db
def test_a_bad_slug_for_the_copy_is_refused(archive, tmp_path):
    file = tmp_path / "archive.json"
    file.write_text(json.dumps(archive), encoding="utf-8")
    before = counts()
    with pytest.raises(CommandError, match="short name"):
        call_command("import_archive", str(file), "--slug", "con espacios/y\x00")
    assert counts() == before
