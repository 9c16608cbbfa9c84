"""The share link's text: what the organiser shares of a round or a match from his phone
(the share sheet, or WhatsApp): tables, teams, time and the public page, in the active
language, and nothing private; and the Share buttons on his pages, which work without
JavaScript (a wa.me link with the text)."""

from __future__ import annotations

import datetime as dt
from urllib.parse import quote

import pytest
from django.core import mail
from django.utils import timezone, translation

from tests.tournaments.factories import UserFactory
from tests.tournaments.notices.conftest import round_of
from tournaments.entries import services as entry_services
from tournaments.models import TeamAct
from tournaments.stages.share import match_share_text, round_share_text, whatsapp_link


@pytest.fixture
def tables(championship):
    """A round of 5 teams (a bye) at tables 10 and 2, one match at 21:30."""
    matches = round_of(championship, ["en"] * 5)
    playing = [m for m in matches if m.team_b_id]
    playing[0].table, playing[1].table = "10", "2"
    playing[1].scheduled_at = timezone.make_aware(
        dt.datetime(2026, 3, 6, 21, 30), championship.zone
    )
    for match in playing:
        match.save()
    for match in playing:
        entry_services.link_issue(team=match.team_a, via=TeamAct.Via.ORGANISER)
    return playing, next(m for m in matches if not m.team_b_id)


@pytest.mark.parametrize(
    ("language", "head", "table", "bye"),
    [
        ("es", "Copa Avisos — Ronda 1", "mesa 2: ", "descansa"),
        ("ca", "Copa Avisos — Ronda 1", "taula 2: ", "descansa"),
        ("en", "Copa Avisos — Round 1", "table 2: ", "bye"),
    ],
)
def test_the_share_links_text_of_a_round_lists_its_tables_in_the_halls_order(
    tables, language, head, table, bye
):
    playing, resting = tables
    with translation.override(language):
        text = round_share_text(round_=playing[0].round)
    lines = text.splitlines()
    assert lines[0] == head
    # Table 2 before table 10, the bye last, then the public round page.
    assert lines[1] == f"{table}{playing[1].team_a.name} – {playing[1].team_b.name} · 21:30"
    assert lines[2].endswith(f"10: {playing[0].team_a.name} – {playing[0].team_b.name}")
    assert resting.team_a.name in lines[3] and bye in lines[3]
    stage = playing[0].stage
    assert lines[4] == f"http://localhost:8000/c/copa-avisos/stages/{stage.pk}/rounds/1/"


def test_the_share_links_text_of_a_match_and_nothing_private(tables):
    playing, _resting = tables
    match = playing[1]
    with translation.override("ca"):
        text = match_share_text(match=match)
    assert text.splitlines() == [
        "Copa Avisos — Ronda 1",
        f"{match.team_a.name} – {match.team_b.name}",
        "Taula: 2",
        "Quan: divendres 6 de març, 21:30",
        f"http://localhost:8000/c/copa-avisos/matches/{match.pk}/",
    ]
    for team in (match.team_a, match.team_b):
        assert team.entry.email not in text
        for link in team.links.all():
            assert link.token not in text


def test_the_share_buttons_on_the_organisers_round_and_match_pages(
    championship, organiser, client, tables
):
    playing, _resting = tables
    round_ = playing[0].round
    client.force_login(organiser)
    base = f"/organiser/{championship.slug}/stages/{round_.stage_id}/rounds/1"
    with translation.override("es"):
        expected = whatsapp_link(round_share_text(round_=round_))
    for url in (f"{base}/notices/", f"{base}/assign/"):
        page = client.get(url).content.decode()
        assert 'href="https://wa.me/?text=' in page and "js/share.js" in page
        assert expected.replace("&", "&amp;") in page or expected in page
    page = client.get(f"/organiser/{championship.slug}/matches/{playing[1].pk}/results/")
    assert quote(f"/c/copa-avisos/matches/{playing[1].pk}/", safe="") in page.content.decode()
    # Another organiser sees none of it.
    client.force_login(UserFactory(username="other"))
    assert client.get(f"{base}/notices/").status_code == 404
    assert mail.outbox == []
