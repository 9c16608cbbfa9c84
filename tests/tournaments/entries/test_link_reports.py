"""A team reports the result of its own match through its personal link
(``tournaments.entries.reports``), answers one through it, and its page's read of what
its results wait for (``tournaments.entries.report_selectors``)."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.entries import report_selectors, reports
from tournaments.entries import services as entry_services
from tournaments.models import (
    Entry,
    HandRevision,
    Match,
    MatchConfirmation,
    Scorekeeping,
    TeamAct,
    TeamLink,
)
from tournaments.stages import services as stage_services

WON_2_1 = [
    {"score": {"A": 30, "B": 25}},
    {"score": {"A": 18, "B": 30}},
    {"score": {"A": 30, "B": 12}},
]
B_WINS = [{"score": {"A": 20, "B": 30}}, {"score": {"A": 11, "B": 30}}]


def _match(scorekeeping: str = Scorekeeping.RESULTS, teams: int = 2) -> Match:
    championship = ChampionshipFactory(scorekeeping=scorekeeping, rules={"preset": "argentine"})
    for seed in range(1, teams + 1):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    return stage_services.round_generate(stage=stage)[0]


def _link(team) -> TeamLink:
    entry_services.link_issue(team=team, via=TeamAct.Via.ORGANISER)
    return team.links.get(revoked_at__isnull=True)


@pytest.fixture
def match(db) -> Match:
    return _match()


def test_a_team_reports_its_result_as_its_first_player_and_the_log_says_it(match):
    team = match.team_a
    first = team.memberships.order_by("order").first().player
    answer = reports.link_report(team=team, match=match, games=WON_2_1, link=_link(team))
    assert (answer.side, answer.status, answer.player, answer.on_behalf, answer.by) == (
        "A",
        "confirmed",
        first,
        False,
        None,
    )
    match.refresh_from_db()
    assert match.recorded == Match.Recorded.RESULT and match.reported_side == "A"
    assert (match.chicos_a, match.chicos_b, match.winner_id) == (2, 1, match.team_a_id)
    assert match.is_provisional
    act = TeamAct.objects.get(action=TeamAct.Action.REPORTED)
    assert (act.via, act.match, act.team, act.by) == ("link", match, team, None)
    assert act.detail == "2–1 (30–25, 18–30, 30–12)"


def test_the_other_team_reports_the_same_and_the_result_is_final(match):
    reports.link_report(team=match.team_a, match=match, games=WON_2_1)
    answer = reports.link_report(team=match.team_b, match=match, games=WON_2_1)
    assert (answer.side, answer.status) == ("B", "confirmed")
    match.refresh_from_db()
    assert match.confirmed_at is not None
    assert match.revisions.filter(action=HandRevision.Action.RESULT).count() == 1
    assert list(TeamAct.objects.values_list("team_id", "action")) == [
        (match.team_a_id, "reported"),
        (match.team_b_id, "reported"),
    ]


def test_another_result_reported_second_is_that_teams_dispute_never_a_second_result(match):
    reports.link_report(team=match.team_a, match=match, games=WON_2_1)
    with translation.override("en"):
        answer = reports.link_report(team=match.team_b, match=match, games=B_WINS)
    assert (answer.side, answer.status) == ("B", "disputed")
    assert f"{match.team_b.name} reported another result: 0–2 (20–30, 11–30)." == answer.comment
    match.refresh_from_db()
    assert match.winner_id == match.team_a_id and match.reported_side == "A"
    assert match.games.count() == 3
    # What it reported is in the log, in words.
    assert TeamAct.objects.get(team=match.team_b).detail == "0–2 (20–30, 11–30)"


def test_the_same_report_again_changes_nothing_and_logs_nothing(match):
    for _ in range(2):
        reports.link_report(team=match.team_a, match=match, games=WON_2_1)
    assert TeamAct.objects.filter(action="reported").count() == 1
    assert match.revisions.count() == 2  # the result, and side A's confirmation
    with pytest.raises(ValidationError) as other:
        reports.link_report(team=match.team_a, match=match, games=B_WINS)
    assert other.value.code == "already_answered"
    match.refresh_from_db()
    assert match.winner_id == match.team_a_id


def test_another_teams_match_is_refused_and_nothing_is_stored(db):
    match = _match(teams=4)
    stranger = (
        match.stage.championship.teams.exclude(pk__in=[match.team_a_id, match.team_b_id])
        .order_by("pk")
        .first()
    )
    with pytest.raises(ValidationError) as refused, translation.override("en"):
        reports.link_report(team=stranger, match=match, games=WON_2_1)
    assert refused.value.code == "not_team_match"
    with translation.override("en"):
        assert f"This match is not one of {stranger.name}'s." in refused.value.messages
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED and not TeamAct.objects.exists()


@pytest.mark.parametrize("status", [Entry.Status.REFUSED, Entry.Status.WITHDRAWN])
def test_a_team_whose_entry_is_out_reports_nothing(match, status):
    Entry.objects.create(
        championship=match.stage.championship, team=match.team_a, status=status, position=1
    )
    with pytest.raises(ValidationError) as refused:
        reports.link_report(team=match.team_a, match=match, games=WON_2_1)
    assert refused.value.code == f"entry_{status}"
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED and not match.revisions.exists()


def test_a_revoked_link_reports_nothing_and_answers_nothing(match):
    team = match.team_a
    link = _link(team)
    entry_services.link_revoke(team=team)
    with pytest.raises(ValidationError) as refused, translation.override("es"):
        reports.link_report(team=team, match=match, games=WON_2_1, link=link)
    assert refused.value.code == "link_revoked"
    with translation.override("es"):
        assert "revocado" in " ".join(refused.value.messages)
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED
    # The link of another team is no good either, even live.
    reports.link_report(team=match.team_b, match=match, games=WON_2_1)
    with pytest.raises(ValidationError) as not_its:
        reports.link_answer(team=team, match=match, link=_link(match.team_b))
    assert not_its.value.code == "link_revoked"
    with pytest.raises(ValidationError):
        reports.link_answer(team=team, match=match, link=link)
    assert not MatchConfirmation.objects.filter(side="A").exists()


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "In this championship the referees keep the score"),
        ("es", "En este campeonato el tanteo lo llevan los árbitros"),
        ("ca", "En aquest campionat el compte el porten els àrbitres"),
    ],
)
def test_where_referees_keep_the_score_a_team_reports_nothing(db, language, words):
    match = _match(scorekeeping=Scorekeeping.REFEREES)
    with pytest.raises(ValidationError) as refused, translation.override(language):
        reports.link_report(team=match.team_a, match=match, games=WON_2_1)
    assert refused.value.code == "referees_keep_score"
    with translation.override(language):
        assert words in " ".join(refused.value.messages)
    assert not TeamAct.objects.exists()


def test_an_impossible_result_is_refused_naming_the_team_and_the_chico(match):
    games = [{"score": {"A": 31, "B": 12}}, {"score": {"A": 30, "B": 2}}]
    with pytest.raises(ValidationError) as refused, translation.override("en"):
        reports.link_report(team=match.team_b, match=match, games=games)
    assert refused.value.code == "chico_past_target"
    assert refused.value.params["index"] == 0
    with translation.override("en"):
        assert f"{match.team_a.name} has 31 in chico 1" in " ".join(refused.value.messages)
    assert not TeamAct.objects.exists() and not match.revisions.exists()


def test_a_team_answers_through_a_live_link(match):
    reports.link_report(team=match.team_a, match=match, games=WON_2_1)
    answer = reports.link_answer(
        team=match.team_b, match=match, dispute="We won the second 30–28", link=_link(match.team_b)
    )
    assert (answer.side, answer.status, answer.comment) == (
        "B",
        "disputed",
        "We won the second 30–28",
    )
    assert TeamAct.objects.filter(action="disputed", team=match.team_b).exists()


def test_the_page_reads_what_each_teams_results_wait_for(match):
    team_a, team_b = match.team_a, match.team_b
    due = report_selectors.results_due(team=team_a)
    assert [(d.fixture.match, d.report) for d in due] == [(match, True)]
    assert due[0].fixture.opponent == team_b

    reports.link_report(team=team_a, match=match, games=WON_2_1)
    match.refresh_from_db()
    assert report_selectors.results_due(team=team_a) == []  # its report is its answer
    (waiting,) = report_selectors.results_due(team=team_b)
    assert (waiting.report, waiting.text, waiting.reported_side) == (
        False,
        "2–1 (30–25, 18–30, 30–12)",
        "A",
    )
    assert waiting.answer_by == match.reported_at + datetime.timedelta(minutes=30)

    reports.link_answer(team=team_b, match=match)
    assert report_selectors.results_due(team=team_b) == []


def test_a_stage_where_referees_keep_the_score_awaits_no_report(db):
    match = _match()
    assert report_selectors.awaiting_report(team=match.team_a)
    stage = match.stage
    stage.scorekeeping = Scorekeeping.REFEREES
    stage.save(update_fields=["scorekeeping"])
    assert report_selectors.awaiting_report(team=match.team_a) == []
    # ...unless the organiser records that match as its result.
    Match.objects.filter(pk=match.pk).update(recorded=Match.Recorded.RESULT)
    assert [f.match for f in report_selectors.awaiting_report(team=match.team_a)] == [match]
