"""The OpenAPI schema against the API itself (schemathesis): no 5xx, every response in it.

The schema is read from ``/api/schema/?format=json`` once; every operation is then called
with a bounded number of generated requests (derandomized: the same ones every run),
anonymously and as staff, on a small championship whose ids fill the paths, so writes
reach the services instead of stopping at a 404.
"""

from __future__ import annotations

from datetime import date

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import Client
from hypothesis import HealthCheck, Phase, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)
from werkzeug.test import Client as WsgiClient

from config.wsgi import application
from tests.api.conftest import client_for
from tests.tournaments.conftest import chico_hand
from tests.tournaments.factories import ChampionshipFactory, TeamFactory, UserFactory
from tournaments.circuits import qualification as circuit_qualification
from tournaments.entries import services as entry_services
from tournaments.models import Circuit, CircuitEvent
from tournaments.people.services import PersonDetails
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


def _served_schema() -> dict:
    """The schema as ``/api/schema/`` serves it (reading it needs no database)."""
    # Collected before the test environment (and its "testserver" host) is set up.
    response = Client(HTTP_HOST="localhost").get("/api/schema/?format=json")
    assert response.status_code == 200, response.content
    return response.json()


schema = schemathesis.openapi.from_dict(_served_schema())
schema.app = application


@pytest.fixture
def inside_the_test_transaction():
    """Run the WSGI application inside the test's transaction.

    Django closes the database connection at the end of each request; as its own test
    client does, these signals are disconnected so the test's transaction survives.
    """
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def known(db) -> dict:
    """A running championship with a stage, a round, a seated match with one hand."""
    championship = ChampionshipFactory(slug="copa")
    for seed in range(1, 5):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    match = stage_services.round_generate(stage=stage)[0]
    result_services.match_start(match=match)
    result_services.hand_record(match=match, record=chico_hand(match, "A"), recorded_by=None)
    # A circuit of the same slug, the championship its event: its ranking has a line.
    circuit = Circuit.objects.create(
        name="Copa", slug="copa", start_date=date(2026, 1, 1), end_date=date(2026, 12, 31)
    )
    event = CircuitEvent.objects.create(circuit=circuit, championship=championship, place="Inca")
    circuit_qualification.circuit_event_refresh(event=event)
    open_for_entries = ChampionshipFactory(slug="abierta", status="registration")
    entry_services.entry_policy_set(
        championship=open_for_entries,
        by=None,
        is_open=True,
        capacity=2,
        closes_at=None,
        asks=[],
        fee=None,
        fee_instructions="",
    )
    entry, _token = entry_services.entry_submit(
        championship=open_for_entries,
        team_name="Inscrito",
        players=[PersonDetails(name="Ana"), PersonDetails(name="Juan")],
    )
    return {
        "slug": championship.slug,
        "stage_id": stage.pk,
        "match_id": match.pk,
        "number": match.round.number,
        "team_id": match.team_a_id,
        "player_id": match.team_a.memberships.first().player_id,
        "person_id": match.team_a.memberships.first().player.person_id,
        "entry_id": entry.pk,
        # The personal link of the match's first team: the team's own operations.
        "team_link": entry_services.link_issue(team=match.team_a, via="organiser"),
    }


def credentials(who: str, known: dict | None = None) -> dict:
    if who == "anonymous":
        return {}
    if who == "team":
        return {"Authorization": f"TeamLink {known['team_link']}"}
    client = client_for(UserFactory(username="schema-staff", is_staff=True))
    return {"Authorization": client._credentials["HTTP_AUTHORIZATION"]}


