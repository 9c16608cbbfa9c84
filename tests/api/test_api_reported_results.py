"""No referee at the table through the API: who keeps the score, a result typed at the desk
or corrected by the organiser, reported, confirmed and disputed by a team through its
personal link (``Authorization: TeamLink <token>``), how a match is recorded."""

from __future__ import annotations

import logging

import pytest

from tests.api.conftest import V1, client_for
from tests.tournaments.conftest import chico_hand
from tests.tournaments.factories import ChampionshipFactory, TeamFactory, UserFactory
from tournaments.entries import services as entry_services
from tournaments.models import Championship, HandRevision, Match, Scorekeeping, TeamAct
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services

WON_2_1 = [
    {"score": {"A": 30, "B": 25}},
    {"score": {"A": 18, "B": 30}},
    {"score": {"A": 30, "B": 12}},
]
B_WINS = [{"score": {"A": 20, "B": 30}}, {"score": {"A": 11, "B": 30}}]


def world(scorekeeping: str = Scorekeeping.RESULTS, teams: int = 4) -> Match:
    championship = ChampionshipFactory(scorekeeping=scorekeeping, rules={"preset": "argentine"})
    for seed in range(1, teams + 1):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    return stage_services.round_generate(stage=stage)[0]


def team_client(team, language: str = "en"):
    """A client sending ``team``'s personal link as its credentials."""
    token = entry_services.link_issue(team=team, via=TeamAct.Via.ORGANISER)
    client = client_for(language=language)
    client.credentials(HTTP_AUTHORIZATION=f"TeamLink {token}")
    client.token = token
    return client


def url(match: Match, what: str) -> str:
    return f"{V1}/matches/{match.pk}/{what}/"


@pytest.fixture
def match(db) -> Match:
    return world()


@pytest.fixture
def desk(match):
    """The championship's organiser."""
    user = UserFactory(username="desk")
    match.stage.championship.organisers.add(user)
    return client_for(user)


def test_the_organiser_types_a_result_at_the_desk_and_it_is_final(match, desk):
    response = desk.post(url(match, "result"), {"games": WON_2_1}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["answer"] is None
    stored = body["match"]
    assert (stored["recorded"], stored["reported_side"], stored["status"]) == (
        "result",
        "",
        "finished",
    )
    assert stored["reported_at"] is not None and stored["confirmed_at"] is not None
    assert (stored["chicos_a"], stored["chicos_b"], stored["tantos_a"]) == (2, 1, 78)
    assert [(g["score_a"], g["score_b"]) for g in stored["games"]] == [(30, 25), (18, 30), (30, 12)]
    assert stored["winner"] == match.team_a_id and not stored["provisional"]
    # The match as everyone reads it says how it was recorded.
    read = client_for().get(f"{V1}/matches/{match.pk}/").json()
    assert (read["recorded"], read["reported_side"]) == ("result", "")
    listed = client_for().get(f"{V1}/championships/{match.stage.championship.slug}/matches/")
    assert listed.json()["results"][0]["recorded"] in ("result", "hands")


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "This match already has a result, 2–1 (30–25, 18–30, 30–12), not 0–2"),
        ("es", "Esta partida ya tiene un resultado, 2–1 (30–25, 18–30, 30–12), no 0–2"),
        ("ca", "Aquesta partida ja té un resultat, 2–1 (30–25, 18–30, 30–12), no 0–2"),
    ],
)
def test_another_result_at_the_desk_is_a_conflict_and_a_correction_needs_its_reason(
    match, desk, language, words
):
    desk.post(url(match, "result"), {"games": WON_2_1}, format="json")
    desk.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    other = desk.post(url(match, "result"), {"games": B_WINS}, format="json")
    assert other.status_code == 409
    error = other.json()["error"]
    assert error["code"] == "result_differs" and words in error["message"]
    corrected = desk.post(
        url(match, "result"), {"games": B_WINS, "reason": "Sheet misread"}, format="json"
    )
    assert corrected.status_code == 200, corrected.content
    assert corrected.json()["match"]["winner"] == match.team_b_id
    revision = match.revisions.get(action=HandRevision.Action.RESULT_CORRECTED)
    assert revision.reason == "Sheet misread" and revision.by.username == "desk"


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "has 31 in chico 2: a chico ends the moment a side reaches 30"),
        ("es", "tiene 31 en el chico 2"),
        ("ca", "té 31 al chico 2"),
    ],
)
def test_the_engine_refuses_an_impossible_result_naming_the_chico(match, language, words):
    client = team_client(match.team_b, language)
    games = [{"score": {"A": 30, "B": 12}}, {"score": {"A": 31, "B": 12}}]
    response = client.post(url(match, "result"), {"games": games}, format="json")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert (error["code"], error["game"]) == ("chico_past_target", 1)
    assert words in error["message"] and match.team_a.name in error["message"]
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED


