"""Organiser pages for the day of play: referees (invitations, the championship's list),
teams fixed after entry (names, players, substitutes), check-in at the door (with a QR
code per team), removing a round, and the CSV template of the teams import.

As in ``organiser``: every page needs a login and finds its championship through
``championships.selectors.championship_for_organiser`` (404 to anyone else), except the
invitation page (public, behind its one-time token) and the check-in pages, which a
referee of the championship may use too (``may_check_in``).
"""

from __future__ import annotations

import csv
import io
import logging
from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache

from tournaments.championships import selectors as championship_selectors
from tournaments.championships import services as championship_services
from tournaments.championships.words import words
from tournaments.io.imports import TEMPLATE_HEADERS
from tournaments.models import Championship, RefereeInvitation, Stage, Substitution, Team
from tournaments.results import records
from tournaments.stages import registry
from tournaments.stages import selectors as stage_selectors
from tournaments.stages import services as stage_services
from tournaments.text import one_line
from tournaments.web.organiser import people as people_organiser
from tournaments.web.organiser.championships import _championship, _post_only
from tournaments.web.organiser.forms import (
    InvitationAcceptForm,
    RefereeAddForm,
    RefereeInviteForm,
    SubstitutionForm,
    TeamEditForm,
    add_service_error,
)
from tournaments.web.shared import shown_once

logger = logging.getLogger(__name__)

CHECK_IN_SALT = "tanteo.check-in"


# -- referees ---------------------------------------------------------------------------------


# Pages showing a secret (an invitation link, check-in codes, or behind one) are never
# stored by a browser or a proxy: never_cache sends Cache-Control no-store.
@never_cache
@login_required
def referees(request: HttpRequest, slug: str) -> HttpResponse:
    """The championship's referees: the list, pending invitations, invite or add one."""
    championship = _championship(request, slug)
    invite_form = RefereeInviteForm(prefix="invite")
    add_form = RefereeAddForm(prefix="add")
    if request.method == "POST" and request.POST.get("action") == "invite":
        invite_form = RefereeInviteForm(request.POST, prefix="invite")
        if invite_form.is_valid():
            invitation, token = championship_services.referee_invite(
                championship=championship, invited_by=request.user, **invite_form.cleaned_data
            )
            messages.success(
                request,
                _("Invitation ready: copy its link below and send it to the referee."),
            )
            return _invitation_made(request, championship, invitation, token)
    elif request.method == "POST" and request.POST.get("action") == "add":
        add_form = RefereeAddForm(request.POST, prefix="add")
        if add_form.is_valid():
            user = add_form.cleaned_data["user"]
            try:
                championship_services.referee_add(
                    championship=championship, user=user, added_by=request.user
                )
            except ValidationError as error:
                add_service_error(add_form, error)
            else:
                messages.success(
                    request,
                    _("%(name)s referees in this championship.")
                    % {"name": championship_selectors.person_name(user)},
                )
                return redirect("organiser:referees", slug=slug)
    invitations = list(
        championship_selectors.referee_invitations_pending(championship=championship)
    )
    fresh = _fresh_link(request, invitations)
    context = {
        "championship": championship,
        "entries": championship_selectors.championship_referees(championship=championship),
        "invitations": invitations,
        "fresh": fresh,
        "invite_form": invite_form,
        "add_form": add_form,
    }
    response = render(request, "organiser/referees.html", context)
    shown_once.forget(request, response, cookie=FRESH_LINK_COOKIE)
    return response


# The link of an invitation just made is shown once (``shown_once``); only the token's
# hash is stored (``referee_invite``).
FRESH_LINK_COOKIE = "tanteo_invitation"
FRESH_LINK_SALT = "tanteo.invitation-link"


def _invitation_made(
    request: HttpRequest, championship: Championship, invitation: RefereeInvitation, token: str
) -> HttpResponse:
    """Mail the new invitation's link when it has an address, and send the organiser to
    the referees page, which shows the link once (``FRESH_LINK_COOKIE``)."""
    link = request.build_absolute_uri(reverse("organiser:invitation", args=[token]))
    _send_invitation(request, championship, invitation.email, link)
    return shown_once.redirect_showing(
        reverse("organiser:referees", args=[championship.slug]),
        cookie=FRESH_LINK_COOKIE,
        salt=FRESH_LINK_SALT,
        value={"id": invitation.pk, "link": link},
    )


def _fresh_link(
    request: HttpRequest, invitations: list[RefereeInvitation]
) -> dict[str, Any] | None:
    """The invitation just made and its link (``{"invitation", "link"}``), if this request
    carries it and the invitation is still pending; else None."""
    fresh = shown_once.read(request, cookie=FRESH_LINK_COOKIE, salt=FRESH_LINK_SALT)
    found = next((i for i in invitations if i.pk == fresh.get("id")), None)
    return {"invitation": found, "link": fresh.get("link", "")} if found else None


