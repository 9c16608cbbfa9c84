"""The score kept on a player's phone: the referee's sheet opened from the team's personal
link (``referees.views.team``) where a player of the table keeps the score. Who may open
it (the match's teams, a live link, a stage where players keep the score), the hand entry
through it, and every act in the audit log."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.referees.conftest import Tablet, make_match
from tests.tournaments.conftest import chico_hand
from tests.tournaments.factories import TeamFactory
from tests.tournaments.test_gallo_tables import _table
from tournaments.entries.services import link_issue, link_revoke
from tournaments.models import Hand, Match, MatchConfirmation, Scorekeeping, TeamAct
from tournaments.results import services as result_services

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def keeping(scorekeeping: str = Scorekeeping.PLAYERS) -> Match:
    match = make_match()
    championship = match.stage.championship
    championship.scorekeeping = scorekeeping
    championship.save(update_fields=["scorekeeping"])
    return match


def sheet_url(match: Match, token: str, page: str = "team_sheet") -> str:
    slug = match.stage.championship.slug
    return reverse(f"referees:{page}", args=[slug, token, match.pk])


class Phone(Tablet):
    """The referee's tablet helper, on a team's link instead of a referee's login."""

    def __init__(self, client, match: Match, token: str) -> None:
        super().__init__(client, match)
        self.url = sheet_url(match, token)


@pytest.fixture
def match(db) -> Match:
    return keeping()


@pytest.fixture
def token(match) -> str:
    return link_issue(team=match.team_a, via="organiser")


@pytest.fixture
def phone(client, match, token) -> Phone:
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return Phone(client, match, token)


def test_the_team_page_offers_the_sheet_and_the_sheet_is_the_referees(client, match, token):
    slug = match.stage.championship.slug
    page = client.get(reverse("tournaments:team_link", args=[slug, token]), **EN)
    html = page.content.decode()
    url = sheet_url(match, token)
    assert 'id="keep-score"' in html and url in html
    response = client.get(url, **EN)
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    assert response["X-Robots-Tag"].startswith("noindex")
    assert response["Referrer-Policy"] == "strict-origin"
    # Under the service worker's scope (/referee/), so the page reloads offline.
    assert url.startswith(reverse("referees:matches"))


def seat_keys(match: Match) -> list[str]:
    a = [m.player.record_key for m in match.team_a.memberships.order_by("order", "pk")]
    b = [m.player.record_key for m in match.team_b.memberships.order_by("order", "pk")]
    return [a[0], b[0], a[1], b[1]]


