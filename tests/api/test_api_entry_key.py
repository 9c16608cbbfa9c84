"""The entry form's one-time key is no bearer secret: a replay answers the first entry,
with its personal link, only to the same client (the same address) sending the same
form; another client, or another form under the same key, gets a 409 that shows nothing
of the first team. The API (``Idempotency-Key``) and the page (its hidden key) alike."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.api.conftest import V1, client_for
from tests.tournaments.factories import ChampionshipFactory
from tournaments.entries import services
from tournaments.models import Championship, Entry, Team

URL = f"{V1}/championships/copa/entries/"
KEY = "8d0c2a4e-5b7f-4c1e-9a3d-2f6b8e1c0a57"
FIRST = {
    "team_name": "Los Pardos",
    "players": [{"name": "Ana Ruiz"}, {"name": "Juan Gil"}],
    "email": "ana@example.com",
}
OTHER = {
    "team_name": "Los Intrusos",
    "players": [{"name": "Eva Mal"}, {"name": "Leo Mal"}],
    "email": "eva@example.com",
}
SENTENCES = {
    "en": "This form was already sent",
    "es": "Este formulario ya se envió",
    "ca": "Aquest formulari ja es va enviar",
}


@pytest.fixture
def copa(db) -> Championship:
    championship = ChampionshipFactory(slug="copa", status=Championship.Status.REGISTRATION)
    services.entry_policy_set(
        championship=championship,
        by=None,
        is_open=True,
        capacity=8,
        closes_at=None,
        asks=[],
        fee=None,
        fee_instructions="",
    )
    return championship


def _post(body: dict, address: str, key: str = KEY, language: str = "en"):
    client = client_for(language=language)
    return client.post(URL, body, format="json", HTTP_IDEMPOTENCY_KEY=key, REMOTE_ADDR=address)


def _shows_nothing_of_the_first(response, first: dict) -> None:
    text = response.content.decode()
    for secret in ("Los Pardos", "Ana Ruiz", "ana@example.com", "/team/", first["link"]):
        assert secret not in text
    assert str(first["id"]) not in re.findall(r"\d+", text)


def test_the_same_client_sending_the_same_form_gets_its_first_answer_again(copa):
    first = _post(FIRST, "203.0.113.7")
    again = _post(FIRST, "203.0.113.7")
    assert (first.status_code, again.status_code) == (201, 200)
    assert again["Idempotent-Replayed"] == "true"
    assert again.json()["id"] == first.json()["id"]
    assert again.json()["link"] == first.json()["link"]  # the answer he may have lost
    assert again["Cache-Control"] == "no-store"
    assert Team.objects.count() == 1


@pytest.mark.parametrize("language", ["en", "es", "ca"])
def test_another_client_with_the_key_and_another_team_gets_409_and_nothing(copa, language):
    first = _post(FIRST, "203.0.113.7").json()
    stolen = _post(OTHER, "198.51.100.9", language=language)
    assert stolen.status_code == 409
    error = stolen.json()["error"]
    assert error["code"] == "entry_key_used" and SENTENCES[language] in error["message"]
    _shows_nothing_of_the_first(stolen, first)
    assert list(Team.objects.values_list("name", flat=True)) == ["Los Pardos"]


def test_another_client_sending_the_very_same_form_gets_no_link(copa):
    first = _post(FIRST, "203.0.113.7").json()
    copied = _post(FIRST, "198.51.100.9")
    assert copied.status_code == 409
    _shows_nothing_of_the_first(copied, first)


def test_the_same_client_with_another_form_under_the_key_gets_409(copa):
    first = _post(FIRST, "203.0.113.7").json()
    changed = _post({**FIRST, "players": [{"name": "Ana Ruiz"}, {"name": "Otro"}]}, "203.0.113.7")
    assert changed.status_code == 409
    assert changed.json()["error"]["code"] == "entry_key_used"
    assert first["link"] not in changed.content.decode()
    assert Team.objects.count() == 1


def test_a_replay_never_hands_out_a_link_issued_after_the_first(copa):
    first = _post(FIRST, "203.0.113.7").json()
    team = Team.objects.get(pk=first["team"]["id"])
    services.link_issue(team=team, via="organiser")  # the organiser replaced the link
    again = _post(FIRST, "203.0.113.7")
    assert again.status_code == 200 and again.json()["link"] == ""


def test_a_guessable_key_is_refused(copa):
    short = _post(FIRST, "203.0.113.7", key="form-1")
    assert short.status_code == 422
    assert "16 to 64 characters" in short.json()["error"]["message"]
    assert not Entry.objects.exists()


def _page(client, championship) -> dict:
    page = client.get(reverse("tournaments:enter", args=[championship.slug])).content.decode()
    return {
        "form_key": re.search(r'name="form_key" value="([^"]+)"', page).group(1),
        "team_name": "Los Pardos",
        "player_1": "Ana Ruiz",
        "player_2": "Juan Gil",
    }


def test_the_entry_page_replays_its_link_only_to_the_same_connection(client, copa):
    url = reverse("tournaments:enter", args=[copa.slug])
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    data = _page(client, copa)
    first = client.post(url, data, REMOTE_ADDR="203.0.113.7").content.decode()
    link = re.search(r'id="team-link-text" type="text" value="([^"]+)"', first).group(1)
    again = client.post(url, data, REMOTE_ADDR="203.0.113.7").content.decode()
    assert link in again  # a double tap: the same team, its link again
    other = client.post(url, {**data, "team_name": "Los Intrusos"}, REMOTE_ADDR="198.51.100.9")
    text = other.content.decode()
    assert SENTENCES["en"] in text and link not in text and "/team/" not in text
    # The page offers a new key: sent again, the form is a new one.
    assert data["form_key"] not in text
    assert Team.objects.count() == 1
