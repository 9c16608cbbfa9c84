"""An entry fee has a currency, written as each language writes money wherever a fee or a
sum appears (the entry form, the team's link, the organiser's entries page, the poster,
the audit CSV, the API); a team gone after paying is "to refund" until the organiser marks
the fee given back, an act of the audit log."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from tests.api.conftest import V1, client_for
from tests.tournaments.entries.conftest import enter
from tournaments.entries import fees, money, selectors, services
from tournaments.entries.services import link_issue
from tournaments.models import Entry, TeamAct

NBSP = "\xa0"


@pytest.mark.parametrize(
    ("amount", "code", "language", "written"),
    [
        ("10", "EUR", "es", f"10{NBSP}€"),
        ("10", "EUR", "ca", f"10{NBSP}€"),
        ("10", "EUR", "en", "€10"),
        ("12.5", "EUR", "es", f"12,50{NBSP}€"),
        ("12.5", "USD", "en", "$12.50"),
        ("12.5", "USD", "es", f"12,50{NBSP}US$"),
        ("1500", "ARS", "es", f"1500{NBSP}ARS"),
        ("15000", "ARS", "es", f"15{NBSP}000{NBSP}ARS"),
        ("15000", "ARS", "ca", f"15.000{NBSP}ARS"),
        ("15000", "ARS", "en", f"ARS{NBSP}15,000"),
        ("5000", "CLP", "en", f"CLP{NBSP}5,000"),
    ],
)
def test_an_amount_as_each_language_writes_it(amount, code, language, written):
    assert money.money(Decimal(amount), code, language) == written


def _fee(championship, fee="10", currency="EUR"):
    policy = championship.entry_policy
    policy.fee, policy.currency = Decimal(fee), currency
    policy.save()


def test_the_organiser_chooses_the_currency_and_a_strange_one_is_refused(open_championship):
    services.entry_policy_set(
        championship=open_championship,
        by=None,
        is_open=True,
        capacity=4,
        closes_at=None,
        asks=[],
        fee=Decimal("15000"),
        currency="ARS",
        fee_instructions="",
    )
    assert open_championship.entry_policy.currency == "ARS"
    with pytest.raises(services.TournamentError) as refused:
        services.entry_policy_set(
            championship=open_championship,
            by=None,
            is_open=True,
            capacity=4,
            closes_at=None,
            asks=[],
            fee=Decimal("10"),
            currency="XYZ",
            fee_instructions="",
        )
    assert refused.value.code == "entry_currency"


def test_a_withdrawn_paid_team_leaves_the_fees_collected_and_is_to_refund(
    open_championship, organiser
):
    _fee(open_championship)
    first, second = enter(open_championship), enter(open_championship)
    for entry in (first, second):
        fees.entry_set_paid(entry=entry, paid=True, by=organiser, via="organiser")
    services.entry_withdraw(team=second.team, via="organiser", by=organiser)

    def counts():
        listed = selectors.entries_for_organiser(open_championship)
        return selectors.entry_counts(listed, selectors.entry_policy(open_championship))

    before = counts()
    assert (before.paid, before.collected) == (1, Decimal("10"))
    assert (before.to_refund, before.refund_due) == (1, Decimal("10"))
    second.refresh_from_db()
    assert second.to_refund

    with pytest.raises(services.TournamentError):  # a team still in has nothing to refund
        fees.entry_set_refunded(entry=first, by=organiser, via="organiser")
    fees.entry_set_refunded(entry=second, by=organiser, via="organiser")
    fees.entry_set_refunded(entry=second, by=organiser, via="organiser")  # twice: once
    after = counts()
    assert (after.paid, after.collected, after.to_refund) == (1, Decimal("10"), 0)
    refund = TeamAct.objects.get(action="refunded")
    assert (refund.team, refund.via, refund.by, refund.detail) == (
        second.team,
        "organiser",
        organiser,
        "10.00 EUR",
    )
    assert TeamAct.objects.filter(action="paid").first().detail == "10.00 EUR"


def test_the_pages_write_the_fee_in_its_currency(client, open_championship, organiser):
    _fee(open_championship, "15000", "ARS")
    entry = enter(open_championship)
    fees.entry_set_paid(entry=entry, paid=True, by=organiser, via="organiser")
    form = client.get(reverse("tournaments:enter", args=[open_championship.slug]), **ES)
    assert f"15{NBSP}000{NBSP}ARS" in form.content.decode()
    client.force_login(organiser)
    page = client.get(reverse("organiser:entries", args=[open_championship.slug]), **EN)
    assert f'id="count-collected">ARS{NBSP}15,000<' in page.content.decode()
    poster = client.get(reverse("organiser:entries_poster", args=[open_championship.slug]), **CA)
    assert f"15.000{NBSP}ARS" in poster.content.decode()
    ca = client.get(reverse("organiser:entries", args=[open_championship.slug]), **CA)
    assert '<option value="ARS" selected>' in ca.content.decode()


ES = {"HTTP_ACCEPT_LANGUAGE": "es"}
CA = {"HTTP_ACCEPT_LANGUAGE": "ca"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def test_the_organiser_marks_a_gone_teams_fee_refunded(client, open_championship, organiser):
    _fee(open_championship)
    entry = enter(open_championship)
    fees.entry_set_paid(entry=entry, paid=True, by=organiser, via="organiser")
    services.entry_withdraw(team=entry.team, via="link")
    client.force_login(organiser)
    url = reverse("organiser:entries", args=[open_championship.slug])
    page = client.get(url, **EN).content.decode()
    assert f'id="to-refund-{entry.pk}"' in page
    assert 'id="count-to-refund">€10 (one team)<' in page
    client.post(
        reverse("organiser:entry_act", args=[open_championship.slug, entry.pk, "refunded"]), **EN
    )
    assert Entry.objects.get(pk=entry.pk).refunded_at is not None
    page = client.get(url, **EN).content.decode()
    assert f'id="to-refund-{entry.pk}"' not in page and "Refunded" in page
    assert TeamAct.objects.filter(action="refunded", by=organiser).exists()


def test_the_team_reads_its_fee_and_what_is_owed(client, open_championship, organiser):
    _fee(open_championship, "12.50")
    entry = enter(open_championship)
    url = reverse(
        "tournaments:team_link",
        args=[open_championship.slug, link_issue(team=entry.team, via="organiser")],
    )
    page = client.get(url, **ES).content.decode()
    assert f"12,50{NBSP}€" in page and 'id="fee-status"' in page
    fees.entry_set_paid(entry=entry, paid=True, by=organiser, via="organiser")
    services.entry_withdraw(team=entry.team, via="link")
    owed = client.get(url, **EN).content.decode()
    assert "the organiser owes you the fee back" in owed


def test_the_api_gives_the_fee_as_a_number_with_its_currency(open_championship, organiser):
    _fee(open_championship, "12.50", "USD")
    entry = enter(open_championship)
    fees.entry_set_paid(entry=entry, paid=True, by=organiser, via="organiser")
    services.entry_withdraw(team=entry.team, via="link")
    api = client_for(organiser)
    listed = api.get(f"{V1}/championships/{open_championship.slug}/entries/").json()
    line = listed["results"][0]
    assert line["fee"] == {"amount": 12.5, "currency": "USD"}
    assert (line["paid"], line["to_refund"], line["refunded_at"]) == (True, True, None)
    answer = api.post(f"{V1}/entries/{entry.pk}/refunded/")
    assert answer.status_code == 200
    assert answer.json()["to_refund"] is False and answer.json()["refunded_at"]
    assert TeamAct.objects.get(action="refunded").via == "api"
    entered = client_for().post(
        f"{V1}/championships/{open_championship.slug}/entries/",
        {"team_name": "Nuevos", "players": [{"name": "Ana"}, {"name": "Juan"}]},
        format="json",
    )
    assert entered.json()["fee"] == {"amount": 12.5, "currency": "USD"}