def test_the_seats_from_the_phone_are_an_act_of_the_team(client, match, token):
    seats = seat_keys(match)
    response = client.post(
        sheet_url(match, token, "team_seats"),
        {f"seat_{n}": key for n, key in enumerate(seats)},
        **EN,
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.seats == seats
    act = TeamAct.objects.get(action=TeamAct.Action.SEATED)
    assert (act.team, act.match, act.via) == (match.team_a, match, TeamAct.Via.LINK)


def test_a_hand_entered_on_the_phone_is_recorded_and_every_act_logged(phone, match, token):
    result_services.match_start(match=match)
    sheet = phone.open()
    assert "Your team's page" in sheet.page
    # The page's script speaks to the API with the link's token, and keeps this page.
    assert sheet.context["auth"] == f"TeamLink {token}"
    assert sheet.context["urls"]["page"] == phone.url
    phone.tap("Ana calls truco")
    phone.tap("Beto: quiero")
    phone.tap("Trick to Ana and Alba")
    phone.tap("Trick to Ana and Alba")
    phone.save()
    hand = Hand.objects.get(match=match)
    assert (hand.points_a, hand.points_b) == (2, 0)
    assert hand.recorded_by is None  # no account: the team, in the audit log
    assert "Hand 1 saved: Los Anchos 2 – 0 Las Flores." in phone.page
    act = TeamAct.objects.get(action=TeamAct.Action.HAND_RECORDED)
    assert (act.team, act.match, act.via) == (match.team_a, match, TeamAct.Via.LINK)
    assert act.detail == "Hand 1: Los Anchos 2, Las Flores 0"
    # Recorded as a referee's hand is: the match and its public page follow.
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS
    public = phone.client.get(
        reverse("tournaments:match", args=[match.stage.championship.slug, match.pk])
    )
    assert public.status_code == 200
    # The last hand deleted from the phone, logged too.
    response = phone.client.post(sheet_url(match, token, "team_undo"), {"number": "1"})
    assert response.status_code == 302
    assert not Hand.objects.filter(match=match).exists()
    deleted = TeamAct.objects.get(action=TeamAct.Action.HAND_DELETED)
    assert deleted.detail == "Hand 1: Los Anchos 2, Las Flores 0"


def test_a_revoked_link_opens_nothing_and_saves_nothing(phone, match, token):
    result_services.match_start(match=match)
    phone.open()
    phone.tap("Ana calls truco")
    phone.tap("Beto: quiero")
    phone.tap("Trick to Ana and Alba")
    phone.tap("Trick to Ana and Alba")
    link_revoke(team=match.team_a)
    response = phone.op("save", status=403)
    assert "This link was revoked by the organiser" in response.content.decode()
    assert not Hand.objects.exists()
    assert phone.client.get(phone.url).status_code == 403


def test_another_teams_match_is_not_found_with_a_sentence(client, match):
    other = TeamFactory(championship=match.stage.championship, name="Los Otros")
    token = link_issue(team=other, via="organiser")
    response = client.get(sheet_url(match, token), **EN)
    assert response.status_code == 404
    assert "This match is not one of Los Otros&#x27;s." in response.content.decode()


def test_another_championships_link_is_refused(client, match):
    elsewhere = make_match()
    token = link_issue(team=elsewhere.team_a, via="organiser")
    response = client.get(sheet_url(match, token), **EN)
    assert response.status_code == 403
    assert "This link belongs to another championship." in response.content.decode()


@pytest.mark.parametrize(
    ("scorekeeping", "sentence"),
    [
        (Scorekeeping.REFEREES, "In this championship the referees keep the score"),
        (Scorekeeping.RESULTS, "In this championship only the result is reported"),
    ],
)
def test_where_players_do_not_keep_the_score_the_phone_is_refused(
    db, client, scorekeeping, sentence
):
    match = keeping(scorekeeping)
    token = link_issue(team=match.team_b, via="organiser")
    slug = match.stage.championship.slug
    team_page = client.get(reverse("tournaments:team_link", args=[slug, token]), **EN)
    assert 'id="keep-score"' not in team_page.content.decode()
    for page in ("team_sheet", "team_seats", "team_undo"):
        response = client.get(sheet_url(match, token, page), **EN)
        assert response.status_code == 403
        assert sentence in response.content.decode()
    assert not TeamAct.objects.filter(via=TeamAct.Via.LINK).exists()


def test_a_stage_of_its_own_decides_over_the_championship(db, client):
    match = keeping(Scorekeeping.REFEREES)
    match.stage.scorekeeping = Scorekeeping.PLAYERS
    match.stage.save(update_fields=["scorekeeping"])
    token = link_issue(team=match.team_b, via="organiser")
    assert client.get(sheet_url(match, token), **EN).status_code == 200


def test_the_last_hand_saved_on_the_phone_confirms_for_the_team(client, match):
    """The team that kept the score confirmed by saving the hand that decides the match;
    the other team answers from its own link."""
    token = link_issue(team=match.team_b, via="organiser")
    result_services.match_start(match=match)
    while True:
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            break
        response = client.post(
            reverse("api:hands", args=[match.pk]),
            {"number": match.hands.count() + 1, **chico_hand(match, "B")},
            content_type="application/json",
            HTTP_AUTHORIZATION=f"TeamLink {token}",
        )
        assert response.status_code == 201, response.content
    answers = {a.side: a.status for a in MatchConfirmation.objects.filter(match=match)}
    assert answers == {"B": MatchConfirmation.Status.CONFIRMED}
    assert TeamAct.objects.filter(
        team=match.team_b, action=TeamAct.Action.CONFIRMED, via=TeamAct.Via.LINK
    ).exists()
    sheet = client.get(sheet_url(match, token), **EN).content.decode()
    assert 'id="team-confirmed"' in sheet
    other = link_issue(team=match.team_a, via="organiser")
    slug = match.stage.championship.slug
    page = client.get(reverse("tournaments:team_link", args=[slug, other]), **EN)
    assert 'id="awaiting"' in page.content.decode()


def test_one_phone_at_a_time_the_other_teams_phone_takes_it_over(match):
    """Ana's phone (team A) holds the hand in progress; Beto's (team B) sees it read only
    and takes it over, an act of team B in the audit log; Ana's phone then saves nothing."""
    result_services.match_start(match=match)
    token_a = link_issue(team=match.team_a, via="organiser")
    token_b = link_issue(team=match.team_b, via="organiser")
    ana = Phone(Client(HTTP_ACCEPT_LANGUAGE="en"), match, token_a).open()
    ana.tap("Ana calls truco")
    assert ana.sync == "saved"
    beto = Phone(Client(HTTP_ACCEPT_LANGUAGE="en"), match, token_b).open()
    assert 'data-held="other"' in beto.raw
    assert "Beto: quiero" not in beto.buttons()
    assert "Take over on this device" in beto.page
    beto.op("takeover", status=302)
    beto.open()
    assert "Beto: quiero" in beto.buttons()
    act = TeamAct.objects.get(action=TeamAct.Action.TAKEN_OVER)
    assert (act.team, act.via, act.detail) == (match.team_b, TeamAct.Via.LINK, "Hand 1 in progress")
    # Ana's phone, a step behind: refused, told who holds the match now.
    ana.tap("Beto: quiero", status=409)
    assert "Another device" in ana.page
    assert not Hand.objects.exists()


def test_at_a_table_of_three_the_third_player_keeps_the_score_too(db, client):
    match = _table()
    championship = match.stage.championship
    championship.scorekeeping = Scorekeeping.PLAYERS
    championship.save(update_fields=["scorekeeping"])
    result_services.match_start(match=match)
    token = link_issue(team=match.team_c, via="organiser")
    response = client.get(sheet_url(match, token), **EN)
    assert response.status_code == 200
    assert match.team_c.name in response.content.decode()
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    phone = Phone(client, match, token).open()
    while "Save hand" not in phone.page:
        trick = next(label for label in phone.buttons() if label.startswith("Trick to"))
        phone.tap(trick)
    phone.save()
    assert Hand.objects.filter(match=match).count() == 1
    act = TeamAct.objects.get(action=TeamAct.Action.HAND_RECORDED)
    assert act.team == match.team_c
