"""The organiser's side of the personal links: the self check-in window on a stage's
check-in page, issuing a team's link (shown once) and revoking it on the team's page, and
the audit log's section of the teams' acts (page and CSV), where every act through a
link appears."""

from __future__ import annotations

import csv
import datetime
import io
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import formats, timezone, translation

from tests.tournaments.conftest import play
from tests.tournaments.factories import ChampionshipFactory, RefereeFactory, TeamFactory
from tournaments.entries import acts
from tournaments.entries.services import link_issue, link_team
from tournaments.models import Championship, TeamAct, TeamLink
from tournaments.stages import services as stage_services

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
User = get_user_model()


@pytest.fixture
def organiser(db):
    return User.objects.create_user(username="marta", password="x")


@pytest.fixture
def championship(organiser):
    championship = ChampionshipFactory(
        status=Championship.Status.RUNNING, time_zone="America/Argentina/Buenos_Aires"
    )
    championship.organisers.add(organiser)
    return championship


@pytest.fixture
def teams(championship):
    return [TeamFactory(championship=championship, seed=n) for n in range(1, 5)]


@pytest.fixture
def organiser_client(client, organiser):
    client.force_login(organiser)
    return client


def shown_time(moment, championship) -> str:
    """A time as the English pages show it, in the championship's time zone."""
    with translation.override("en"):
        return formats.date_format(
            timezone.localtime(moment, championship.zone), "SHORT_DATETIME_FORMAT"
        )


def url(name, *args):
    return reverse(f"organiser:{name}", args=args)


def test_open_the_window_in_the_championships_time_zone_then_close_it(
    organiser_client, championship, teams
):
    stage = stage_services.stage_create(championship=championship, format="swiss")
    check_in = url("check_in", championship.slug, stage.pk)
    page = organiser_client.get(check_in, **EN).content.decode()
    assert "Teams cannot check in through their links" in page
    until = timezone.localtime(
        timezone.now() + datetime.timedelta(hours=2), championship.zone
    ).replace(second=0, microsecond=0)
    response = organiser_client.post(
        url("self_check_in", championship.slug),
        {"action": "open", "until": until.strftime("%Y-%m-%dT%H:%M"), "stage": stage.pk},
        follow=True,
        **EN,
    )
    assert response.redirect_chain[-1][0] == check_in
    html = response.content.decode()
    assert "Teams may now check in themselves" in html
    assert f"Until {shown_time(until, championship)}, teams may check in themselves" in html
    championship.refresh_from_db()
    # Typed in Buenos Aires time, stored as that moment.
    assert championship.self_check_in_until == until
    organiser_client.post(
        url("self_check_in", championship.slug), {"action": "close", "stage": stage.pk}
    )
    championship.refresh_from_db()
    assert championship.self_check_in_until is None


def test_a_past_time_or_no_time_is_refused_with_a_sentence(organiser_client, championship, teams):
    stage = stage_services.stage_create(championship=championship, format="swiss")
    past = timezone.localtime(timezone.now() - datetime.timedelta(hours=1), championship.zone)
    for typed, sentence in (
        (past.strftime("%Y-%m-%dT%H:%M"), "has already passed"),
        ("", "Give the day and time"),
        ("tomorrow", "Give the day and time"),
    ):
        response = organiser_client.post(
            url("self_check_in", championship.slug),
            {"action": "open", "until": typed, "stage": stage.pk},
            follow=True,
            **EN,
        )
        assert sentence in response.content.decode()
    championship.refresh_from_db()
    assert championship.self_check_in_until is None


def test_only_the_organiser_opens_the_window(client, championship, teams):
    stage = stage_services.stage_create(championship=championship, format="swiss")
    door = RefereeFactory(championships=[championship])
    client.force_login(door)
    # The referee at the door sees the check-in page, without the window's control.
    page = client.get(url("check_in", championship.slug, stage.pk), **EN).content.decode()
    assert "self-check-in" not in page
    future = timezone.now() + datetime.timedelta(hours=1)
    response = client.post(
        url("self_check_in", championship.slug),
        {"action": "open", "until": future.strftime("%Y-%m-%dT%H:%M")},
    )
    assert response.status_code == 404
    championship.refresh_from_db()
    assert championship.self_check_in_until is None


def shown_link(html: str) -> str:
    found = re.search(r'id="team-link-text" type="text" value="([^"]+)"', html)
    return found.group(1) if found else ""


def test_issue_a_link_shown_once_and_the_old_one_stops_working(
    organiser_client, client, championship, teams
):
    team = teams[0]
    edit = url("team_edit", championship.slug, team.pk)
    assert "No live link." in organiser_client.get(edit, **EN).content.decode()
    response = organiser_client.post(
        url("team_link_issue", championship.slug, team.pk), follow=True, **EN
    )
    first = shown_link(response.content.decode())
    assert first.startswith("http://testserver/c/") and "<svg" in response.content.decode()
    # Shown once: the same page again no longer has it.
    again = organiser_client.get(url("team_link", championship.slug, team.pk), **EN)
    assert shown_link(again.content.decode()) == "" and "has a live link" in again.content.decode()
    assert "A live link exists" in organiser_client.get(edit, **EN).content.decode()
    assert client.get(first).status_code == 200

    second = shown_link(
        organiser_client.post(
            url("team_link_issue", championship.slug, team.pk), follow=True
        ).content.decode()
    )
    assert second != first
    assert client.get(first).status_code == 403 and client.get(second).status_code == 200
    assert TeamLink.objects.filter(team=team, revoked_at__isnull=True).count() == 1


