"""The organiser's people: the people of every championship he manages, one page for
them all (a person plays across championships, and two records of one human are often
in two of them), a person's details, and the merge of two records of one human.

A person is found through ``people.selectors.person_for_organiser``: someone who played
in a championship the user manages, else a 404. The team pages ask here "is this the
same person as ...?" (:func:`ask_people`) before a typed player with likely matches is
created.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

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
        form.typed(indexes), user=request.user, exclude=exclude
    )
    if not form.ask_people(indexes, matches):
        return None
    return render(
        request,
        "organiser/team_people.html",
        {"championship": championship, "form": form, "action": action, "back": back},
    )


def licence_notices(request: HttpRequest, form: Any, known: dict[str, Person]) -> None:
    """Say which typed players were recognised by their licence number (``known``, looked
    up before the team was created): they are that person, at once."""
    for details in form.typed(form.indexes()):
        person = known.get(details.licence.strip())
        if details.person is None and person is not None:
            messages.info(
                request,
                _(
                    "%(player)s was recognised by licence number %(licence)s: the same"
                    " person as %(person)s."
                )
                % {"player": details.name, "licence": person.licence, "person": person.name},
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


def known_licences(form: Any) -> dict[str, Person]:
    return people_selectors.people_by_licence(d.licence for d in form.typed(form.indexes()))


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
    known = known_licences(form)
    try:
        with transaction.atomic():
            team = championship_services.team_edit(team=team, **form.service_kwargs())
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
    licence_notices(request, form, known)
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
        "championship": championship,
    }
    return render(request, "organiser/people.html", context)


@login_required
def person_edit(request: HttpRequest, person_id: int) -> HttpResponse:
    """A person's name, club, licence number, contact and how the public sees his name."""
    person = people_selectors.person_for_organiser(user=request.user, person_id=person_id)
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
    holds), then merged on the confirmation's POST."""
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
            # Their matches now rate one person: the ratings are computed again.
            tasks.rebuild_ratings_on_commit()
            messages.success(
                request, _("The two records are now one person: %(name)s.") % {"name": kept.name}
            )
        return redirect("organiser:people")
    keep, drop = (
        people_selectors.person_for_organiser(user=request.user, person_id=int(i)) for i in ids
    )
    return render(request, "organiser/person_merge.html", {"keep": keep, "drop": drop})
