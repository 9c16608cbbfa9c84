"""Money: the currencies an entry fee may be in (ISO 4217 codes, the organiser's choice)
and an amount as each of the site's languages writes it.

Spanish and Catalan put the symbol after the amount and write a decimal comma ("10 €",
"12,50 US$", "15.000 ARS"); English puts it before with a decimal point ("€10", "$12.50",
"ARS 15,000"). A whole amount shows no cents. Data files (CSV) and the API carry the amount
and the code instead (:func:`money_data`), never a symbol.

>>> from decimal import Decimal
>>> money(Decimal("1500"), "EUR", "es"), money(Decimal("12.5"), "USD", "en")
('1500\\xa0€', '$12.50')
>>> money(Decimal("15000"), "ARS", "ca"), money(Decimal("15000"), "ARS", "en")
('15.000\\xa0ARS', 'ARS\\xa015,000')
>>> money_data(Decimal("10"), "EUR")
'10.00 EUR'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.utils import formats, numberformat
from django.utils.functional import Promise
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

NBSP = "\xa0"
DEFAULT = "EUR"


@dataclass(frozen=True)
class Currency:
    """A currency: its ISO 4217 code, its name, its minor units and its symbol in each
    language (the code where a language has none of its own, as CLDR writes them)."""

    code: str
    name: Promise | str
    decimals: int = 2
    symbols: dict[str, str] = field(default_factory=dict)

    def symbol(self, language: str) -> str:
        return self.symbols.get(language, self.code)


# The currencies of the countries where truco is played, and a few more.
CURRENCIES = {
    c.code: c
    for c in (
        Currency("EUR", _("euro"), symbols={"es": "€", "ca": "€", "en": "€"}),
        Currency("ARS", _("Argentine peso")),
        Currency("UYU", _("Uruguayan peso")),
        Currency("USD", _("US dollar"), symbols={"es": "US$", "en": "$"}),
        Currency("CLP", _("Chilean peso"), decimals=0),
        Currency("PYG", _("Paraguayan guaraní"), decimals=0),
        Currency("BRL", _("Brazilian real"), symbols={"en": "R$"}),
        Currency("MXN", _("Mexican peso"), symbols={"en": "MX$"}),
        Currency("GBP", _("pound sterling"), symbols={"ca": "£", "en": "£"}),
        Currency("CHF", _("Swiss franc")),
    )
}


def currency_choices() -> list[tuple[str, str]]:
    """The organiser's choice: "EUR · euro", in the order above."""
    return [(code, f"{code} · {currency.name}") for code, currency in CURRENCIES.items()]


def _digits(amount: Decimal, currency: Currency, language: str) -> str:
    places = Decimal(1).scaleb(-currency.decimals)
    amount = amount.quantize(places)
    whole = amount == amount.to_integral_value()
    # Spanish groups the thousands from five digits on (1500, 15.000: the RAE's rule).
    grouped = not (language == "es" and abs(amount) < 10000)
    return numberformat.format(
        amount,
        formats.get_format("DECIMAL_SEPARATOR", language),
        decimal_pos=0 if whole else currency.decimals,
        grouping=3 if grouped else 0,
        thousand_sep=formats.get_format("THOUSAND_SEPARATOR", language),
        force_grouping=grouped,
    )


def money(amount: Decimal, code: str, language: str | None = None) -> str:
    """``amount`` in ``code`` as ``language`` (default: the active one) writes it."""
    language = (language or get_language() or "es").split("-")[0]
    currency = CURRENCIES.get(code) or Currency(code, code)
    digits = _digits(Decimal(amount), currency, language)
    symbol = currency.symbol(language)
    if language == "en":
        # "$12.50" with a sign, "ARS 15,000" with a code.
        return f"{symbol}{digits}" if not symbol.isalpha() else f"{symbol}{NBSP}{digits}"
    return f"{digits}{NBSP}{symbol}"


def money_data(amount: Decimal, code: str) -> str:
    """``amount`` in ``code`` for a data file: "10.00 EUR" in any language."""
    currency = CURRENCIES.get(code) or Currency(code, code)
    return f"{Decimal(amount).quantize(Decimal(1).scaleb(-currency.decimals))} {code}"
