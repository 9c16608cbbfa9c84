"""A person's email, phone and licence number never reach a circuit's public page, its
ranking's CSV, its API or the person's circuits section (as tests/tournaments/
test_people_privacy.py for a championship)."""

from __future__ import annotations

import pytest

from tests.api.conftest import V1, client_for
from tests.tournaments.circuits.circuit_data import circuit_played
from tournaments.circuits import export
from tournaments.models import Person

SECRETS = ("secret.mail@example.org", "+34 699 111 222", "LIC-PRIVATE-77")


@pytest.fixture
def played(db):
    played = circuit_played()
    Person.objects.filter(pk=played.persons["Ana Ruiz Soler"].pk).update(
        email=SECRETS[0], phone=SECRETS[1], licence=SECRETS[2]
    )
    return played


def _leaks(text: str) -> list[str]:
    return [secret for secret in SECRETS if secret in text]


def test_no_circuit_page_csv_or_api_answer_holds_a_persons_contact_or_licence(client, played):
    ana = played.persons["Ana Ruiz Soler"]
    pages = ["/circuits/", "/circuits/open-truc/", f"/people/{ana.pk}/"]
    for url in pages:
        text = client.get(url).content.decode()
        assert "Ana Ruiz Soler" in text or url == "/circuits/"
        assert not _leaks(text), url
    csv_text = b"".join(client.get("/circuits/open-truc/ranking.csv").streaming_content).decode()
    assert "Ana Ruiz Soler" in csv_text and not _leaks(csv_text)
    assert not _leaks("".join(export.export_ranking(played.circuit)))
    api = client_for()
    for path in ("circuits/", "circuits/open-truc/", "circuits/open-truc/ranking/"):
        response = api.get(f"{V1}/{path}")
        assert response.status_code == 200, path
        assert not _leaks(response.content.decode()), path
