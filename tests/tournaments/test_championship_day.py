"""Running a championship day from the site alone: referees invited and assigned, teams
fixed and substituted, rounds removed or generated after a confirmation, check-in (by list
and by QR link) and what absent teams get; all through the test client and the services."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core import mail, signing
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.tournaments.conftest import chico_hand
from tests.tournaments.factories import ChampionshipFactory, RefereeFactory, TeamFactory
from tournaments.championships import selectors as championship_selectors
from tournaments.championships import services as championship_services
from tournaments.models import (
    Championship,
    ChampionshipReferee,
    CheckIn,
    Match,
    Round,
    Substitution,
)
from tournaments.results import records
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services
from tournaments.standings.selectors import stage_standings
from tournaments.web.organiser.day import CHECK_IN_SALT, check_in_token

PASSWORD = "truco-y-retruco-2026"
User = get_user_model()


@pytest.fixture
def organiser(db):
    return User.objects.create_user(
        username="marta", password=PASSWORD, first_name="Marta", last_name="Soler"
    )


@pytest.fixture
def championship(organiser):
    championship = ChampionshipFactory(status=Championship.Status.RUNNING)
    championship.organisers.add(organiser)
    return championship


@pytest.fixture
def teams(championship):
    return [TeamFactory(championship=championship, seed=n) for n in range(1, 5)]


@pytest.fixture
def organiser_client(client, organiser):
    client.force_login(organiser)
    return client


def url(name: str, *args) -> str:
    return reverse(f"organiser:{name}", args=args)


def invitation_link(response) -> str | None:
    """The invitation link the referees page shows (in its copy field), if any."""
    found = re.search(
        r'id="invitation-link-text" type="text" value="([^"]+)"', response.content.decode()
    )
    return found.group(1) if found else None


# -- referees ---------------------------------------------------------------------------------


def test_an_invited_referee_sets_his_name_and_password_and_sees_his_matches(
    organiser_client, client, championship, teams
):
    response = organiser_client.post(
        url("referees", championship.slug),
        {"action": "invite", "invite-name": "Jordi", "invite-email": "jordi@example.org"},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    link = invitation_link(response)
    # The email went through Django's backend with the same link; the token is not stored.
    assert mail.outbox[0].to == ["jordi@example.org"] and link in mail.outbox[0].body
    token = link.rstrip("/").rsplit("/", 1)[1]
    assert not championship.referee_invitations.filter(token_hash=token).exists()

    client.logout()
    page = client.get(link, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200 and championship.name in page.content.decode()
    weak = client.post(
        link,
        {
            "first_name": "Jordi",
            "last_name": "Puig",
            "username": "jordi",
            "password1": "1234",
            "password2": "1234",
        },
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert weak.status_code == 200 and "too short" in weak.content.decode()
    assert not User.objects.filter(username="jordi").exists()

    done = client.post(
        link,
        {
            "first_name": "Jordi",
            "last_name": "Puig",
            "username": "jordi",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert done["Location"] == reverse("referees:matches")
    jordi = User.objects.get(username="jordi")
    assert (jordi.get_full_name(), jordi.email) == ("Jordi Puig", "jordi@example.org")
    assert ChampionshipReferee.objects.filter(championship=championship, user=jordi).exists()
    # Logged in: his (empty) list of matches opens.
    assert client.get(reverse("referees:matches")).status_code == 200

    # The link works once.
    client.logout()
    again = client.get(link, HTTP_ACCEPT_LANGUAGE="en")
    assert again.status_code == 404 and "already been used" in again.content.decode()


def test_the_link_is_shown_once_with_a_copy_button_and_a_lost_one_is_replaced(
    organiser_client, championship
):
    """Only the token's hash is stored, so the page shows the link right after it is made
    (with a copy button, a static script) and never again; "Make a new link" replaces a
    lost one, and the old link then stops working."""
    referees_url = url("referees", championship.slug)
    made = organiser_client.post(
        referees_url,
        {"action": "invite", "invite-name": "Jordi Puig Serra"},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    html = made.content.decode()
    first = invitation_link(made)
    assert first is not None and "/organiser/invitation/" in first
    assert first not in " ".join(str(m) for m in made.context["messages"])  # not plain text
    assert 'data-copy="invitation-link-text"' in html and "Copy link" in html
    assert "/static/js/copy.js" in html and "<script>" not in html
    assert "Invitation link for Jordi Puig Serra" in html
    assert "Tanteo keeps no copy of it" in html

    reloaded = organiser_client.get(referees_url, HTTP_ACCEPT_LANGUAGE="en")
    assert invitation_link(reloaded) is None
    assert "Make a new link" in reloaded.content.decode()
    assert "Lost one? Make a new link" in reloaded.content.decode()

    (invitation,) = championship_selectors.referee_invitations_pending(championship=championship)
    renewed = organiser_client.post(
        url("invitation_renew", championship.slug, invitation.pk),
        follow=True,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    second = invitation_link(renewed)
    assert second is not None and second != first
    assert "The old link no longer works" in renewed.content.decode()
    (pending,) = championship_selectors.referee_invitations_pending(championship=championship)
    assert (pending.name, pending.pk != invitation.pk) == ("Jordi Puig Serra", True)
    organiser_client.logout()
    old = organiser_client.get(first, HTTP_ACCEPT_LANGUAGE="en")
    assert old.status_code == 404 and "withdrawn" in old.content.decode()
    # The invitee finds the name the organiser typed: first word, then the rest.
    page = organiser_client.get(second, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    assert page.context["form"].initial == {"first_name": "Jordi", "last_name": "Puig Serra"}
    assert 'value="Puig Serra"' in page.content.decode()


def test_a_used_or_withdrawn_invitation_gets_no_new_link(organiser, championship):
    invitation, _token = championship_services.referee_invite(
        championship=championship, invited_by=organiser, name="Jordi"
    )
    championship_services.referee_invitation_revoke(invitation=invitation)
    invitation.refresh_from_db()
    with pytest.raises(ValidationError) as refused:
        championship_services.referee_invitation_renew(invitation=invitation, invited_by=organiser)
    assert refused.value.code == "invitation_revoked"


def test_an_expired_or_withdrawn_invitation_is_refused(organiser, championship, client):
    invitation, token = championship_services.referee_invite(
        championship=championship, invited_by=organiser, days=0
    )
    page = client.get(url("invitation", token), HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 404 and "expired" in page.content.decode()
    invitation, token = championship_services.referee_invite(
        championship=championship, invited_by=organiser
    )
    championship_services.referee_invitation_revoke(invitation=invitation)
    page = client.get(url("invitation", token), HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 404 and "withdrawn" in page.content.decode()
    assert client.get(url("invitation", "nonsense")).status_code == 404


def test_a_taken_user_name_is_refused_on_the_form(organiser, championship, client):
    _invitation, token = championship_services.referee_invite(
        championship=championship, invited_by=organiser
    )
    response = client.post(
        url("invitation", token),
        {
            "first_name": "Otra",
            "last_name": "Marta",
            "username": "MARTA",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200 and "is taken" in response.content.decode()
    assert User.objects.filter(username__iexact="marta").count() == 1


def test_add_an_existing_user_the_list_shows_full_names_not_the_organiser(
    organiser_client, organiser, championship, teams
):
    User.objects.create_superuser(username="root", password=PASSWORD)
    ana = User.objects.create_user(
        username="ana", email="ana@example.org", first_name="Ana", last_name="Gil"
    )
    response = organiser_client.post(
        url("referees", championship.slug),
        {"action": "add", "add-user": "ANA@example.org"},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "Ana Gil (ana) referees in this championship." in response.content.decode()
    missing = organiser_client.post(
        url("referees", championship.slug),
        {"action": "add", "add-user": "nobody"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "No active account" in missing.content.decode()

    stage = stage_services.stage_create(championship=championship, format="round_robin")
    round_ = stage_services.round_generate(stage=stage)[0].round
    page = organiser_client.get(url("round_assign", championship.slug, stage.pk, round_.number))
    html = page.content.decode()
    assert "Ana Gil (ana)" in html
    # The organiser (and a superuser) act on every match, but are not offered as referees.
    choices = championship_selectors.referee_choices(championship)
    assert list(choices) == [ana]
    assert ">root<" not in html and ">marta<" not in html


def test_the_round_offers_and_accepts_only_the_championships_referees(
    organiser_client, championship, teams
):
    """Neither a member of the site-wide ``referees`` group nor a referee of another
    championship is offered; sent anyway, the form refuses him and nothing is assigned."""
    ours = RefereeFactory(username="nuestra", championships=[championship])
    grouped = RefereeFactory(username="del.grupo")
    grouped.groups.add(Group.objects.get_or_create(name="referees")[0])
    theirs = RefereeFactory(username="ajena", championships=[ChampionshipFactory()])
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    matches = stage_services.round_generate(stage=stage)
    page_url = url("round_assign", championship.slug, stage.pk, 1)
    html = organiser_client.get(page_url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert ">nuestra<" in html
    assert "del.grupo" not in html and "ajena" not in html
    assert "Only this championship's referees are listed" in html

    for outsider in (grouped, theirs):
        whole = organiser_client.post(
            page_url, {"action": "round", "round-referee": outsider.pk}, HTTP_ACCEPT_LANGUAGE="en"
        )
        assert whole.status_code == 200
        assert "Select a valid choice" in whole.content.decode()
        one = organiser_client.post(
            page_url,
            {
                "form-TOTAL_FORMS": "1",
                "form-INITIAL_FORMS": "1",
                "form-0-match": matches[0].pk,
                "form-0-referee": outsider.pk,
            },
            HTTP_ACCEPT_LANGUAGE="en",
        )
        assert one.status_code == 200
        assert "Select a valid choice" in one.content.decode()
        assert not Match.objects.filter(referee__isnull=False).exists()
        # The services refuse him too, whoever calls them (the API, a command).
        with pytest.raises(ValidationError) as refused:
            result_services.match_assign(match=matches[0], referee=outsider)
        assert refused.value.code == "not_championship_referee"
        with pytest.raises(ValidationError) as refused:
            result_services.round_assign_referee(round=matches[0].round, referee=outsider)
        assert refused.value.code == "not_championship_referee"
    assert result_services.round_assign_referee(round=matches[0].round, referee=ours) == 2


def test_assign_a_whole_round_then_the_referee_sees_only_his_matches(
    organiser_client, client, championship, teams
):
    jordi = User.objects.create_user(username="jordi", password=PASSWORD, first_name="Jordi")
    championship_services.referee_add(championship=championship, user=jordi, added_by=None)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    first = stage_services.round_generate(stage=stage)
    second = stage_services.round_generate(stage=stage)
    response = organiser_client.post(
        url("round_assign", championship.slug, stage.pk, 1),
        {"action": "round", "round-referee": jordi.pk},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "referees the 2 matches of this round" in response.content.decode()
    assert {m.referee_id for m in Match.objects.filter(round=first[0].round)} == {jordi.pk}
    assert not Match.objects.filter(round=second[0].round, referee__isnull=False).exists()

    # Per match, from the same page's formset, a match of round 2.
    match = second[0]
    result_services.match_assign(match=match, referee=jordi)

    client.force_login(jordi)
    listed = client.get(reverse("referees:matches"))
    rows = [row for section in listed.context["sections"] for row in section["rows"]]
    assert {row["match"].pk for row in rows} == {
        *(m.pk for m in first),
        match.pk,
    }
    assert client.get(reverse("referees:sheet", args=[match.pk])).status_code == 200
    other = second[1]
    assert client.get(reverse("referees:sheet", args=[other.pk])).status_code == 404
    # A referee of the championship (on its list) records hands of his match.
    result_services.hand_record(match=match, record=chico_hand(match, "A"), recorded_by=jordi)
    # Taken off the list: his matches still to play lose him.
    assert championship_services.referee_remove(championship=championship, user=jordi) == 3
    assert not championship_selectors.is_referee(jordi, championship)


# -- teams ----------------------------------------------------------------------------------------


def test_edit_a_team_name_club_seed_and_player_names(organiser_client, championship, teams):
    team = teams[0]
    player = team.memberships.first().player
    response = organiser_client.post(
        url("team_edit", championship.slug, team.pk),
        {
            "name": "Los Anchos",
            "seed": "9",
            "club": "Gràcia",
            "player_1": "Begoña Martínez",
            "player_2": team.memberships.last().player.name,
        },
        follow=True,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "Team Los Anchos saved." in response.content.decode()
    team.refresh_from_db()
    player.refresh_from_db()
    assert (team.name, team.seed, team.club) == ("Los Anchos", 9, "Gràcia")
    assert player.name == "Begoña Martínez"  # the same player: his record key stays
    taken = organiser_client.post(
        url("team_edit", championship.slug, team.pk),
        {"name": teams[1].name, "player_1": "A", "player_2": "B"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "already has a team called" in taken.content.decode()


def test_a_substitute_plays_from_the_round_given_and_history_keeps_who_played(
    organiser_client, championship, teams
):
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    first = stage_services.round_generate(stage=stage)
    team = teams[0]
    match_1 = next(m for m in first if team.pk in (m.team_a_id, m.team_b_id))
    result_services.hand_record(match=match_1, record=chico_hand(match_1, "A"), recorded_by=None)
    old = team.memberships.first().player
    response = organiser_client.post(
        url("team_substitute", championship.slug, team.pk),
        {"player_out": old.pk, "name": "Nuevo Suplente", "from_round": f"{stage.pk}:2"},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "Nuevo Suplente replaces" in response.content.decode()
    substitution = Substitution.objects.get(team=team)
    new = substitution.player_in
    match_1.refresh_from_db()
    side = "A" if match_1.team_a_id == team.pk else "B"
    assert old.record_key in records.lineup(match_1)[side]
    # Round 1 can still be scored and corrected: its record keeps the old player.
    result_services.hand_record(match=match_1, record=chico_hand(match_1, "B"), recorded_by=None)

    second = stage_services.round_generate(stage=stage)
    match_2 = next(m for m in second if team.pk in (m.team_a_id, m.team_b_id))
    result_services.match_start(match=match_2)
    match_2.refresh_from_db()
    side = "A" if match_2.team_a_id == team.pk else "B"
    assert new.record_key in match_2.lineup[side] and old.record_key not in match_2.seats

    page = organiser_client.get(url("team_edit", championship.slug, team.pk))
    history = page.context["history"]
    assert old.name in history[0]["players"] and new.name in history[1]["players"]


def test_a_substitution_into_a_match_with_hands_is_refused(championship, teams):
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    first = stage_services.round_generate(stage=stage)
    team = teams[0]
    match = next(m for m in first if team.pk in (m.team_a_id, m.team_b_id))
    result_services.hand_record(match=match, record=chico_hand(match, "A"), recorded_by=None)
    with pytest.raises(Exception) as error:
        championship_services.team_substitute(
            team=team,
            player_out=team.memberships.first().player,
            name="Tarde",
            stage=stage,
            from_round=1,
        )
    assert error.value.code == "substitute_after_play"
    assert not Substitution.objects.exists()


# -- rounds ---------------------------------------------------------------------------------------


def test_generating_while_the_round_is_in_play_asks_first(organiser_client, championship, teams):
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    generate = url("round_generate", championship.slug, stage.pk)
    first = organiser_client.post(generate, {"number": "1"}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "2 matches generated." in first.content.decode()
    asked = organiser_client.post(generate, {"number": "2"}, HTTP_ACCEPT_LANGUAGE="en")
    assert asked.status_code == 200
    assert "2 matches of round 1 are not finished yet." in asked.content.decode()
    assert stage.rounds.count() == 1
    organiser_client.post(generate, {"number": "2", "confirm": "1"})
    organiser_client.post(generate, {"number": "2", "confirm": "1"})  # a double submit
    assert stage.rounds.count() == 2


def test_one_match_generated_is_said_in_the_singular(organiser_client, championship):
    TeamFactory(championship=championship)
    TeamFactory(championship=championship)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    response = organiser_client.post(
        url("round_generate", championship.slug, stage.pk),
        {"number": "1"},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="es",
    )
    assert "1 partido generado." in response.content.decode()


def test_remove_the_last_round_only_before_any_hand(organiser_client, championship, teams):
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    stage_services.round_generate(stage=stage)
    second = stage_services.round_generate(stage=stage)
    refused = organiser_client.post(
        url("round_remove", championship.slug, stage.pk, 1), follow=True, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert "Only the last round can be removed" in refused.content.decode()
    match = second[0]
    result_services.hand_record(match=match, record=chico_hand(match, "A"), recorded_by=None)
    played = organiser_client.post(
        url("round_remove", championship.slug, stage.pk, 2), follow=True, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert "cannot be removed" in played.content.decode() and stage.rounds.count() == 2
    result_services.hand_delete_last(match=match)
    assert (
        organiser_client.get(url("round_remove", championship.slug, stage.pk, 2)).status_code == 200
    )
    organiser_client.post(url("round_remove", championship.slug, stage.pk, 2))
    assert list(stage.rounds.values_list("number", flat=True)) == [1]
    # Generated again: the same schedule goes on.
    assert stage_services.round_generate(stage=stage)[0].round.number == 2


def test_a_bracket_round_cannot_be_removed(championship, teams):
    stage = stage_services.stage_create(championship=championship, format="single_elimination")
    stage_services.round_generate(stage=stage)
    number = stage.rounds.get().number
    with pytest.raises(Exception) as error:
        stage_services.round_remove(stage=stage, number=number)
    assert error.value.code == "bracket_round"


# -- check-in --------------------------------------------------------------------------------------


def test_round_robin_an_absent_teams_opponent_wins_by_walkover(
    organiser_client, championship, teams
):
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    check_in = url("check_in", championship.slug, stage.pk)
    for team in teams[1:]:
        organiser_client.post(check_in, {"action": "present", "team": team.pk})
    page = organiser_client.get(check_in, HTTP_ACCEPT_LANGUAGE="en")
    assert "3 of 4 teams checked in" in page.content.decode()
    response = organiser_client.post(
        url("round_generate", championship.slug, stage.pk),
        {"number": "1"},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "1 match decided by walkover" in response.content.decode()
    absent = teams[0]
    (walkover,) = Match.objects.filter(status=Match.Status.WALKOVER)
    assert absent.pk in (walkover.team_a_id, walkover.team_b_id)
    assert walkover.winner_id != absent.pk and walkover.games.count() == 2
    assert Round.objects.get(stage=stage).absent == [absent.pk]
    lines = {line.team.pk: line for line in stage_standings(stage=stage, use_snapshot=False)}
    assert lines[walkover.winner_id].points == 1 and lines[absent.pk].losses == 1
    # The round can still be removed: its walkover came from the check-in.
    stage_services.round_remove(stage=stage, number=1)
    assert not Match.objects.exists()


@pytest.mark.parametrize("policy", ["walkover", "sit_out"])
def test_swiss_pairs_only_present_teams(championship, teams, organiser, policy):
    championship.absent_teams = policy
    championship.save()
    extra = [TeamFactory(championship=championship, seed=n) for n in (5, 6)]
    stage = stage_services.stage_create(championship=championship, format="swiss")
    absent = teams[0]
    for team in [*teams, *extra]:
        stage_services.check_in_set(stage=stage, team=team, present=team != absent, by=organiser)
    created = stage_services.round_generate(stage=stage)
    paired = [m for m in created if m.team_b_id is not None]
    assert all(absent.pk not in (m.team_a_id, m.team_b_id) for m in paired)
    byes = [m for m in created if m.outcome == Match.Outcome.BYE]
    assert len(paired) == 2 and len(byes) == 1  # five present: one bye
    losses = [m for m in created if m.team_a_id == absent.pk]
    line = next(
        line for line in stage_standings(stage=stage, use_snapshot=False) if line.team == absent
    )
    if policy == "walkover":
        (loss,) = losses
        assert (loss.status, loss.winner_id, loss.team_b_id) == (Match.Status.WALKOVER, None, None)
        assert (line.points, line.losses, line.byes) == (0, 1, 0)
    else:
        assert losses == [] and (line.points, line.played) == (0, 0)


def test_the_printed_round_names_an_absent_team_absent_and_a_bye_a_bye(
    organiser_client, championship, teams, organiser
):
    extra = [TeamFactory(championship=championship, seed=n) for n in (5, 6)]
    stage = stage_services.stage_create(championship=championship, format="swiss")
    absent = teams[0]
    for team in [*teams, *extra]:
        stage_services.check_in_set(stage=stage, team=team, present=team != absent, by=organiser)
    created = stage_services.round_generate(stage=stage)
    (bye,) = [m for m in created if m.outcome == Match.Outcome.BYE]
    url = reverse("organiser:print_round", args=[championship.slug, stage.pk, 1])
    page = organiser_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"Bye: {bye.team_a.name}</p>" in page
    assert f"Absent, loss by walkover: {absent.name}</p>" in page


def test_a_team_checks_in_by_its_qr_link(client, championship, teams, organiser):
    stage = stage_services.stage_create(championship=championship, format="swiss")
    link = url("check_in_scan", check_in_token(teams[0]))
    door = RefereeFactory(username="puerta")
    stranger = User.objects.create_user(username="stranger")

    client.force_login(stranger)
    assert client.get(link).status_code == 404
    assert client.get(url("check_in_scan", "forged-token")).status_code == 404

    championship_services.referee_add(championship=championship, user=door, added_by=organiser)
    client.force_login(door)
    page = client.get(link, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200 and teams[0].name in page.content.decode()
    assert not CheckIn.objects.exists()  # opening the link alone changes nothing
    done = client.post(link, HTTP_ACCEPT_LANGUAGE="en")
    assert f"{teams[0].name} is checked in." in done.content.decode()
    check_in = CheckIn.objects.get()
    assert (
        check_in.stage,
        check_in.team,
        check_in.round_number,
        check_in.present,
        check_in.by,
    ) == (
        stage,
        teams[0],
        1,
        True,
        door,
    )
    # The referee at the door also reaches the stage's check-in list.
    assert client.get(url("check_in", championship.slug, stage.pk)).status_code == 200


def test_the_printable_qr_sheet_has_one_code_per_team(organiser_client, championship, teams):
    page = organiser_client.get(url("team_qr", championship.slug))
    html = page.content.decode()
    assert html.count("<svg") == len(teams)
    # Each code's link names its team. Tokens are signed with the time (to the second),
    # so they are read back rather than signed again and compared.
    before, after = reverse("organiser:check_in_scan", args=["TOKEN"]).split("TOKEN")
    tokens = re.findall(re.escape(before) + r"([^\"<\s]+?)" + re.escape(after), html)
    named = {signing.loads(token, salt=CHECK_IN_SALT) for token in tokens}
    assert named == {team.pk for team in teams}


def test_check_in_is_kept_per_round(championship, teams, organiser):
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    stage_services.check_in_all(stage=stage, by=organiser)
    stage_services.round_generate(stage=stage)
    # Round 2's check-in is not taken yet: every team is paired again.
    assert stage_services.check_in_absent(stage=stage, number=2) == []
    stage_services.check_in_set(stage=stage, team=teams[3], present=True)
    assert set(stage_services.check_in_absent(stage=stage, number=2)) == {t.pk for t in teams[:3]}


def test_the_absent_teams_choice_is_on_the_details_form(organiser_client, championship):
    organiser_client.post(
        url("championship_details", championship.slug),
        {"name": championship.name, "start_date": "2026-05-09", "absent_teams": "sit_out"},
    )
    championship.refresh_from_db()
    assert championship.absent_teams == "sit_out"


# -- the forms ------------------------------------------------------------------------------------


def test_the_stage_form_marks_each_setting_with_its_formats_and_asks_no_tiebreak(
    organiser_client, championship
):
    html = organiser_client.get(url("stage_create", championship.slug)).content.decode()
    assert 'data-formats="swiss"' in html
    assert 'data-formats="single_elimination groups_knockout"' in html
    assert "js/stage_form.js" in html
    assert "tiebreak_1" not in html


def test_the_catalan_preset_starts_with_squads_of_three(organiser_client):
    page = organiser_client.get(reverse("organiser:championship_create") + "?preset=catalan")
    assert page.context["form"]["team_size"].value() == 3
    page = organiser_client.get(reverse("organiser:championship_create"))
    assert page.context["form"]["team_size"].value() == 2


@pytest.mark.parametrize(
    ("table", "shown"),
    [("7", "Table 7"), ("B2", "Table B2"), ("Mesa del fondo", "Mesa del fondo"), ("", "")],
)
def test_a_table_is_named_once(table, shown):
    from django.utils import translation

    from tournaments.templatetags.stages import table_label

    with translation.override("en"):
        assert table_label(table) == shown


def test_an_invitations_expiry_is_a_date_nobody_misreads(organiser_client, organiser, championship):
    """It read "12/01/2026": the 1st of December, or the 12th of January?"""
    championship_services.referee_invite(championship=championship, invited_by=organiser)
    page = organiser_client.get(
        url("referees", championship.slug), HTTP_ACCEPT_LANGUAGE="es"
    ).content.decode()
    until = re.search(r"hasta ([^<]+)</span>", page)
    assert until is not None
    assert not re.search(r"\d{1,2}/\d{1,2}/\d{4}", until.group(1))
    assert re.search(r"\d{1,2} de [a-z]+ de \d{4}", until.group(1))
