"""``{{ amount|money:currency }}``: an amount in its currency as the reader's language
writes it ("10 €", "€10", "15.000 ARS"; ``entries.money``)."""

from __future__ import annotations

from decimal import Decimal

from django import template

from tournaments.entries.money import money as written

register = template.Library()


@register.filter
def money(amount: Decimal | None, currency: str) -> str:
    return "" if amount is None else written(amount, currency or "EUR")
