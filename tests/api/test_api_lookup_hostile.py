"""The API looks championships up by slug: anything that is not a slug is a 404 before it
reaches the database (PostgreSQL answers an error to a NUL byte)."""

import pytest
from rest_framework.test import APIClient

from tests.tournaments.factories import ChampionshipFactory


@pytest.mark.parametrize(
    "lookup",
    ["%00", "copa%00", "%ud800", "%C0%AF", "%F0%9F%83%8F", "a" * 1000, "copa'--", "..%2F.."],
    ids=["nul", "nul-after", "surrogate", "overlong-utf8", "emoji", "long", "quote", "dots"],
)
def test_a_lookup_that_is_not_a_slug_is_404(db, lookup):
    ChampionshipFactory(slug="copa")
    response = APIClient().get(f"/api/v1/championships/{lookup}/")
    assert response.status_code == 404


def test_a_slug_still_finds_its_championship(db):
    ChampionshipFactory(slug="copa-2026_b")
    assert APIClient().get("/api/v1/championships/copa-2026_b/").status_code == 200
