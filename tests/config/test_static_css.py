"""The style sheets are well formed: a block left open swallows every rule after it.

A merge once lost the ``}`` closing ``@media (max-width: 30rem)`` in referee.css: the whole
offline tablet's styles applied only on phones, and its sync badge drew two dots.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

SHEETS = sorted((Path(settings.BASE_DIR) / "static" / "css").glob("*.css"))


def _without_comments_and_strings(css: str) -> str:
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    return re.sub(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'', '""', css)


@pytest.mark.parametrize("sheet", SHEETS, ids=lambda path: path.name)
def test_every_block_of_a_style_sheet_is_closed_where_it_should_be(sheet):
    depth = 0
    for number, line in enumerate(_without_comments_and_strings(sheet.read_text()).split("\n"), 1):
        depth += line.count("{") - line.count("}")
        assert depth >= 0, f"{sheet.name}:{number}: a }} closes nothing"
    assert depth == 0, f"{sheet.name}: {depth} block(s) never closed"


def test_the_tablets_sync_badge_draws_one_dot():
    css = _without_comments_and_strings(
        (Path(settings.BASE_DIR) / "static/css/referee.css").read_text()
    )
    # The markup's own dot (span.sync__dot, coloured by state), never a second one.
    assert ".sync::before" not in css
    assert ".sync__dot" in css
