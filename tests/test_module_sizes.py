"""No module of the project over 550 lines (migrations excepted): past that, a module is
split by responsibility (STYLE.md). The few production modules still over it are listed
below, each until it is split; the list cannot go stale, since a module listed but no longer
over the limit fails too."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

LIMIT = 550
FOLDERS = ("config", "scoring", "tournaments", "referees", "api", "bench", "tests")
ROOT = Path(__file__).resolve().parent.parent

# A module over the limit while it is being split (none now): remove it once it is.
KNOWN_EXCEPTIONS: set[str] = set()


def project_modules() -> list[str]:
    """The project's Python modules in ``FOLDERS``, as paths from the repository root:
    those git tracks (and new ones it does not ignore, so a module is measured before it is
    committed), or every one on disk where there is no git checkout."""
    if shutil.which("git") and (ROOT / ".git").exists():
        command = ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"]
        listed = subprocess.run(
            [*command, "--", *(f"{folder}/*.py" for folder in FOLDERS)],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout.decode()
        paths = [path for path in listed.split("\0") if path]
    else:
        paths = [
            path.relative_to(ROOT).as_posix()
            for folder in FOLDERS
            for path in (ROOT / folder).rglob("*.py")
        ]
    return sorted(
        path
        for path in set(paths)
        if "migrations" not in Path(path).parts and (ROOT / path).is_file()
    )


def lines(path: str) -> int:
    return len((ROOT / path).read_text(encoding="utf-8").splitlines())


def test_the_modules_are_found():
    """Guards the other tests: a list found empty would let every module pass."""
    modules = project_modules()
    assert "tournaments/models/matches.py" in modules and "tests/test_module_sizes.py" in modules
    assert not any("/migrations/" in path for path in modules)


def test_no_module_is_over_the_limit():
    over = {
        path: length
        for path in project_modules()
        if path not in KNOWN_EXCEPTIONS and (length := lines(path)) > LIMIT
    }
    assert not over, "\n".join(
        f"{path} has {length} lines, over {LIMIT}: split it by responsibility (STYLE.md)"
        for path, length in over.items()
    )


def test_each_known_exception_is_still_over_the_limit():
    """A module split (or gone) comes off the list, so that it cannot grow back unseen."""
    modules = set(project_modules())
    stale = {
        path: (lines(path) if path in modules else None)
        for path in sorted(KNOWN_EXCEPTIONS)
        if path not in modules or lines(path) <= LIMIT
    }
    assert not stale, "\n".join(
        f"{path} is no longer a module: remove it from KNOWN_EXCEPTIONS"
        if length is None
        else f"{path} has {length} lines, within {LIMIT}: remove it from KNOWN_EXCEPTIONS"
        for path, length in stale.items()
    )
