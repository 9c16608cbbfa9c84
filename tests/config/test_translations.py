"""The translation catalogs: complete in every language, and compiled in the repository."""

import os
import shutil
import subprocess

import pytest
from django.conf import settings

LANGUAGES = ["es", "ca", "en"]


def catalog(language: str, suffix: str):
    return settings.BASE_DIR / "locale" / language / "LC_MESSAGES" / f"django.{suffix}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalogs_are_committed_with_their_compiled_form(language):
    assert catalog(language, "po").is_file()
    assert catalog(language, "mo").stat().st_size > 0


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated(language):
    if shutil.which("msgfmt") is None:
        pytest.skip("gettext's msgfmt is not installed")
    done = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", os.devnull, str(catalog(language, "po"))],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "translated message" in done.stderr
    assert "untranslated" not in done.stderr
    assert "fuzzy" not in done.stderr
