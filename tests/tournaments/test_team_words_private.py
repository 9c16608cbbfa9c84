"""What a team writes to the organiser is the organiser's to read: a dispute's comment
(through its link), a withdrawal's reason, its entry's answers (licences, email, phone)
reach no public page, no public API response and no public archive; the organiser's
archive (the API for the championship's organisers, ``export_archive --private``) keeps
the comment."""

from __future__ import annotations

import io
import json
import re
from urllib.parse import urlsplit

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tests.api.conftest import V1, client_for
from tests.tournaments.conftest import play
from tests.tournaments.factories import ChampionshipFactory, UserFactory
from tournaments.entries import acts
from tournaments.entries import services as entry_services
from tournaments.models import Championship, Entry, Team
from tournaments.stages import services as stage_services

COMMENT = "The referee counted our envido twice, ask table 4"
REASON = "Our captain's mother is in hospital"
ANSWERS = ("ana.private@example.org", "+34 611 222 333", "LIC-ANSWER-991")
SECRETS = (COMMENT, REASON, *ANSWERS)


@pytest.fixture(autouse=True)
def own_cache(settings):
    """The entries are counted per address in a cache of the test's own."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"team-words-{id(settings)}",
        }
    }


@pytest.fixture
def disputed(db, referee):
    """Three teams entered through the API (one giving a licence, an email and a phone),
    one withdrawn through its link with a reason; a match played and disputed through the
    loser's link."""
    championship = ChampionshipFactory(slug="copa", status=Championship.Status.REGISTRATION)
    entry_services.entry_policy_set(
        championship=championship,
        by=None,
        is_open=True,
        capacity=None,
        closes_at=None,
        asks=["licence", "email", "phone"],
        fee=None,
        fee_instructions="",
    )
    organiser = UserFactory(username="organiser")
    championship.organisers.add(organiser)
    links = {}
    for number, name in enumerate(("Los Pardos", "Los Anchos", "Los Tardes")):
        email, phone, licence = ANSWERS if number == 0 else (f"t{number}@example.com", "6", "")
        body = {
            "team_name": name,
            "email": email,
            "phone": phone,
            "players": [
                {"name": f"{name} uno", "licence": licence or f"L-{number}-1"},
                {"name": f"{name} dos", "licence": f"L-{number}-2"},
            ],
        }
        answer = client_for().post(f"{V1}/championships/copa/entries/", body, format="json")
        assert answer.status_code == 201, answer.content
        links[name] = urlsplit(answer.json()["link"]).path
    Client().post(links["Los Tardes"], {"action": "withdraw", "reason": REASON})
    assert Entry.objects.get(team__name="Los Tardes").reason == REASON
    for entry in Entry.objects.filter(status="pending"):
        entry_services.entry_accept(entry=entry, by=organiser, via="organiser")
    championship.status = Championship.Status.RUNNING
    championship.save(update_fields=["status"])
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = [m for m in stage_services.round_generate(stage=stage) if m.team_b_id]
    pardos = Team.objects.get(name="Los Pardos")
    played = play(match, pardos, referee=referee)
    loser = played.team_a if played.winner_id != played.team_a_id else played.team_b
    Client().post(links[loser.name], {"action": "dispute", "match": played.pk, "comment": COMMENT})
    acts.link_confirm(team=pardos, match=played)
    return championship, organiser, played, stage


def _leaks(text: str) -> list[str]:
    return [secret for secret in SECRETS if secret in text]


def test_the_public_archive_leaves_out_what_teams_wrote_to_the_organiser(disputed):
    championship, organiser, *_ = disputed
    public = client_for().get(f"{V1}/championships/{championship.slug}/archive/")
    assert public.status_code == 200
    assert not _leaks(public.content.decode())
    answers = [c for m in public.json()["matches"] for c in m["confirmations"]]
    assert {c["status"] for c in answers} == {"confirmed", "disputed"}  # the facts stay
    assert {c["comment"] for c in answers} == {""}

    theirs = client_for(organiser).get(f"{V1}/championships/{championship.slug}/archive/")
    kept = [c for m in theirs.json()["matches"] for c in m["confirmations"]]
    assert COMMENT in {c["comment"] for c in kept}
    revisions = [r for m in theirs.json()["matches"] for r in m["revisions"]]
    assert COMMENT in {r["reason"] for r in revisions if r["action"] == "disputed"}
    # Still no contact or licence, not even in the organiser's archive.
    assert not [a for a in ANSWERS if a in theirs.content.decode()]


def test_the_archive_command_is_public_unless_asked_for_the_organisers(disputed):
    championship, *_ = disputed
    public, private = io.StringIO(), io.StringIO()
    call_command("export_archive", championship.slug, stdout=public)
    call_command("export_archive", championship.slug, "--private", stdout=private)
    assert not _leaks(public.getvalue())
    assert COMMENT in json.dumps(json.loads(private.getvalue()), ensure_ascii=False)


def test_no_public_page_shows_what_teams_wrote_to_the_organiser(disputed):
    championship, _organiser, played, _stage = disputed
    client = Client()
    start = f"/c/{championship.slug}/"
    seen: set[str] = set()
    queue = ["/", start, reverse("tournaments:match", args=[championship.slug, played.pk])]
    while queue and len(seen) < 80:
        url = queue.pop(0)
        if url in seen:
            continue
        seen.add(url)
        response = client.get(url)
        if response.status_code != 200:
            continue
        body = b"".join(response) if response.streaming else response.content
        text = body.decode()
        assert not _leaks(text), url
        for href in re.findall(r'href="([^"#?]+)', text):
            path = urlsplit(href).path
            if path.startswith(start) and "/team/" not in path and path not in seen:
                queue.append(path)
    assert len(seen) >= 6


def test_no_public_api_response_holds_what_teams_wrote_to_the_organiser(disputed):
    championship, _organiser, played, stage = disputed
    base = f"{V1}/championships/{championship.slug}/"
    team = played.team_a
    paths = [
        base,
        f"{base}teams/",
        f"{base}teams/{team.pk}/",
        f"{base}stages/{stage.pk}/standings/",
        f"{base}matches/",
        f"{base}fixtures/",
        f"{V1}/matches/{played.pk}/",
        f"{V1}/matches/{played.pk}/hands/",
        f"{V1}/persons/",
    ]
    client = client_for()
    for path in paths:
        response = client.get(path)
        assert response.status_code == 200, path
        assert not _leaks(response.content.decode()), path
    assert client.get(f"{base}entries/").status_code == 401  # the organisers' list