def _send_invitation(
    request: HttpRequest, championship: Championship, email: str, link: str
) -> None:
    """Mail the link when an address was given; a failure only says so (the link is shown)."""
    if not email:
        return
    subject = _("Referee at %(championship)s") % {"championship": one_line(championship.name)}
    body = _(
        "%(organiser)s invites you to referee at %(championship)s.\n\n"
        "Open this link to make your account (it works once, for 7 days):\n%(link)s\n"
    ) % {
        "organiser": championship_selectors.person_name(request.user),
        "championship": championship.name,
        "link": link,
    }
    try:
        send_mail(subject, body, None, [email])
    except Exception:  # any mail failure: the link on the page still works
        logger.exception("Could not mail the referee invitation of %s", championship.slug)
        messages.warning(request, _("The email could not be sent: send the link yourself."))
    else:
        messages.info(request, _("The invitation was emailed to %(email)s.") % {"email": email})


@login_required
def referee_remove(request: HttpRequest, slug: str, user_id: int) -> HttpResponse:
    championship = _championship(request, slug)
    if refused := _post_only(request):
        return refused
    user = championship_selectors.referees_of(championship).filter(pk=user_id).first()
    if user is None:
        raise Http404("No such referee.")
    count = championship_services.referee_remove(championship=championship, user=user)
    messages.success(
        request,
        ngettext(
            "%(name)s no longer referees here; %(count)s match lost its referee.",
            "%(name)s no longer referees here; %(count)s matches lost their referee.",
            count,
        )
        % {"name": championship_selectors.person_name(user), "count": count},
    )
    return redirect("organiser:referees", slug=slug)


@login_required
def invitation_revoke(request: HttpRequest, slug: str, invitation_id: int) -> HttpResponse:
    championship = _championship(request, slug)
    if refused := _post_only(request):
        return refused
    invitation = championship.referee_invitations.filter(pk=invitation_id).first()
    if invitation is None:
        raise Http404("No such invitation.")
    championship_services.referee_invitation_revoke(invitation=invitation)
    messages.success(request, _("Invitation withdrawn."))
    return redirect("organiser:referees", slug=slug)


