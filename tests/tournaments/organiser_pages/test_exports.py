"""The organiser's CSV downloads: standings, matches and hands."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments.results import services as result_services


@pytest.mark.parametrize(
    ("kind", "header"),
    [
        ("standings", "stage,group,rank,position,team"),
        ("matches", "match,stage,round,group,bracket,table"),
        ("hands", "match,team_a,team_b,game,hand"),
    ],
)
def test_download_each_csv(client, setup, organiser, play_match, kind, header):
    match = setup["match"]
    play_match(match, match.team_a)
    result_services.match_assign(match=setup["match"], table="Mesa 1")
    client.force_login(organiser)
    response = client.get(reverse("organiser:export", args=[setup["championship"].slug, kind]))
    assert response.status_code == 200
    assert response.streaming
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert f'filename="{setup["championship"].slug}-{kind}.csv"' in response["Content-Disposition"]
    text = b"".join(response.streaming_content).decode("utf-8")
    assert text.startswith("\ufeff" + header)
    lines = text.strip().splitlines()
    assert len(lines) > 1
    assert match.team_a.name in text


def test_an_unknown_export_is_404(client, setup, organiser):
    client.force_login(organiser)
    url = reverse("organiser:export", args=[setup["championship"].slug, "passwords"])
    assert client.get(url).status_code == 404
