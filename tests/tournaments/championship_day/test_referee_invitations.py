"""Referees invited by link (and by email): the name and password they set, a link shown
once and replaced when lost, expired or withdrawn links refused."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.tournaments.championship_day.conftest import PASSWORD, User, url
from tournaments.championships import selectors as championship_selectors
from tournaments.championships import services as championship_services
from tournaments.models import ChampionshipReferee


def invitation_link(response) -> str | None:
    """The invitation link the referees page shows (in its copy field), if any."""
    found = re.search(
        r'id="invitation-link-text" type="text" value="([^"]+)"', response.content.decode()
    )
    return found.group(1) if found else None


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
