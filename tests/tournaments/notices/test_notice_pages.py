"""The organiser's pages for telling the players: the round's "Call the round" button and
message form, the championship's message to everyone entered, and each notice's state."""

from __future__ import annotations

import pytest
from django.core import mail

from tests.tournaments.factories import UserFactory
from tests.tournaments.notices.conftest import round_of
from tournaments.models import Notice
from tournaments.stages import services as stage_services


@pytest.fixture
def round_page(championship, organiser, client):
    matches = round_of(championship, ["es", "ca", "en", "en"])
    for n, match in enumerate(matches, start=1):
        match.table = str(n)
        match.save()
    client.force_login(organiser)
    stage = matches[0].stage
    return f"/organiser/{championship.slug}/stages/{stage.pk}/rounds/1/notices/", matches


def test_the_stage_page_leads_to_the_rounds_notices(championship, client, round_page):
    url, matches = round_page
    page = client.get(f"/organiser/{championship.slug}/stages/{matches[0].stage_id}/")
    assert url.encode() in page.content


def test_calling_the_round_from_its_page_tells_every_team_once_and_lists_the_states(
    client, round_page, django_capture_on_commit_callbacks
):
    url, _matches = round_page
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(url, {"action": "call"}, follow=True)
    assert "4 equipos avisados" in answer.content.decode()
    assert len(mail.outbox) == 4
    with django_capture_on_commit_callbacks(execute=True):
        again = client.post(url, {"action": "call"}, follow=True)
    assert "No se ha avisado a nadie" in again.content.decode()
    assert len(mail.outbox) == 4
    page = client.get(url).content.decode()
    assert page.count('class="told told--sent"') == 4
    assert "Enviado: 4" in page
    # The organiser sees what and to whom, never the addresses.
    assert "@example.org" not in page


def test_a_message_to_one_match_from_the_round_page(
    client, round_page, django_capture_on_commit_callbacks
):
    url, matches = round_page
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, {"action": "message", "to": matches[1].pk, "text": "Cambiad de mesa"})
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        [matches[1].team_a.entry.email, matches[1].team_b.entry.email]
    )


def test_a_refused_message_says_why_and_sends_nothing(client, round_page):
    url, _matches = round_page
    answer = client.post(url, {"action": "message", "text": "Hola\x07"}, follow=True)
    assert "carácter de control invisible" in answer.content.decode()
    assert not Notice.objects.exists()


def test_a_message_to_everyone_entered(
    championship, client, round_page, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(
            f"/organiser/{championship.slug}/notices/", {"text": "Premios a las 20 h"}, follow=True
        )
    assert "Mensaje enviado a 4 equipos" in answer.content.decode()
    assert len(mail.outbox) == 4


def test_another_organiser_cannot_tell_this_championships_teams(championship, client, round_page):
    url, _matches = round_page
    client.force_login(UserFactory())
    assert client.post(url, {"action": "call"}).status_code == 404
    assert client.get(f"/organiser/{championship.slug}/notices/").status_code == 404
    assert not Notice.objects.exists()


def test_the_audit_log_leads_to_what_the_players_were_told(championship, client, round_page):
    page = client.get(f"/organiser/{championship.slug}/audit/").content.decode()
    assert f'href="/organiser/{championship.slug}/notices/" id="audit-notices"' in page


def test_a_message_to_a_stages_teams_from_the_championships_page_and_the_rounds(
    championship, client, round_page, django_capture_on_commit_callbacks
):
    url, matches = round_page
    stage = matches[0].stage
    # A second stage of two of the teams: its message reaches those two only.
    chosen = [matches[0].team_a, matches[0].team_b]
    other = stage_services.stage_create(
        championship=championship, format="swiss", name="Consolación", teams=chosen
    )
    page = client.get(f"/organiser/{championship.slug}/notices/").content.decode()
    assert f'<option value="{other.pk}">Todos los equipos de Consolación</option>' in page
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(
            f"/organiser/{championship.slug}/notices/",
            {"to": other.pk, "text": "La consolación empieza a las 12"},
            follow=True,
        )
    assert "Mensaje enviado a 2 equipos" in answer.content.decode()
    assert sorted(m.to[0] for m in mail.outbox) == sorted(t.entry.email for t in chosen)
    # From the round's page, to every team of its stage.
    mail.outbox.clear()
    assert 'value="stage"' in client.get(url).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, {"action": "message", "to": "stage", "text": "Pausa de 10 minutos"})
    assert len(mail.outbox) == stage.teams.count() == 4
