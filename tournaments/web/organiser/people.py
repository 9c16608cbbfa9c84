"""The organiser's people: the people of every championship he manages, one page for
them all (a person plays across championships, and two records of one human are often
in two of them), a person's details, and the merge of two records of one human: at
once by an organiser of every championship of both, else asked of the others' organisers
(the merge requests, answered on this page).

A person is found through ``people.selectors.person_for_organiser``: someone who played
in a championship the user manages, else a 404 (a merged-away id redirects to the person
kept). Another organiser's record is shown only as the public sees it. The team pages ask
here "is this the same person as ...?" (:func:`ask_people`) before a typed player with
likely matches is created.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournaments import tasks
from tournaments.championships import services as championship_services
from tournaments.models import Championship, Person, Team
from tournaments.people import selectors as people_selectors
from tournaments.people import services as people_services
from tournaments.web.organiser.forms import PeopleSearchForm, PersonForm, add_service_error


def ask_people(
    request: HttpRequest,
    form: Any,
    *,
    championship: Championship,
    action: str,
    back: str,
    exclude: list[int] = (),  # type: ignore[assignment]
) -> HttpResponse | None:
    """The page asking "the same person as ... or a new person?" for each typed player of
    ``form`` (valid) with likely matches not yet answered; ``None`` when all is answered
    (the caller creates). ``action`` is where the answers are posted, with the form."""
    indexes = form.indexes()
    matches = people_selectors.person_likely_matches(
        form.typed(indexes), user=request.user, exclude=exclude, championship=championship
    )
    if not form.ask_people(indexes, matches):
        return None
    return render(
        request,
        "organiser/team_people.html",
        {"championship": championship, "form": form, "action": action, "back": back},
    )


def licence_notices(request: HttpRequest, form: Any, known: dict[str, Person], team: Team) -> None:
    """Say which typed players were recognised by their licence number (``known``, looked
    up before the team was created among the people the organiser sees: they are that
    person, at once), and whose licence number was not kept because another person holds
    it, in championships he does not manage (nothing more of that record is told)."""
    members = team.memberships.select_related("player__person")
    kept = {m.player.name: m.player.person.licence for m in members}
    for details in form.typed(form.indexes()):
        licence = details.licence.strip()
        person = known.get(licence)
        if details.person is not None or not licence:
            continue
        if person is not None:
            messages.info(
                request,
                _(
                    "%(player)s was recognised by licence number %(licence)s: the same"
                    " person as %(person)s."
                )
                % {"player": details.name, "licence": person.licence, "person": person.name},
            )
        elif kept.get(details.name) != licence:
            messages.warning(
                request,
                _(
                    "The licence number typed for %(player)s is another person's, on record"
                    " in championships you do not manage: %(player)s was entered as a new"
                    " person without it. Check the number with the player; if the two are"
                    " one person (the same name), their organisers are asked on the People"
                    " page."
                )
                % {"player": details.name},
            )


def import_notice(request: HttpRequest, championship: Championship) -> None:
    """After an import: how many of its people are likely on record already, for the
    organiser to confirm on his people's page (nothing is merged by the import)."""
    pairs = people_selectors.likely_duplicates(user=request.user, championship=championship)
    if pairs:
        messages.warning(
            request,
            ngettext(
                "%(count)s player may already be on record as another person: confirm it"
                " on the People page.",
                "%(count)s players may already be on record as other people: confirm them"
                " on the People page.",
                len(pairs),
            )
            % {"count": len(pairs)},
        )


def known_licences(request: HttpRequest, form: Any) -> dict[str, Person]:
    """The people the organiser sees holding the licence numbers typed in ``form``."""
    typed = form.typed(form.indexes())
    return people_selectors.people_by_licence((d.licence for d in typed), user=request.user)


def team_edit_post(
    request: HttpRequest, form: Any, championship: Championship, team: Team
) -> HttpResponse | None:
    """A team's edit posted (``form`` valid): the question about likely matches of the
    players added, else the team saved with its players' people's details, all or
    nothing, and a redirect; ``None`` when a service refused (on the form)."""
    action = reverse("organiser:team_edit", args=[championship.slug, team.pk])
    members = [m.player.person_id for m in form.members]
    if asked := ask_people(
        request, form, championship=championship, action=action, back=action, exclude=members
    ):
        return asked
    known = known_licences(request, form)
    try:
        with transaction.atomic():
            team = championship_services.team_edit(
                team=team, by=request.user, **form.service_kwargs()
            )
            team = championship_services.team_home_set(team=team, **form.home_kwargs())
            for index, person, changes in form.contact_changes():
                try:
                    people_services.person_update(person=person, by=request.user, **changes)
                except ValidationError as error:
                    field = error.params.get("option", "licence")  # type: ignore[union-attr]
                    form.add_error(f"{field}_{index}", error.messages)
                    raise
    except ValidationError as error:
        if not form.errors:
            add_service_error(form, error)
        return None
    messages.success(request, _("Team %(name)s saved.") % {"name": team.name})
    licence_notices(request, form, known, team)
    return redirect(action)


