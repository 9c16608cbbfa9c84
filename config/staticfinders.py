"""Static files from the front-end packages that npm installs (``make install``).

Pyodide's npm package also holds a REPL page, type declarations and source maps; the site
serves only the runtime files the tablet's engine worker loads
(``referees.tablet.PYODIDE_FILES``), as ``static/pyodide/<name>``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles.finders import BaseFinder
from django.core.files.storage import FileSystemStorage

PREFIX = "pyodide"


def _folder() -> Path:
    return Path(settings.BASE_DIR) / "node_modules" / "pyodide"


def _files() -> tuple[str, ...]:
    from referees.tablet import PYODIDE_FILES

    return PYODIDE_FILES


class PyodideFinder(BaseFinder):
    """Finds ``pyodide/<name>`` for Pyodide's runtime files, when npm has installed them."""

    def check(self, **kwargs: Any) -> list[Any]:
        return []  # without node_modules the tablet keeps to the server-rendered flow

    def find(self, path: str, find_all: bool = False, **kwargs: Any) -> Any:
        find_all = kwargs.get("all", find_all)  # Django < 5.2 names it "all"
        name = path.removeprefix(f"{PREFIX}/")
        found = _folder() / name
        if name == path or name not in _files() or not found.is_file():
            return []  # as Django's own finders: an empty list, whichever was asked
        return [str(found)] if find_all else str(found)

    def list(self, ignore_patterns: Any) -> Iterator[tuple[str, FileSystemStorage]]:
        storage = FileSystemStorage(location=str(_folder()))
        storage.prefix = PREFIX  # type: ignore[attr-defined]
        for name in _files():
            if (_folder() / name).is_file():
                yield name, storage
