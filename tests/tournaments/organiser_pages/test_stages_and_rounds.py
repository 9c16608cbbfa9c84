"""Stages, rounds and matches from the organiser pages: every format, a round generated,
tables, times and referees assigned, walkovers and forfeits."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.organiser_pages.conftest import make_user
from tournaments.models import Match
from tournaments.results import services as result_services


def test_create_a_stage_and_generate_a_round(client, organiser, registration, four_teams):
    client.force_login(organiser)
    response = client.post(
        reverse("organiser:stage_create", args=[registration.slug]),
        {
            "name": "Liguilla",
            "format": "round_robin_double",
            "teams": [t.pk for t in four_teams],
            # The tie-breaks are the championship's, chosen on its page: not asked again.
            "tiebreak_1": "lots",
        },
    )
    stage = registration.stages.get()
    assert response["Location"] == reverse("organiser:stage", args=[registration.slug, stage.pk])
    assert stage.format == "round_robin" and stage.settings["cycles"] == 2
    chain = list(registration.tiebreaks)
    registration.refresh_from_db()
    assert registration.tiebreaks == chain

    client.post(reverse("organiser:round_generate", args=[registration.slug, stage.pk]))
    assert stage.matches.count() == 2
    html = client.get(reverse("organiser:stage", args=[registration.slug, stage.pk])).content
    for match in stage.matches.all():
        assert match.team_a.name.encode() in html and match.team_b.name.encode() in html


@pytest.mark.parametrize(
    ("choice", "extra", "format", "settings"),
    [
        ("swiss", {"rounds": "3"}, "swiss", {"rounds": 3}),
        (
            "single_elimination",
            {"third_place": "on"},
            "single_elimination",
            {"third_place": True},
        ),
        ("double_elimination_no_reset", {}, "double_elimination", {"reset": False}),
        (
            "groups_knockout",
            {"group_count": "2", "advance": "1"},
            "groups_knockout",
            {"group_count": 2, "advance": 1},
        ),
    ],
)
def test_every_format_can_be_chosen(
    client, organiser, registration, four_teams, choice, extra, format, settings
):
    client.force_login(organiser)
    data = {"format": choice, "teams": [t.pk for t in four_teams], "tiebreak_1": "points", **extra}
    client.post(reverse("organiser:stage_create", args=[registration.slug]), data)
    stage = registration.stages.get()
    assert stage.format == format
    assert settings.items() <= stage.settings.items()
    client.post(reverse("organiser:round_generate", args=[registration.slug, stage.pk]))
    assert stage.matches.exists()


def test_an_impossible_stage_shows_the_reason(client, organiser, registration, four_teams):
    client.force_login(organiser)
    client.post(
        reverse("organiser:stage_create", args=[registration.slug]),
        {
            "format": "groups_knockout",
            "group_count": "3",
            "advance": "2",
            "teams": [t.pk for t in four_teams],
            "tiebreak_1": "points",
        },
    )
    stage = registration.stages.get()
    response = client.post(
        reverse("organiser:round_generate", args=[registration.slug, stage.pk]),
        follow=True,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "There are not enough teams for that many groups" in response.content.decode() or (
        "A group has fewer teams than the number that advance." in response.content.decode()
    )
    assert not stage.matches.exists()


def test_assign_table_time_and_referee(client, setup, organiser):
    client.force_login(organiser)
    url = reverse(
        "organiser:round_assign",
        args=[setup["championship"].slug, setup["stage"].pk, setup["round"].number],
    )
    formset = client.get(url).context["formset"]
    data = {
        "form-TOTAL_FORMS": str(formset.total_form_count()),
        "form-INITIAL_FORMS": str(formset.initial_form_count()),
    }
    for index, form in enumerate(formset):
        data[f"form-{index}-match"] = form.initial["match"]
        data[f"form-{index}-table"] = ""
    target = setup["match"]
    index = next(i for i, f in enumerate(formset) if f.initial["match"] == target.pk)
    data[f"form-{index}-table"] = "Mesa 7"
    data[f"form-{index}-scheduled_at"] = "2026-05-09T17:30"
    data[f"form-{index}-referee"] = setup["referee"].pk
    data[f"form-{index}-entry"] = "cards"  # a final: the tablet enters it card by card
    response = client.post(url, data)
    assert response.status_code == 302
    target.refresh_from_db()
    assert target.table == "Mesa 7"
    assert target.referee == setup["referee"]
    assert target.entry == "cards"
    others = Match.objects.filter(stage=setup["stage"]).exclude(pk=target.pk)
    assert set(others.values_list("entry", flat=True)) <= {"quick"}
    assert timezone.localtime(target.scheduled_at).replace(tzinfo=None) == datetime.datetime(
        2026, 5, 9, 17, 30
    )
    html = client.get(
        reverse("organiser:stage", args=[setup["championship"].slug, setup["stage"].pk])
    ).content.decode()
    assert "Mesa 7" in html and setup["referee"].username in html


def test_a_user_who_is_not_a_referee_cannot_be_assigned(client, setup, organiser):
    """Not in the choices: the form refuses the id, nothing is saved."""
    client.force_login(organiser)
    plain = make_user("plain")
    url = reverse(
        "organiser:round_assign",
        args=[setup["championship"].slug, setup["stage"].pk, setup["round"].number],
    )
    data = {
        "form-TOTAL_FORMS": "1",
        "form-INITIAL_FORMS": "1",
        "form-0-match": setup["match"].pk,
        "form-0-referee": plain.pk,
        "form-0-table": "3",
    }
    response = client.post(url, data)
    assert response.status_code == 200
    setup["match"].refresh_from_db()
    assert setup["match"].referee is None and setup["match"].table == ""


def test_record_a_walkover(client, setup, organiser):
    client.force_login(organiser)
    match: Match = setup["match"]
    url = reverse("organiser:walkover", args=[setup["championship"].slug, match.pk])
    response = client.post(
        url, {"winner": match.team_b_id, "reason": ""}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED
    response = client.post(url, {"winner": match.team_b_id, "reason": "No se presentaron"})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.WALKOVER
    assert match.winner_id == match.team_b_id
    assert match.reason == "No se presentaron"
    stage_page = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "No se presentaron" in stage_page


def test_a_forfeit_keeps_the_hands_already_played(client, setup, organiser, referee):
    from tests.tournaments.conftest import chico_hand

    match: Match = setup["match"]
    result_services.match_start(match=match)
    result_services.hand_record(match=match, record=chico_hand(match, "B"), recorded_by=referee)
    client.force_login(organiser)
    url = reverse("organiser:walkover", args=[setup["championship"].slug, match.pk])
    # Hands were recorded: a plain walkover is refused with the service's reason.
    response = client.post(
        url, {"winner": match.team_a_id, "reason": "Se fueron"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert "record a forfeit instead" in response.content.decode()
    response = client.post(url, {"winner": match.team_a_id, "reason": "Se fueron", "forfeit": "on"})
    assert response.status_code == 302
    match.refresh_from_db()
    assert (match.status, match.outcome) == (Match.Status.WALKOVER, Match.Outcome.FORFEIT)
    assert match.hands.count() == 1
    assert (match.chicos_a, match.chicos_b) == (2, 1)