@login_required
def people(request: HttpRequest) -> HttpResponse:
    """The people of my championships, searched; the records likely of one person."""
    search = PeopleSearchForm(request.GET)
    query = search.cleaned_data["q"] if search.is_valid() else ""
    slug = request.GET.get("championship", "")
    championship = Championship.objects.managed_by(request.user).filter(slug=slug).first()
    found, more = people_selectors.people_for_organiser(
        user=request.user, search=query, championship=championship
    )
    pairs = people_selectors.likely_duplicates(user=request.user, championship=championship)
    context = {
        "search": search,
        "people": found,
        "more": more,
        "pairs": pairs,
        "requests": people_selectors.merge_requests_for(user=request.user),
        "championship": championship,
    }
    return render(request, "organiser/people.html", context)


@login_required
def person_edit(request: HttpRequest, person_id: int) -> HttpResponse:
    """A person's name, club, licence number, contact and how the public sees his name."""
    try:
        person = people_selectors.person_for_organiser(user=request.user, person_id=person_id)
    except Http404:
        kept = people_selectors.merged_into(person_id)
        if kept is None:
            raise
        return redirect("organiser:person_edit", person_id=kept)
    form = PersonForm(request.POST if request.method == "POST" else None, person=person)
    if request.method == "POST" and form.is_valid():
        try:
            person = people_services.person_update(
                person=person, by=request.user, **form.service_kwargs()
            )
        except ValidationError as error:
            add_service_error(form, error)
        else:
            messages.success(request, _("%(name)s saved.") % {"name": person.name})
            return redirect("organiser:people")
    return render(request, "organiser/person_edit.html", {"person": person, "form": form})


@login_required
def person_merge(request: HttpRequest) -> HttpResponse:
    """Two records of one human made one: asked first (which record is kept, what each
    holds, what keeps them apart, whose championships they are), then merged on the
    confirmation's POST, or asked of the other championships' organisers."""
    data = request.POST if request.method == "POST" else request.GET
    ids = [data.get("keep", ""), data.get("drop", "")]
    if not all(i.isdigit() for i in ids) or ids[0] == ids[1]:
        messages.error(request, _("Choose two different people."))
        return redirect("organiser:people")
    if request.method == "POST":
        # The service reads both under its lock and checks who may merge them: a pair
        # merged meanwhile by another organiser is told so, not a 404.
        keep, drop = (Person(pk=int(i)) for i in ids)
        try:
            kept = people_services.person_merge(keep=keep, drop=drop, by=request.user)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            _merged(request, kept)
        return redirect("organiser:people")
    keep, drop = (
        people_selectors.person_for_organiser(user=request.user, person_id=int(i)) for i in ids
    )
    others = people_selectors.championships_not_managed(
        people_selectors.championships_of([keep, drop]), users=[request.user]
    )
    context = {
        "keep": keep,
        "drop": drop,
        "problem": people_selectors.merge_problem(keep, drop),
        "others": len(others),
    }
    return render(request, "organiser/person_merge.html", context)


def _merged(request: HttpRequest, kept: Person) -> None:
    # Their matches now rate one person: the ratings are computed again.
    tasks.rebuild_ratings_on_commit()
    messages.success(
        request, _("The two records are now one person: %(name)s.") % {"name": kept.name}
    )


@login_required
@require_POST
def person_merge_agree(request: HttpRequest) -> HttpResponse:
    """ "They are one person", said of two records whose championships are not all the
    organiser's: asked of their organisers, or the merge made when they all agreed."""
    ids = [request.POST.get("person", ""), request.POST.get("other", "")]
    if not all(i.isdigit() for i in ids):
        messages.error(request, _("Choose two different people."))
        return redirect("organiser:people")
    person, other = (Person(pk=int(i)) for i in ids)
    try:
        kept = people_services.person_merge_agree(person=person, other=other, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        if kept is not None:
            _merged(request, kept)
        else:
            messages.success(
                request,
                _(
                    "Asked: the organisers of the other championships answer on their People"
                    " page, and the two records become one when they all agree."
                ),
            )
    return redirect(reverse("organiser:people") + "#requests")


@login_required
@require_POST
def person_merge_decline(request: HttpRequest) -> HttpResponse:
    """ "They are two people": a merge request withdrawn."""
    request_id = request.POST.get("request", "")
    if request_id.isdigit():
        try:
            people_services.person_merge_decline(request_id=int(request_id), by=request.user)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, _("Noted: they stay two people."))
    return redirect(reverse("organiser:people") + "#requests")
