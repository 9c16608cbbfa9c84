"""Entries by the players: the organisers' list, the public form's fields and answer."""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers.teams import TeamSerializer
from api.serializers.text import MULTILINE
from tournaments.models import Entry, EntryPolicy


class FeeSerializer(serializers.Serializer):
    """The championship's entry fee: an amount (a number) and its currency."""

    amount = serializers.DecimalField(
        source="fee", max_digits=8, decimal_places=2, coerce_to_string=False
    )
    currency = serializers.CharField(help_text="ISO 4217 code: EUR, ARS, USD...")


def fee_of(entry: Entry) -> EntryPolicy | None:
    """The policy whose fee an entry pays (its championship's), None for a free entry."""
    try:
        policy = entry.championship.entry_policy
    except ObjectDoesNotExist:
        return None
    return policy if policy.fee is not None else None


class EntrySerializer(serializers.ModelSerializer):
    """An entry as its organisers see it (``email`` is private: organisers only)."""

    team = TeamSerializer(read_only=True)
    fee = serializers.SerializerMethodField(help_text="The entry fee; null for a free entry.")
    to_refund = serializers.BooleanField(
        read_only=True,
        help_text="It paid and is refused or withdrawn, and the fee is not refunded yet.",
    )

    class Meta:
        model = Entry
        fields = [
            "id",
            "position",
            "status",
            "team",
            "fee",
            "paid",
            "paid_at",
            "to_refund",
            "refunded_at",
            "reason",
            "email",
            "created_at",
        ]
        read_only_fields = fields

    @extend_schema_field(FeeSerializer(allow_null=True))
    def get_fee(self, entry: Entry) -> dict | None:
        policy = fee_of(entry)
        return FeeSerializer(policy).data if policy is not None else None


class EntryPlayerSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200, allow_blank=True)
    licence = serializers.CharField(max_length=50, required=False, allow_blank=True, default="")


class EntryCreateSerializer(serializers.Serializer):
    """The entry form's fields: exactly the questions the organiser asks are required."""

    team_name = serializers.CharField(max_length=200, allow_blank=True)
    players = EntryPlayerSerializer(
        many=True, help_text="One per player of the championship's team size, in seating order."
    )
    captain = serializers.CharField(
        max_length=200,
        required=False,
        allow_null=True,
        default=None,
        help_text="The cap de colla (a Catalan squad): one of the players' names.",
    )
    club = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    email = serializers.CharField(
        max_length=254,
        required=False,
        allow_blank=True,
        default="",
        help_text="The team's personal link is mailed there.",
    )
    phone = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")
    town = serializers.CharField(
        max_length=200,
        required=False,
        allow_blank=True,
        default="",
        help_text="The team's town: asked by a circuit's qualifier restricted to towns.",
    )


class EntryTeamSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class EntryCreatedSerializer(serializers.Serializer):
    """A team entered: its place and its personal link (given only in this answer)."""

    id = serializers.IntegerField()
    position = serializers.IntegerField(help_text="Arrival order in the championship.")
    status = serializers.ChoiceField(choices=Entry.Status.choices)
    waiting_number = serializers.IntegerField(
        allow_null=True, help_text="Its number on the waiting list; null when it holds a place."
    )
    team = EntryTeamSerializer()
    link = serializers.CharField(
        help_text="The team's personal link: keep it, it is shown only here."
    )
    emailed = serializers.BooleanField(help_text="Whether the link was mailed to `email`.")
    fee = FeeSerializer(
        allow_null=True, help_text="The entry fee to pay (how: the entry page); null: free."
    )


class EntryReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(
        max_length=500,
        required=False,
        allow_blank=True,
        default="",
        style=MULTILINE,
        help_text="Read by the team.",
    )


class EntryPaidSerializer(serializers.Serializer):
    paid = serializers.BooleanField(default=True)