def test_a_result_not_shaped_as_the_engine_takes_it_is_a_field_error(match, desk):
    for body in (
        {"games": []},
        {"games": [{"score": {"A": 30}}]},
        {"games": [{"score": {"A": -1, "B": 30}}]},
        {"games": "30-25"},
        {},
    ):
        response = desk.post(url(match, "result"), body, format="json")
        assert response.status_code == 400, (body, response.content)
        assert response.json()["error"]["code"] == "invalid"
    assert not match.revisions.exists()


def test_a_team_reports_and_the_other_confirms_through_their_links(match):
    reported = team_client(match.team_a).post(
        url(match, "result"), {"games": WON_2_1}, format="json"
    )
    assert reported.status_code == 200, reported.content
    body = reported.json()
    assert (body["answer"]["side"], body["answer"]["status"]) == ("A", "confirmed")
    assert (body["match"]["reported_side"], body["match"]["provisional"]) == ("A", True)
    confirmed = team_client(match.team_b).post(url(match, "confirm"), {}, format="json")
    assert confirmed.status_code == 200, confirmed.content
    assert confirmed.json()["answer"]["status"] == "confirmed"
    assert confirmed.json()["match"]["confirmed_at"] is not None
    assert list(TeamAct.objects.values_list("team_id", "action", "via")) == [
        (match.team_a_id, "link_issued", "organiser"),
        (match.team_a_id, "reported", "link"),
        (match.team_b_id, "link_issued", "organiser"),
        (match.team_b_id, "confirmed", "link"),
    ]


def test_a_team_disputes_saying_why_and_answers_once(match):
    team_client(match.team_a).post(url(match, "result"), {"games": WON_2_1}, format="json")
    client = team_client(match.team_b)
    empty = client.post(url(match, "dispute"), {"comment": " "}, format="json")
    assert (empty.status_code, empty.json()["error"]["code"]) == (400, "comment_missing")
    disputed = client.post(url(match, "dispute"), {"comment": "We won the 2nd"}, format="json")
    assert disputed.status_code == 200, disputed.content
    assert disputed.json()["answer"]["comment"] == "We won the 2nd"
    again = client.post(url(match, "confirm"), {}, format="json")
    assert (again.status_code, again.json()["error"]["code"]) == (409, "already_answered")
    # Another result reported by the side that answered: a conflict, the organiser's now.
    other = client.post(url(match, "result"), {"games": B_WINS}, format="json")
    assert (other.status_code, other.json()["error"]["code"]) == (409, "already_answered")


def test_a_report_second_with_another_result_is_the_teams_dispute(match):
    team_client(match.team_a).post(url(match, "result"), {"games": WON_2_1}, format="json")
    response = team_client(match.team_b).post(
        url(match, "result"), {"games": B_WINS}, format="json"
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["answer"]["side"], body["answer"]["status"]) == ("B", "disputed")
    assert body["match"]["winner"] == match.team_a_id  # one result: the first


