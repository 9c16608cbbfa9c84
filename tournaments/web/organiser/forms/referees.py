"""The championship's referees: invited by a link, added from the site's referees, an
invitation accepted.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournaments.models import RefereeInvitation


class RefereeInviteForm(forms.Form):
    """Who to invite: a name to recognise the invitation by, and an email to send it to."""

    name = forms.CharField(label=_("Name"), max_length=150, required=False)
    email = forms.EmailField(
        label=_("Email"),
        required=False,
        help_text=_("Optional: the link is also shown here, to send it any way you like."),
    )


class RefereeAddForm(forms.Form):
    """An existing account, by user name or email."""

    user = forms.CharField(
        label=_("User name or email"),
        max_length=254,
        help_text=_("Someone who already has an account on this site."),
    )

    def clean_user(self) -> Any:
        wanted = self.cleaned_data["user"].strip()
        users = get_user_model().objects.filter(is_active=True)
        found = users.filter(username__iexact=wanted).first()
        if found is None and "@" in wanted:
            matches = list(users.filter(email__iexact=wanted)[:2])
            found = matches[0] if len(matches) == 1 else None
        if found is None:
            raise ValidationError(_("No active account has this user name or email."))
        return found


class InvitationAcceptForm(forms.Form):
    """The invitee makes his account: his name, a user name and a password."""

    first_name = forms.CharField(label=_("First name"), max_length=150)
    last_name = forms.CharField(label=_("Last name"), max_length=150)
    username = forms.CharField(
        label=_("User name"),
        max_length=150,
        validators=[UnicodeUsernameValidator()],
        help_text=_("What you will log in with: letters, digits and @ . + - _ only."),
    )
    password1 = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html(),
    )
    password2 = forms.CharField(
        label=_("Password again"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    @staticmethod
    def initial_from(invitation: RefereeInvitation) -> dict[str, str]:
        """The name the organiser typed, split into first name (its first word) and last
        name (the rest), so the invitee corrects it rather than types it again."""
        first, _space, last = invitation.name.strip().partition(" ")
        return {"first_name": first, "last_name": last.strip()}

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        first, second = cleaned.get("password1"), cleaned.get("password2")
        if first and second and first != second:
            self.add_error("password2", _("The two passwords differ."))
        elif first:
            user = get_user_model()(
                username=cleaned.get("username", ""),
                first_name=cleaned.get("first_name", ""),
                last_name=cleaned.get("last_name", ""),
            )
            try:
                password_validation.validate_password(first, user)
            except ValidationError as error:
                self.add_error("password1", error)
        return cleaned
