"""Online entry's pages: the public form and its answer, the organiser's entries page and
the poster (tournaments/web/players/entry.py, tournaments/web/organiser/entries.py)."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.core import mail
from django.urls import reverse

from tests.tournaments.entries.conftest import enter
from tests.tournaments.factories import ChampionshipFactory, UserFactory
from tournaments.entries import services
from tournaments.models import Championship, Entry, Team, TeamAct
from tournaments.web.organiser.printing import pdf_unavailable_reason


@pytest.fixture(autouse=True)
def in_english(client):
    """The pages in English (the site's default is Spanish)."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"


@pytest.fixture(autouse=True)
def own_cache(settings):
    """The sendings are counted in a cache of the test's own."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"entries-{id(settings)}",
        }
    }


def _url(championship) -> str:
    return reverse("tournaments:enter", args=[championship.slug])


def _form(client, championship) -> dict:
    """What the page serves: its one-time key, as a browser would send it back."""
    page = client.get(_url(championship)).content.decode()
    key = re.search(r'name="form_key" value="([^"]+)"', page).group(1)
    return {"form_key": key}


def _ask(championship, *questions, **changes) -> None:
    policy = championship.entry_policy
    policy.asks = list(questions)
    for name, value in changes.items():
        setattr(policy, name, value)
    policy.save()


def test_the_form_has_a_row_per_player_and_only_the_questions_asked(client, open_championship):
    _ask(open_championship, "licence")
    page = client.get(_url(open_championship)).content.decode()
    assert 'name="player_1"' in page and 'name="player_2"' in page
    assert 'name="player_3"' not in page
    assert 'name="licence_1"' in page and 'name="licence_2"' in page
    for absent in ("email", "phone", "club", "captain"):
        assert f'name="{absent}"' not in page
    assert "0 of 4 places taken." in page


def test_the_page_costs_a_fixed_number_of_queries(
    client, open_championship, django_assert_max_num_queries
):
    for _ in range(6):
        enter(open_championship)
    with django_assert_max_num_queries(3):
        response = client.get(_url(open_championship))
    assert response.status_code == 200
    assert response["Cache-Control"].startswith("max-age=0")
    assert "no-store" in response["Cache-Control"]


def test_a_full_championship_says_so_before_anyone_types(client, open_championship):
    for _ in range(5):
        enter(open_championship)
    page = client.get(_url(open_championship)).content.decode()
    assert "4 of 4 places taken: you will be on the waiting list, number 2." in page
    assert "Join the waiting list" in page


@pytest.mark.parametrize("how", ["closed", "started"])
def test_closed_entries_are_stated_and_a_sending_is_refused(client, open_championship, how):
    data = {**_form(client, open_championship), "team_name": "Tarde", "player_1": "A"}
    if how == "closed":
        _ask(open_championship, is_open=False)
        sentence = "Entries are not open"
    else:
        Championship.objects.filter(pk=open_championship.pk).update(
            status=Championship.Status.RUNNING
        )
        sentence = "The championship has started: entries are closed."
    page = client.get(_url(open_championship)).content.decode()
    assert sentence in page and 'name="team_name"' not in page
    response = client.post(_url(open_championship), {**data, "player_2": "B"})
    assert sentence in response.content.decode()
    assert not Entry.objects.exists()


def test_a_draft_has_no_entry_page(client, db):
    draft = ChampionshipFactory(status=Championship.Status.DRAFT)
    assert client.get(_url(draft)).status_code == 404


def test_a_bad_team_gets_each_problem_beside_its_field_and_keeps_what_was_typed(
    client, open_championship
):
    _ask(open_championship, "email", "licence")
    data = {
        **_form(client, open_championship),
        "team_name": "Los Pardos",
        "player_1": "Ana Ruiz",
        "licence_1": "",
        "player_2": "",
        "licence_2": "L-77",
        "email": "ana@",
    }
    response = client.post(_url(open_championship), data)
    page = response.content.decode()
    assert response.status_code == 200
    for sentence in (
        "Player 2 needs a name.",
        "Give the licence number of player 1.",
        "This email address is not valid.",
    ):
        assert sentence in page
    assert 'value="Los Pardos"' in page and 'value="Ana Ruiz"' in page
    assert 'value="L-77"' in page and 'value="ana@"' in page
    # The sentence sits in its field's block, after the input it is about.
    block = page[page.index('name="player_2"') :]
    assert block.index("Player 2 needs a name.") < block.index('name="licence_2"')
    assert not Team.objects.filter(championship=open_championship).exists()


def test_a_catalan_squad_chooses_its_cap_de_colla(client, db):
    championship = ChampionshipFactory(
        slug="colla",
        status=Championship.Status.REGISTRATION,
        rules={"preset": "catalan"},
        team_size=3,
    )
    services.entry_policy_set(
        championship=championship,
        by=None,
        is_open=True,
        capacity=None,
        closes_at=None,
        asks=[],
        fee=None,
        fee_instructions="",
    )
    data = {
        **_form(client, championship),
        "team_name": "La Colla",
        "player_1": "Pere",
        "player_2": "Joan",
        "player_3": "Marta",
    }
    page = client.post(_url(championship), data).content.decode()
    assert "Team La Colla needs a cap de colla." in page
    client.post(_url(championship), {**data, "captain": "2"})
    team = Team.objects.get(name="La Colla")
    assert team.memberships.get(is_captain=True).player.name == "Joan"


def test_the_link_is_shown_once_and_mailed_when_an_address_is_given(client, open_championship):
    _ask(open_championship, "email", fee=Decimal("20"), fee_instructions="Bizum al 600 000 000")
    data = {
        **_form(client, open_championship),
        "team_name": "Los Pardos",
        "player_1": "Ana",
        "player_2": "Juan",
        "email": "ana@example.com",
    }
    response = client.post(_url(open_championship), data)
    page = response.content.decode()
    assert "no-store" in response["Cache-Control"]
    link = re.search(r'id="team-link-text" type="text" value="([^"]+)"', page).group(1)
    assert link.startswith(f"http://testserver/c/{open_championship.slug}/team/")
    assert "Los Pardos is entered." in page
    assert "We sent it to ana@example.com too." in page
    assert "Bizum al 600 000 000" in page
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["ana@example.com"]
    assert link in mail.outbox[0].body
    token = link.rstrip("/").rsplit("/", 1)[1]
    assert services.link_team(slug=open_championship.slug, token=token).name == "Los Pardos"
    # The same form sent again (a double tap): the same team, no second message.
    again = client.post(_url(open_championship), data).content.decode()
    assert "Los Pardos is entered." in again
    assert Team.objects.filter(championship=open_championship).count() == 1
    assert len(mail.outbox) == 1


def test_without_an_address_the_link_is_only_shown(client, open_championship):
    for _ in range(4):
        enter(open_championship)
    data = {
        **_form(client, open_championship),
        "team_name": "Quinto",
        "player_1": "Ana",
        "player_2": "Juan",
    }
    page = client.post(_url(open_championship), data).content.decode()
    assert "Quinto is on the waiting list, number 1." in page
    assert 'id="team-link-text"' in page
    assert "We sent it" not in page and not mail.outbox


def test_a_mail_that_fails_only_says_so(client, open_championship, settings):
    settings.EMAIL_BACKEND = "tests.tournaments.entries.test_entry_pages.BrokenMail"
    _ask(open_championship, "email")
    data = {
        **_form(client, open_championship),
        "team_name": "Los Pardos",
        "player_1": "Ana",
        "player_2": "Juan",
        "email": "ana@example.com",
    }
    page = client.post(_url(open_championship), data).content.decode()
    assert "The email could not be sent: copy the link now." in page
    assert 'id="team-link-text"' in page
    assert Entry.objects.count() == 1


class BrokenMail:
    def __init__(self, *args, **kwargs):
        pass

    def send_messages(self, messages):
        raise OSError("no mail server")


def test_too_many_sendings_from_one_address_get_a_429_with_a_sentence(
    client, open_championship, settings
):
    settings.ENTRY_FORM_LIMIT = 2
    data = {**_form(client, open_championship), "team_name": "", "player_1": "A", "player_2": "B"}
    for _ in range(2):
        assert client.post(_url(open_championship), data).status_code == 200
    response = client.post(_url(open_championship), {**data, "team_name": "Tercero"})
    assert response.status_code == 429
    page = response.content.decode()
    assert "Too many entries were sent from your connection: wait 10 minutes" in page
    assert 'value="Tercero"' in page
    assert not Entry.objects.exists()
    # Another address is not held up.
    other = client.post(
        _url(open_championship), {**data, "team_name": "Otro"}, REMOTE_ADDR="10.0.0.9"
    )
    assert other.status_code == 200 and Entry.objects.count() == 1


def test_the_championship_page_links_to_the_form_while_entries_are_open(client, open_championship):
    page = client.get(reverse("tournaments:championship", args=[open_championship.slug]))
    assert _url(open_championship) in page.content.decode()
    _ask(open_championship, is_open=False)
    page = client.get(reverse("tournaments:championship", args=[open_championship.slug]))
    assert _url(open_championship) not in page.content.decode()


# -- the organiser's page -------------------------------------------------------------------


def _entries_url(championship) -> str:
    return reverse("organiser:entries", args=[championship.slug])


def _act(client, championship, entry, act, **data):
    url = reverse("organiser:entry_act", args=[championship.slug, entry.pk, act])
    return client.post(url, data)


def test_the_organiser_sets_the_policy_in_the_championships_zone(client, organiser, db):
    championship = organiser.organised_championships.get()
    Championship.objects.filter(pk=championship.pk).update(time_zone="America/Argentina/Cordoba")
    client.force_login(organiser)
    response = client.post(
        _entries_url(championship),
        {
            "is_open": "on",
            "capacity": "16",
            "closes_at": "2099-06-01T20:00",
            "asks": ["club", "email"],
            "fee": "15",
            "fee_instructions": "En la sede",
        },
    )
    assert response.status_code == 302
    policy = Championship.objects.get(pk=championship.pk).entry_policy
    assert policy.capacity == 16 and policy.asks == ["club", "email"]
    assert policy.closes_at.isoformat() == "2099-06-01T23:00:00+00:00"  # 20:00 in Córdoba
    page = client.get(_entries_url(championship)).content.decode()
    assert 'value="2099-06-01T20:00"' in page
    refused = client.post(_entries_url(championship), {"is_open": "on", "capacity": "0"})
    assert "The capacity is at least one team" in refused.content.decode()


def test_the_organiser_answers_each_entry_and_it_is_in_the_audit_log(
    client, open_championship, organiser
):
    open_championship.entry_policy.fee = Decimal("10")
    open_championship.entry_policy.save()
    first, second, third, _fourth, fifth = (enter(open_championship) for _ in range(5))
    client.force_login(organiser)
    page = client.get(_entries_url(open_championship)).content.decode()
    assert first.team.name in page and 'id="waiting"' in page
    assert page.index(first.team.name) < page.index(second.team.name)
    assert 'id="count-entered">4 of 4<' in page and 'id="count-waiting">1<' in page

    assert _act(client, open_championship, first, "accept").status_code == 302
    _act(client, open_championship, first, "paid")
    _act(client, open_championship, second, "refuse", reason="")  # refused: no reason
    assert Entry.objects.get(pk=second.pk).status == "pending"
    _act(client, open_championship, second, "refuse", reason="Duplicated team")
    _act(client, open_championship, third, "withdraw", reason="They cannot come")
    statuses = dict(Entry.objects.values_list("position", "status"))
    assert statuses == {1: "accepted", 2: "refused", 3: "withdrawn", 4: "pending", 5: "pending"}
    assert Entry.objects.get(pk=first.pk).paid
    acts = set(
        TeamAct.objects.filter(via="organiser", by=organiser).values_list("team_name", "action")
    )
    assert {
        (first.team.name, "accepted"),
        (first.team.name, "paid"),
        (second.team.name, "refused"),
        (third.team.name, "withdrawn"),
        (fifth.team.name, "promoted"),
    } <= acts
    page = client.get(_entries_url(open_championship)).content.decode()
    assert 'id="count-paid">1<' in page and 'id="count-collected">€10<' in page
    assert "Duplicated team" in page


def test_strangers_cannot_see_or_answer_entries(client, open_championship, organiser):
    entry = enter(open_championship)
    urls = [
        _entries_url(open_championship),
        reverse("organiser:entries_poster", args=[open_championship.slug]),
    ]
    for url in urls:
        assert client.get(url).status_code == 302  # to the login
    assert _act(client, open_championship, entry, "accept").status_code == 302
    client.force_login(UserFactory(username="someone-else"))
    for url in urls:
        assert client.get(url).status_code == 404
    assert _act(client, open_championship, entry, "accept").status_code == 404
    assert Entry.objects.get(pk=entry.pk).status == "pending"
    client.force_login(organiser)
    assert (
        client.get(
            reverse("organiser:entry_act", args=[open_championship.slug, entry.pk, "accept"])
        ).status_code
        == 405
    )


def test_the_poster_has_the_entry_address_and_its_qr_code(client, open_championship, organiser):
    open_championship.entry_policy.fee = Decimal("15")
    open_championship.entry_policy.save()
    client.force_login(organiser)
    page = client.get(reverse("organiser:entries_poster", args=[open_championship.slug]))
    html = page.content.decode()
    assert "<svg" in html and "http://testserver/c/copa-abierta/enter/" in html
    assert "15 per team" in html and "Copa Abierta" in html
    if pdf_unavailable_reason() is not None:
        pytest.skip(pdf_unavailable_reason())
    pdf = client.get(reverse("organiser:entries_poster_pdf", args=[open_championship.slug]))
    assert pdf["Content-Type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF")