def test_a_team_acts_on_its_own_matches_only(match):
    third = match.stage.championship.teams.exclude(
        pk__in=[match.team_a_id, match.team_b_id]
    ).first()
    stranger = team_client(third)
    for what, body in (
        ("result", {"games": WON_2_1}),
        ("confirm", {}),
        ("dispute", {"comment": "no"}),
    ):
        response = stranger.post(url(match, what), body, format="json")
        assert response.status_code == 403, (what, response.content)
        error = response.json()["error"]
        assert error["code"] == "not_team_match" and third.name in error["message"]
    # Nothing else: the organiser's writes are not a team's, nor is correcting.
    team = team_client(match.team_a)
    denied = team.post(url(match, "recording"), {"to": "hands", "reason": "x"}, format="json")
    assert denied.status_code == 401
    assert team.patch(f"{V1}/matches/{match.pk}/", {"table": "9"}, format="json").status_code == 401
    corrected = team.post(url(match, "result"), {"games": WON_2_1, "reason": "mine"}, format="json")
    assert corrected.status_code == 400 and "reason" in corrected.json()["error"]["fields"]
    side = team.post(url(match, "confirm"), {"side": "B"}, format="json")
    assert side.status_code == 400 and "side" in side.json()["error"]["fields"]
    assert not TeamAct.objects.exclude(action="link_issued").exists()
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "In this championship the referees keep the score"),
        ("es", "En este campeonato el tanteo lo llevan los árbitros"),
        ("ca", "En aquest campionat el compte el porten els àrbitres"),
    ],
)
def test_where_referees_keep_the_score_a_team_reports_nothing(db, language, words):
    match = world(scorekeeping=Scorekeeping.REFEREES)
    response = team_client(match.team_a, language).post(
        url(match, "result"), {"games": WON_2_1}, format="json"
    )
    assert response.status_code == 403
    error = response.json()["error"]
    assert error["code"] == "referees_keep_score" and words in error["message"]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "This link was revoked by the organiser"),
        ("es", "La organización ha revocado este enlace"),
        ("ca", "L'organització ha revocat aquest enllaç"),
    ],
)
def test_a_revoked_link_is_refused_with_its_sentence(match, language, words):
    client = team_client(match.team_a, language)
    entry_services.link_revoke(team=match.team_a)
    response = client.post(url(match, "result"), {"games": WON_2_1}, format="json")
    assert response.status_code == 401
    assert response["WWW-Authenticate"]
    error = response.json()["error"]
    assert error["code"] == "link_revoked" and words in error["message"]
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED


def test_a_token_is_taken_from_the_header_only_and_never_logged(match, caplog):
    client = team_client(match.team_a)
    token = client.token
    anonymous = client_for()
    in_query = anonymous.post(
        f"{url(match, 'result')}?token={token}", {"games": WON_2_1}, format="json"
    )
    assert in_query.status_code == 401
    in_body = anonymous.post(
        url(match, "result"), {"games": WON_2_1, "token": token}, format="json"
    )
    assert in_body.status_code == 401
    tampered = client_for()
    tampered.credentials(HTTP_AUTHORIZATION=f"TeamLink {token[:-2]}xx")
    bad = tampered.post(url(match, "result"), {"games": WON_2_1}, format="json")
    assert (bad.status_code, bad.json()["error"]["code"]) == (401, "link_invalid")
    garbled = client_for()
    garbled.credentials(HTTP_AUTHORIZATION="TeamLink")
    assert garbled.post(url(match, "confirm"), {}, format="json").status_code == 401
    with caplog.at_level(logging.DEBUG):
        client.post(url(match, "result"), {"games": [{"score": {"A": 1}}]}, format="json")
        client.post(url(match, "result"), {"games": WON_2_1}, format="json")
        client.post(url(match, "result"), {"games": B_WINS}, format="json")
        entry_services.link_revoke(team=match.team_a)
        client.post(url(match, "confirm"), {}, format="json")
    logged = "\n".join(f"{r.getMessage()} {r.args!r}" for r in caplog.records)
    assert token not in logged and token[:20] not in logged
    assert "TeamLink" not in str(in_query.content) and token not in str(bad.content)


def test_the_organiser_answers_for_a_side_and_changes_how_a_match_is_recorded(match, desk):
    team_client(match.team_a).post(url(match, "result"), {"games": WON_2_1}, format="json")
    no_side = desk.post(url(match, "confirm"), {}, format="json")
    assert no_side.status_code == 400 and "side" in no_side.json()["error"]["fields"]
    answered = desk.post(url(match, "dispute"), {"side": "B", "comment": "Called"}, format="json")
    assert answered.status_code == 200 and answered.json()["answer"]["status"] == "disputed"
    settled = desk.post(url(match, "confirm"), {"side": "B"}, format="json")
    assert settled.status_code == 200 and settled.json()["match"]["confirmed_at"]

    back = desk.post(url(match, "recording"), {"to": "hands", "reason": "Replay"}, format="json")
    assert back.status_code == 200, back.content
    assert (back.json()["recorded"], back.json()["status"], back.json()["games"]) == (
        "hands",
        "scheduled",
        [],
    )
    again = desk.post(url(match, "recording"), {"to": "hands", "reason": "Again"}, format="json")
    assert (again.status_code, again.json()["error"]["code"]) == (409, "recorded_already")
    revision = match.revisions.get(action=HandRevision.Action.CONVERTED)
    assert revision.reason == "Replay"