@schema.parametrize()
@pytest.mark.parametrize("who", ["anonymous", "staff"])
@settings(
    max_examples=6,
    deadline=None,
    derandomize=True,
    database=None,
    # Generated examples only: schemathesis's explicit (coverage) examples are many more.
    phases=[Phase.generate],
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_answers_within_its_schema(case, who, known, inside_the_test_transaction):
    for name in list(case.path_parameters or {}):
        if name in known:
            case.path_parameters[name] = known[name]
    headers = credentials(who)
    case.call_and_validate(headers=headers, checks=CHECKS)
    # OPTIONS is no operation of the schema: asked of every path, as the same client and
    # through the same WSGI application (Django's test client would connect its
    # close_old_connections again, closing the test's transaction at the next example).
    options = WsgiClient(application).open(case.formatted_path, method="OPTIONS", headers=headers)
    assert options.status_code < 500, (case.formatted_path, options.get_data())


# What a team does through its personal link: its results (docs/api.md).
TEAM_OPERATIONS = schema.include(path_regex=r"/matches/\{match_id\}/(result|confirm|dispute)/$")


@TEAM_OPERATIONS.parametrize()
@settings(
    max_examples=6,
    deadline=None,
    derandomize=True,
    database=None,
    phases=[Phase.generate],
    suppress_health_check=list(HealthCheck),
)
def test_a_teams_operations_answer_within_their_schema(case, known, inside_the_test_transaction):
    for name in list(case.path_parameters or {}):
        if name in known:
            case.path_parameters[name] = known[name]
    case.call_and_validate(headers=credentials("team", known), checks=CHECKS)


def test_the_answers_of_results_without_a_referee_match_the_schema(db, inside_the_test_transaction):
    """Their successful answers too (the generated requests above are mostly refused): a
    result reported, confirmed and disputed by the teams, typed and corrected by the
    organiser, a match recorded another way, who keeps the score set."""
    championship = ChampionshipFactory(slug="sin-arbitro", scorekeeping="results")
    organiser = UserFactory(username="schema-organiser")
    championship.organisers.add(organiser)
    for seed in range(1, 5):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    first, second = stage_services.round_generate(stage=stage)
    token = {"Authorization": client_for(organiser)._credentials["HTTP_AUTHORIZATION"]}

    def link(team) -> dict:
        return {"Authorization": f"TeamLink {entry_services.link_issue(team=team, via='api')}"}

    games = [{"score": {"A": 30, "B": 25}}, {"score": {"A": 30, "B": 12}}]
    calls = [
        ("/api/v1/matches/{match_id}/result/", first, link(first.team_a), {"games": games}),
        ("/api/v1/matches/{match_id}/dispute/", first, link(first.team_b), {"comment": "No"}),
        ("/api/v1/matches/{match_id}/confirm/", first, token, {"side": "B"}),
        ("/api/v1/matches/{match_id}/result/", second, token, {"games": games}),
        (
            "/api/v1/matches/{match_id}/result/",
            second,
            token,
            {"games": games[::-1], "reason": "Misread"},
        ),
        ("/api/v1/matches/{match_id}/recording/", second, token, {"to": "hands", "reason": "x"}),
        ("/api/v1/championships/{slug}/scorekeeping/", None, token, {"scorekeeping": "players"}),
        (
            "/api/v1/championships/{slug}/stages/{stage_id}/scorekeeping/",
            None,
            token,
            {"scorekeeping": "results"},
        ),
    ]
    client = WsgiClient(application)
    reads = ("/api/v1/matches/{match_id}/", "/api/v1/championships/{slug}/stages/{stage_id}/")

    def read_all() -> None:
        for path in reads:
            address = path.format(match_id=first.pk, slug=championship.slug, stage_id=stage.pk)
            schema[path]["GET"].validate_response(client.get(address))

    read_all()  # a stage as the championship (its own choice empty), a match not reported
    for path, match, headers, body in calls:
        address = path.format(
            match_id=match.pk if match else 0, slug=championship.slug, stage_id=stage.pk
        )
        response = client.post(address, json=body, headers=headers)
        assert response.status_code == 200, (path, response.get_data())
        schema[path]["POST"].validate_response(response)
    read_all()
