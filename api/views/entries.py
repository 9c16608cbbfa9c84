"""Entries by the players: the organisers' list and answers; the public entry form.

``POST championships/{slug}/entries/`` is the entry form for programs: anyone, without
credentials, limited per address with the page (``tournaments.entries.limits``). Its
``Idempotency-Key`` is the form's one-time key (``Entry.form_key``): the same key posted
again enters nobody new. Only the same client (the same address) sending the same body
gets the first entry and its link again; anything else under the key is a 409 that
names nothing of the first team (``tournaments.entries.form_keys``).
"""

from __future__ import annotations

from axes.helpers import get_client_ip_address
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from api import access, errors, idempotency
from api.serializers.entries import (
    EntryCreatedSerializer,
    EntryCreateSerializer,
    EntryPaidSerializer,
    EntryReasonSerializer,
    EntrySerializer,
    fee_of,
)
from api.throttles import EntryThrottle
from api.views.base import ApiView
from tournaments.championships import selectors as championship_selectors
from tournaments.entries import fees
from tournaments.entries import selectors as entry_selectors
from tournaments.entries import services as entry_services
from tournaments.entries.mail import entry_link_mail
from tournaments.models import Entry, TeamAct
from tournaments.people.services import PersonDetails

FORM_KEY = OpenApiParameter(
    idempotency.HEADER,
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="The form's one-time key (16 to 64 characters, a random one such as a "
    "UUID): the same key posted again enters no second team. The same client (address) "
    "with the same body gets the first entry again, with its link; anything else is 409 "
    "`entry_key_used`.",
)