def test_a_match_kept_hand_by_hand_takes_no_result(db):
    match = world(scorekeeping=Scorekeeping.PLAYERS)
    result_services.match_start(match=match)
    result_services.hand_record(match=match, record=chico_hand(match, "A"), recorded_by=None)
    response = team_client(match.team_b).post(
        url(match, "result"), {"games": B_WINS}, format="json"
    )
    assert (response.status_code, response.json()["error"]["code"]) == (409, "kept_hand_by_hand")


def test_who_keeps_the_score_is_read_by_all_and_set_by_the_organiser(match, desk):
    championship = match.stage.championship
    base = f"{V1}/championships/{championship.slug}"
    read = client_for().get(f"{base}/").json()
    assert (read["scorekeeping"], read["confirm_within"]) == ("results", 30)
    changed = desk.post(
        f"{base}/scorekeeping/", {"scorekeeping": "players", "confirm_within": 45}, format="json"
    )
    assert changed.status_code == 200, changed.content
    assert (changed.json()["scorekeeping"], changed.json()["confirm_within"]) == ("players", 45)
    kept = desk.post(f"{base}/scorekeeping/", {"scorekeeping": "results"}, format="json")
    assert kept.json()["confirm_within"] == 45  # left out: unchanged
    too_long = desk.post(
        f"{base}/scorekeeping/",
        {"scorekeeping": "results", "confirm_within": 60 * 24 * 15},
        format="json",
    )
    assert too_long.status_code == 400 and "confirm_within" in too_long.json()["error"]["fields"]

    stage = f"{base}/stages/{match.stage_id}/"
    assert client_for().get(stage).json()["scorekeeping"] == ""
    assert client_for().get(stage).json()["scorekeeping_in_force"] == "results"
    set_stage = desk.post(f"{stage}scorekeeping/", {"scorekeeping": "referees"}, format="json")
    assert set_stage.status_code == 200, set_stage.content
    assert (set_stage.json()["scorekeeping"], set_stage.json()["scorekeeping_in_force"]) == (
        "referees",
        "referees",
    )
    cleared = desk.post(f"{stage}scorekeeping/", {"scorekeeping": ""}, format="json")
    assert cleared.json()["scorekeeping_in_force"] == "results"
    stranger = client_for(UserFactory())
    assert (
        stranger.post(f"{base}/scorekeeping/", {"scorekeeping": "players"}, format="json")
    ).status_code == 403
    championship.refresh_from_db()
    assert championship.scorekeeping == Scorekeeping.RESULTS


def test_a_retried_report_with_its_key_is_answered_once(match):
    client = team_client(match.team_a)
    headers = {"HTTP_IDEMPOTENCY_KEY": "report-1"}
    first = client.post(url(match, "result"), {"games": WON_2_1}, format="json", **headers)
    second = client.post(url(match, "result"), {"games": WON_2_1}, format="json", **headers)
    assert first.status_code == second.status_code == 200
    assert second["Idempotent-Replayed"] == "true" and second.json() == first.json()
    reused = client.post(url(match, "result"), {"games": B_WINS}, format="json", **headers)
    assert (reused.status_code, reused.json()["error"]["code"]) == (422, "idempotency_key_reused")
    # Another team's key of the same name is its own.
    other = team_client(match.team_b).post(url(match, "confirm"), {}, format="json", **headers)
    assert other.status_code == 200 and "Idempotent-Replayed" not in other
    assert TeamAct.objects.filter(action="reported").count() == 1


def test_a_finished_championship_takes_no_report(match):
    Championship.objects.filter(pk=match.stage.championship_id).update(status="finished")
    response = team_client(match.team_a).post(
        url(match, "result"), {"games": WON_2_1}, format="json"
    )
    assert (response.status_code, response.json()["error"]["code"]) == (
        400,
        "championship_not_running",
    )


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "answers for its own side only, A."),
        ("es", "responde solo por su propio bando, el A."),
        ("ca", "respon només pel seu propi bàndol, el A."),
    ],
)
def test_a_team_naming_another_side_is_told_its_own(match, language, words):
    team_client(match.team_a).post(url(match, "result"), {"games": WON_2_1}, format="json")
    response = team_client(match.team_a, language).post(
        url(match, "dispute"), {"side": "B", "comment": "x"}, format="json"
    )
    assert response.status_code == 400
    assert words in response.json()["error"]["fields"]["side"][0]
    assert words in response.json()["error"]["message"]
