"""The translation catalogs: every string of the code and templates, in every language."""

import os
import re
import shutil
import subprocess
import sys

import pytest
from django.conf import settings

LANGUAGES = ["es", "ca", "en"]
# What `make messages` leaves out; everything else is scanned for translatable strings.
NOT_SCANNED = [".venv", ".git", "tests", "bench", "staticfiles", "docs", "*.egg-info"]


def catalog(root, language: str, suffix: str):
    return root / "locale" / language / "LC_MESSAGES" / f"django.{suffix}"


def needs(*programs: str) -> None:
    missing = [program for program in programs if shutil.which(program) is None]
    if missing:
        pytest.skip(f"gettext is not installed ({', '.join(missing)} missing)")


def untranslated(po_file) -> list[str]:
    """The msgids of ``po_file`` that are untranslated or fuzzy."""
    done = subprocess.run(
        ["msgattrib", "--no-obsolete", "--untranslated", str(po_file)],
        capture_output=True,
        text=True,
        check=True,
    )
    fuzzy = subprocess.run(
        ["msgattrib", "--no-obsolete", "--only-fuzzy", str(po_file)],
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.findall(r'^msgid "(.+)"$', done.stdout + fuzzy.stdout, flags=re.MULTILINE)
    return sorted(set(found))


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalogs_are_committed_with_their_compiled_form(language):
    assert catalog(settings.BASE_DIR, language, "po").is_file()
    assert catalog(settings.BASE_DIR, language, "mo").stat().st_size > 0


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_catalog_entry_is_translated_and_well_formed(language):
    needs("msgfmt", "msgattrib")
    po_file = catalog(settings.BASE_DIR, language, "po")
    done = subprocess.run(
        ["msgfmt", "--check", "-o", os.devnull, str(po_file)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert untranslated(po_file) == []


def test_every_string_of_the_code_is_in_the_catalogs(tmp_path):
    """Extract the strings again from a copy of the project: none may be missing."""
    needs("xgettext", "msgmerge", "msgattrib")
    copy = tmp_path / "project"
    shutil.copytree(
        settings.BASE_DIR, copy, ignore=shutil.ignore_patterns(*NOT_SCANNED, "__pycache__")
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    # makemessages writes to the LOCALE_PATHS of the settings it loads: make sure they are
    # the copy's, never the real catalogs.
    where = subprocess.run(
        [sys.executable, "-c", "import config.settings as s; print(s.LOCALE_PATHS[0])"],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert where.stdout.strip() == str(copy / "locale")

    ignores = [f"--ignore={pattern}" for pattern in NOT_SCANNED]
    languages = [arg for language in LANGUAGES for arg in ("-l", language)]
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", *languages, *ignores],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    missing = {language: untranslated(catalog(copy, language, "po")) for language in LANGUAGES}
    assert missing == {language: [] for language in LANGUAGES}, (
        "Strings without a translation: run `make messages`, translate them in "
        "locale/*/LC_MESSAGES/django.po, then `make compilemessages`."
    )
