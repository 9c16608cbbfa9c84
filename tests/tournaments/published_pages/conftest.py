"""Fixtures of the published pages' tests: the folder the pages are published to, and
where a page's file lies in it."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def pages(settings, tmp_path) -> Path:
    settings.PUBLISHED_PAGES_DIR = str(tmp_path / "published")
    return tmp_path / "published" / "pages"


def _file(pages: Path, url: str, language: str = "es") -> Path:
    return pages / language / url.lstrip("/") / "index.html"