class EntryList(ApiView):
    """The entries of a championship in arrival order (organisers); enter a team (anyone)."""

    readers = "organisers"
    writers = "public"
    serializer_class = EntrySerializer
    queryset = Entry.objects.none()  # the schema's model; reads go through the selectors

    def get_permissions(self) -> list[permissions.BasePermission]:
        # The list is no public read (401 without credentials); entering is anyone's.
        if self.request.method == "POST":
            return [permissions.AllowAny()]
        return [permissions.IsAuthenticated()]

    def get_throttles(self) -> list:
        throttles = super().get_throttles()
        if self.request.method == "POST":
            throttles.append(EntryThrottle())
        return throttles

    @extend_schema(responses=EntrySerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        """Every entry with its status, place, payment and team (``email`` included)."""
        championship = access.managed_championship(request, slug)
        return self.paginated(entry_selectors.entries_for_organiser(championship), EntrySerializer)

    @extend_schema(
        request=EntryCreateSerializer,
        parameters=[FORM_KEY],
        responses={201: EntryCreatedSerializer, 200: EntryCreatedSerializer},
    )
    def post(self, request: Request, slug: str) -> Response:
        """Enter a team, as the entry form does: 201 with its place and personal link
        (400 with every problem in ``fields``; 409 ``entries_closed``). The same
        ``Idempotency-Key`` again, from the same address with the same body, answers 200
        with the first entry; under it anything else is 409 ``entry_key_used``."""
        championship = access.championship(request, slug)
        data = self.valid(EntryCreateSerializer, request).validated_data
        form_key = request.headers.get(idempotency.HEADER, "").strip()
        if form_key and not 16 <= len(form_key) <= 64:
            # A replay hands back the team's link: its key must be as hard to guess.
            raise errors.Unprocessable(
                _("An Idempotency-Key here has 16 to 64 characters: a random one, such as a UUID.")
            )
        players = [
            PersonDetails(
                name=p["name"].strip(),
                licence=p["licence"].strip(),
                email=data["email"].strip() if number == 0 else "",
                phone=data["phone"].strip() if number == 0 else "",
            )
            for number, p in enumerate(data["players"])
        ]
        kwargs = {
            "team_name": data["team_name"],
            "players": players,
            "captain": data["captain"],
            "club": data["club"],
            "email": data["email"],
            "town": data["town"],
        }
        policy = entry_selectors.entry_policy(championship)
        if entry_selectors.entries_closed_problem(championship, policy) is None:
            problems = entry_services.entry_problems(
                championship=championship, policy=policy, **kwargs
            )
            known = (
                form_key
                and Entry.objects.filter(championship=championship, form_key=form_key).exists()
            )
            if problems and not known:
                fields: dict[str, list[str]] = {}
                for problem in problems:
                    fields.setdefault(problem.params.get("field", "non_field_errors"), []).append(
                        problem.text
                    )
                return Response(errors.body(problems[0].code, problems[0].text, fields), status=400)
        entry, token = entry_services.entry_submit(
            championship=championship,
            form_key=form_key,
            via=TeamAct.Via.API,
            client=get_client_ip_address(request) or "",
            **kwargs,
        )
        link = request.build_absolute_uri(f"/c/{championship.slug}/team/{token}/") if token else ""
        emailed = False
        if entry.email and link and not entry.repeated:
            emailed = entry_link_mail(entry=entry, link=link)
        answer = {
            "id": entry.pk,
            "position": entry.position,
            "status": entry.status,
            "waiting_number": entry_selectors.waiting_number(entry),
            "team": {"id": entry.team.pk, "name": entry.team.name},
            "link": link,
            "emailed": emailed,
            "fee": fee_of(entry),
        }
        code = status.HTTP_200_OK if entry.repeated else status.HTTP_201_CREATED
        response = Response(EntryCreatedSerializer(answer).data, status=code)
        response["Cache-Control"] = "no-store"
        if entry.repeated:
            response[idempotency.REPLAYED] = "true"
        return response


def _managed_entry(request: Request, entry_id: int) -> Entry:
    """An entry of a championship the user manages: 404 if he cannot read it, else 403."""
    entry = entry_selectors.entry_detail(entry_id)
    if entry is None or not championship_selectors.may_read(request.user, entry.championship):
        raise Http404("No such entry.")
    if not championship_selectors.can_manage(request.user, entry.championship):
        raise PermissionDenied()
    return entry


def _answer(entry: Entry) -> Response:
    return Response(EntrySerializer(entry_selectors.entry_detail(entry.pk)).data)


class _EntryAct(ApiView):
    writers = "organisers"
    serializer_class = EntrySerializer
    queryset = Entry.objects.none()


class EntryAccept(_EntryAct):
    """Accept an entered team: it plays."""

    @extend_schema(request=None, responses={200: EntrySerializer})
    def post(self, request: Request, entry_id: int) -> Response:
        """409 ``entry_not_pending`` unless the team is entered (not waiting, refused or
        withdrawn); accepting it again changes nothing."""
        entry = _managed_entry(request, entry_id)
        entry_services.entry_accept(entry=entry, by=request.user, via=TeamAct.Via.API)
        return _answer(entry)


class EntryRefuse(_EntryAct):
    """Refuse an entry, with the reason the team reads; its place goes to the first waiting."""

    @extend_schema(request=EntryReasonSerializer, responses={200: EntrySerializer})
    def post(self, request: Request, entry_id: int) -> Response:
        entry = _managed_entry(request, entry_id)
        reason = self.valid(EntryReasonSerializer, request).validated_data["reason"]
        entry_services.entry_refuse(
            entry=entry, by=request.user, via=TeamAct.Via.API, reason=reason
        )
        return _answer(entry)


class EntryWithdraw(_EntryAct):
    """Withdraw the team before the championship starts; the first waiting takes its place."""

    @extend_schema(request=EntryReasonSerializer, responses={200: EntrySerializer})
    def post(self, request: Request, entry_id: int) -> Response:
        entry = _managed_entry(request, entry_id)
        reason = self.valid(EntryReasonSerializer, request).validated_data["reason"]
        entry_services.entry_withdraw(
            team=entry.team, by=request.user, via=TeamAct.Via.API, reason=reason
        )
        return _answer(entry)


class EntryPaid(_EntryAct):
    """Mark the entry's fee paid (``{"paid": true}``, the default) or not paid."""

    @extend_schema(
        request=EntryPaidSerializer,
        responses={200: OpenApiResponse(EntrySerializer)},
    )
    def post(self, request: Request, entry_id: int) -> Response:
        entry = _managed_entry(request, entry_id)
        paid = self.valid(EntryPaidSerializer, request).validated_data["paid"]
        fees.entry_set_paid(entry=entry, paid=paid, by=request.user, via=TeamAct.Via.API)
        return _answer(entry)


class EntryRefunded(_EntryAct):
    """Mark the fee of a team gone (refused or withdrawn) that had paid as given back: it
    is no longer ``to_refund``."""

    @extend_schema(request=None, responses={200: EntrySerializer})
    def post(self, request: Request, entry_id: int) -> Response:
        """400 ``entry_not_refundable`` unless the team paid and is refused or withdrawn;
        marking it again changes nothing."""
        entry = _managed_entry(request, entry_id)
        fees.entry_set_refunded(entry=entry, by=request.user, via=TeamAct.Via.API)
        return _answer(entry)