@login_required
def invitation_renew(request: HttpRequest, slug: str, invitation_id: int) -> HttpResponse:
    """A new link for a pending invitation (the organiser lost its link): the old link
    stops working."""
    championship = _championship(request, slug)
    if refused := _post_only(request):
        return refused
    invitation = championship.referee_invitations.filter(pk=invitation_id).first()
    if invitation is None:
        raise Http404("No such invitation.")
    try:
        renewed, token = championship_services.referee_invitation_renew(
            invitation=invitation, invited_by=request.user
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("organiser:referees", slug=slug)
    messages.success(request, _("New link ready: copy it below. The old link no longer works."))
    return _invitation_made(request, championship, renewed, token)


@never_cache
def invitation_accept(request: HttpRequest, token: str) -> HttpResponse:
    """The invitee's page (public, behind the token): name, user name, password; then he
    is logged in and sent to his matches."""
    invitation = championship_services.referee_invitation_find(token)
    problem = championship_services.referee_invitation_problem(invitation)
    if problem is not None:
        return render(request, "organiser/invitation.html", {"problem": problem}, status=404)
    form = InvitationAcceptForm(
        request.POST if request.method == "POST" else None,
        initial=InvitationAcceptForm.initial_from(invitation),
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            user = championship_services.referee_invitation_accept(
                token=token,
                username=data["username"],
                first_name=data["first_name"],
                last_name=data["last_name"],
                password=data["password1"],
            )
        except ValidationError as error:
            field = "username" if getattr(error, "code", "") == "username_taken" else None
            form.add_error(field, error.messages)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(
                request,
                _("Welcome, %(name)s: you referee at %(championship)s.")
                % {"name": user.get_full_name(), "championship": invitation.championship.name},
            )
            return redirect("referees:matches")
    return render(request, "organiser/invitation.html", {"invitation": invitation, "form": form})


# -- teams: edit, substitute, history ----------------------------------------------------------


def _team(championship: Championship, team_id: int) -> Team:
    team = championship_selectors.team_list(championship=championship).filter(pk=team_id).first()
    if team is None:
        raise Http404("No such team.")
    team.championship = championship
    return team


def _substitution_rounds(championship: Championship, team: Team) -> list[tuple[Stage, int]]:
    """The stages the team plays, each with the number of its next round."""
    return [
        (stage, stage_services.next_round_number(stage))
        for stage in team.stages.filter(championship=championship).order_by("order")
    ]


@login_required
def team_edit(request: HttpRequest, slug: str, team_id: int) -> HttpResponse:
    """Fix a team: its name, seed, club, players' names, cap de colla; substitute a player;
    and the team's matches with who played each."""
    championship = _championship(request, slug)
    team = _team(championship, team_id)
    form = TeamEditForm(request.POST if request.method == "POST" else None, team=team)
    # Posted: asked about likely matches, or saved; else the form again with its errors.
    posted = request.method == "POST" and form.is_valid()
    if posted and (answer := people_organiser.team_edit_post(request, form, championship, team)):
        return answer
    return _team_page(request, championship, team, form=form)


def _team_page(
    request: HttpRequest,
    championship: Championship,
    team: Team,
    *,
    form: TeamEditForm | None = None,
    substitution_form: SubstitutionForm | None = None,
) -> HttpResponse:
    stages = _substitution_rounds(championship, team)
    history = _team_history(team)
    context = {
        "championship": championship,
        "team": team,
        "form": form or TeamEditForm(team=team),
        "substitution_form": substitution_form or SubstitutionForm(team=team, stages=stages),
        "can_substitute": bool(stages),
        "history": history,
        # A league's rounds are its matchdays: so named when the team plays only leagues.
        "matchdays": bool(history) and all(row["match"].stage.is_league for row in history),
        "substitutions": Substitution.objects.filter(team=team).select_related(
            "player_out", "player_in", "stage"
        ),
    }
    return render(request, "organiser/team_edit.html", context)


def _team_history(team: Team) -> list[dict[str, Any]]:
    """The team's matches in order, each with the players who played (or will play) it."""
    rows = []
    for match in stage_selectors.team_matches(team=team):
        side = match.side_of(team.pk) or "A"
        if match.team_b_id is None:
            rows.append({"match": match, "others": [], "players": []})
            continue
        names = records.names(match)
        keys = records.lineup(match)[side]
        rows.append(
            {
                "match": match,
                # A table of three's other two players, or the opponent.
                "others": match.others_of(team.pk),
                "players": [names.get(key, key) for key in keys],
                "stored": bool(match.lineup),
            }
        )
    return rows


@login_required
def team_substitute(request: HttpRequest, slug: str, team_id: int) -> HttpResponse:
    championship = _championship(request, slug)
    if refused := _post_only(request):
        return refused
    team = _team(championship, team_id)
    stages = _substitution_rounds(championship, team)
    form = SubstitutionForm(request.POST, team=team, stages=stages)
    if form.is_valid():
        player_out = next(
            m.player
            for m in team.memberships.all()
            if m.player_id == form.cleaned_data["player_out"]
        )
        try:
            substitution = championship_services.team_substitute(
                team=team, player_out=player_out, by=request.user, **form.service_kwargs()
            )
        except ValidationError as error:
            add_service_error(form, error)
        else:
            messages.success(
                request,
                _("%(new)s replaces %(old)s from %(round)s on.")
                % {
                    "new": substitution.player_in.name,
                    "old": substitution.player_out.name,
                    "round": substitution.from_round_name,
                },
            )
            return redirect("organiser:team_edit", slug=slug, team_id=team.pk)
    return _team_page(request, championship, team, substitution_form=form)


# -- check-in -----------------------------------------------------------------------------------


def _door_championship(request: HttpRequest, slug: str) -> Championship:
    """The championship if ``request.user`` may check teams in (organisers, its referees)."""
    championship = Championship.objects.filter(slug=slug).first()
    if championship is None or not championship_selectors.may_check_in(request.user, championship):
        raise Http404("No such championship.")
    return championship


@login_required
def check_in(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """The teams of a stage, present or not for its next round, with toggles."""
    championship = _door_championship(request, slug)
    stage = stage_selectors.stage_of(championship=championship, stage_id=stage_id)
    if not registry.get(stage.format).uses_check_in:
        raise Http404("This format takes no check-in.")
    if not stage_services.takes_check_in(stage):
        # The group rounds are over: the knockout pairs its bracket, whoever checked in.
        # Nothing to list (the teams out of it among them) nor to open to the teams.
        if request.method == "POST":
            messages.error(request, _("The knockout takes no check-in: nothing was changed."))
            return redirect("organiser:check_in", slug=slug, stage_id=stage.pk)
        context = {
            "championship": championship,
            "stage": stage,
            "over": True,
            "manages": championship_selectors.can_manage(request.user, championship),
        }
        return render(request, "organiser/check_in.html", context)
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "all":
                stage_services.check_in_all(stage=stage, by=request.user)
                messages.success(request, _("Every team is checked in."))
            elif action == "reset":
                stage_services.check_in_reset(stage=stage)
                messages.success(request, _("Check-in cleared: every team will be paired."))
            elif action in ("present", "absent"):
                team = stage.teams.filter(pk=request.POST.get("team", "")).first()
                if team is None:
                    raise Http404("No such team.")
                stage_services.check_in_set(
                    stage=stage, team=team, present=action == "present", by=request.user
                )
                message = (
                    _("%(team)s is checked in.")
                    if action == "present"
                    else _("%(team)s is marked absent.")
                )
                messages.success(request, message % {"team": team.name})
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        return redirect("organiser:check_in", slug=slug, stage_id=stage.pk)
    number = stage_services.next_round_number(stage)
    state = stage_selectors.check_in_state(stage=stage, number=number)
    context = {
        "championship": championship,
        "stage": stage,
        "number": number,
        "state": state,
        "manages": championship_selectors.can_manage(request.user, championship),
    }
    return render(request, "organiser/check_in.html", context)


def check_in_token(team: Team) -> str:
    """The signed token of ``team``'s check-in link (what its QR code holds)."""
    return signing.dumps(team.pk, salt=CHECK_IN_SALT)


def _qr_svg(url: str) -> str:
    # An inline <svg> (no data: URL, no style attribute): allowed by the page's CSP.
    return segno.make(url, error="m").svg_inline(scale=3, omitsize=True)


@never_cache
@login_required
def team_qr_codes(request: HttpRequest, slug: str) -> HttpResponse:
    """A printable sheet: each team with the QR code of its check-in link."""
    championship = _championship(request, slug)
    cards = []
    for team in championship_selectors.team_list(championship=championship):
        url = request.build_absolute_uri(
            reverse("organiser:check_in_scan", args=[check_in_token(team)])
        )
        cards.append({"team": team, "url": url, "svg": _qr_svg(url)})
    return render(request, "organiser/team_qr.html", {"championship": championship, "cards": cards})


@never_cache
@login_required
def check_in_scan(request: HttpRequest, token: str) -> HttpResponse:
    """What a team's QR code opens: confirm, and the team is present for the next round of
    its stages. Only whoever manages the championship or referees in it (404 otherwise)."""
    try:
        team_id = signing.loads(token, salt=CHECK_IN_SALT)
    except signing.BadSignature:
        raise Http404("No such team.") from None
    team = Team.objects.select_related("championship").filter(pk=team_id).first()
    if team is None or not championship_selectors.may_check_in(request.user, team.championship):
        raise Http404("No such team.")
    stages: list[Stage] = []
    if request.method == "POST":
        try:
            stages = stage_services.team_check_in(team=team, by=request.user)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, _("%(team)s is checked in.") % {"team": team.name})
    context = {"championship": team.championship, "team": team, "stages": stages}
    return render(request, "organiser/check_in_scan.html", context)


# -- rounds -------------------------------------------------------------------------------------


@login_required
def round_remove(request: HttpRequest, slug: str, stage_id: int, number: int) -> HttpResponse:
    """GET: confirm; POST: remove the round (``stages.services.round_remove`` decides)."""
    championship = _championship(request, slug)
    stage = stage_selectors.stage_of(championship=championship, stage_id=stage_id)
    round_ = stage_selectors.round_of(stage=stage, number=number)
    if request.method == "POST":
        try:
            stage_services.round_remove(stage=stage, number=number)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, _("%(round)s removed.") % {"round": round_})
        return redirect("organiser:stage", slug=slug, stage_id=stage.pk)
    return render(
        request,
        "organiser/round_remove.html",
        {"championship": championship, "stage": stage, "round": round_},
    )


# -- the CSV template of the teams import --------------------------------------------------------


@login_required
def teams_template(request: HttpRequest, slug: str, language: str) -> HttpResponse:
    """A CSV to fill in: the import's columns named in ``language``, and example rows for a
    team of this championship's size (its cap de colla marked in catalan)."""
    championship = _championship(request, slug)
    if language not in TEMPLATE_HEADERS:
        raise Http404("No such language.")
    header = list(TEMPLATE_HEADERS[language])
    with translation.override(language):
        # The captain's column named as this game names him: capità or cap de colla.
        header[TEMPLATE_HEADERS["en"].index("captain")] = str(words(championship).captain)
        team = _("Example team")
        club = _("Example club")
        player = _("Player %(number)s")
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    for index in range(1, championship.team_size + 1):
        mark = "x" if index == 1 and championship.is_catalan and championship.team_size > 1 else ""
        row = {
            "team": team,
            "player": player % {"number": index},
            "seed": "1" if index == 1 else "",
            "club": club if index == 1 else "",
            "captain": mark,
        }
        writer.writerow([row.get(key, "") for key in TEMPLATE_HEADERS["en"]])
    response = HttpResponse("\ufeff" + out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="teams-{language}.csv"'
    return response