def test_revoke_the_link(organiser_client, client, championship, teams):
    team = teams[0]
    token = link_issue(team=team, via="organiser")
    page = reverse("tournaments:team_link", args=[championship.slug, token])
    edit = url("team_edit", championship.slug, team.pk)
    assert 'value="Revoke the link"' not in organiser_client.get(edit, **EN).content.decode()
    assert (
        organiser_client.get(url("team_link_revoke", championship.slug, team.pk)).status_code == 405
    )
    response = organiser_client.post(
        url("team_link_revoke", championship.slug, team.pk), follow=True, **EN
    )
    assert "no longer works" in response.content.decode()
    assert "No live link." in response.content.decode()
    assert client.get(page).status_code == 403
    assert list(TeamAct.objects.values_list("action", "via", "by")) == [
        ("link_issued", "organiser", None),
        ("link_revoked", "organiser", User.objects.get(username="marta").pk),
    ]


def test_a_stranger_cannot_issue_or_revoke(client, championship, teams):
    client.force_login(User.objects.create_user(username="stranger"))
    for name in ("team_link_issue", "team_link_revoke", "team_link"):
        assert client.post(url(name, championship.slug, teams[0].pk)).status_code == 404
    assert not TeamLink.objects.exists()


def test_every_act_through_a_link_is_in_the_audit_page_and_its_csv(
    organiser_client, client, championship, teams
):
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    match = stage_services.round_generate(stage=stage)[0]
    play(match, match.team_a)
    team = match.team_b
    token = link_issue(team=team, via="organiser")
    link = reverse("tournaments:team_link", args=[championship.slug, token])
    client.post(link, {"action": "dispute", "match": match.pk, "comment": "Hand 2 was ours"})
    other = match.team_a
    other_link = reverse(
        "tournaments:team_link", args=[championship.slug, link_issue(team=other, via="organiser")]
    )
    client.post(other_link, {"action": "confirm", "match": match.pk})
    swiss = stage_services.stage_create(championship=championship, format="swiss", name="Swiss B")
    acts.championship_self_check_in(
        championship=championship, until=timezone.now() + datetime.timedelta(hours=1)
    )
    client.post(link, {"action": "check_in"})
    assert swiss.check_ins.filter(team=team).exists()

    via_link = TeamAct.objects.filter(via="link")
    assert sorted(via_link.values_list("action", flat=True)) == [
        "checked_in",
        "confirmed",
        "disputed",
    ]
    page = organiser_client.get(url("audit", championship.slug), **EN).content.decode()
    section = page[page.index('id="team-acts"') :]
    assert "Teams: entries, links and check-in" in page
    assert section.count("team-act--via-link") == 3
    assert "Result disputed" in section and "Hand 2 was ours" in section
    assert "Checked in" in section and "Personal link issued" in section
    # The time is the championship's (Buenos Aires, UTC-3).
    act = via_link.get(action="checked_in")
    assert shown_time(act.at, championship) in section

    only_link = organiser_client.get(
        url("audit", championship.slug), {"team-via": "link", "team-action": "disputed"}, **EN
    ).content.decode()
    rows = only_link[only_link.index('id="team-acts"') :]
    assert rows.count('class="team-act ') == 1

    response = organiser_client.get(url("audit_teams_csv", championship.slug))
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    table = list(csv.DictReader(io.StringIO(text)))
    assert list(table[0]) == [
        "at",
        "action",
        "team",
        "via",
        "by",
        "match",
        "stage",
        "round",
        "detail",
    ]
    linked = [row for row in table if row["via"] == "link"]
    assert {row["action"] for row in linked} == {"checked_in", "confirmed", "disputed"}
    disputed = next(row for row in linked if row["action"] == "disputed")
    assert (disputed["team"], disputed["match"], disputed["detail"], disputed["by"]) == (
        team.name,
        str(match.pk),
        "Hand 2 was ours",
        "",
    )
    assert disputed["at"].endswith("-03:00")
    filtered = organiser_client.get(url("audit_teams_csv", championship.slug), {"team-via": "link"})
    rows = list(
        csv.DictReader(io.StringIO(b"".join(filtered.streaming_content).decode("utf-8-sig")))
    )
    assert len(rows) == 3


def test_a_team_named_like_a_formula_is_quoted_in_the_teams_csv(organiser_client, championship):
    team = TeamFactory(championship=championship, name='=HYPERLINK("x")')
    link_issue(team=team, via="organiser")
    response = organiser_client.get(url("audit_teams_csv", championship.slug))
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    assert "'=HYPERLINK" in text


def test_link_team_finds_the_team_the_organiser_issued_for(championship, teams):
    token = link_issue(team=teams[2], via="organiser")
    assert link_team(slug=championship.slug, token=token) == teams[2]
