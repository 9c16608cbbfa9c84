"""A phone turns the team's notifications on or off through the team's link: only an HTTPS
endpoint of a known push service with valid keys is kept (the site will post to it), with
a sentence in the page's language otherwise; each change is in the audit log, never the
endpoint; the page offers the block only when the site has its VAPID keys."""

from __future__ import annotations

import io

import pytest
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.core.management import call_command
from django.urls import reverse
from py_vapid import Vapid

from tests.tournaments.notices.conftest import entered
from tests.tournaments.notices.pushes import Phone, b64url, unb64url
from tournaments.entries import acts
from tournaments.entries.services import link_issue, link_opened, link_revoke
from tournaments.errors import TournamentError
from tournaments.models import Entry, PushSubscription, TeamAct
from tournaments.notices.push import PHONES_MAX, endpoint_digest

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def team(championship):
    return entered(championship, name="Los Pardos")


@pytest.fixture
def url(team):
    token = link_issue(team=team, via="organiser")
    return reverse("tournaments:team_link", args=[team.championship.slug, token])


@pytest.fixture
def phone(push_service):
    return Phone(push_service, "phone")


def posted(client, url, data, language="en"):
    """Post ``data`` through the team's page; the message it answered with."""
    answer = client.post(url, data, HTTP_ACCEPT_LANGUAGE=language, follow=True)
    assert answer.status_code == 200
    return " ".join(str(m) for m in answer.context["messages"])


def test_a_phone_turns_notifications_on_changes_its_kinds_and_turns_them_off(
    client, url, team, phone, vapid
):
    said = posted(client, url, phone.form(["ready", "message", "nonsense"]))
    assert said == "Notifications are on on this phone."
    kept = PushSubscription.objects.get()
    assert (kept.team, kept.kinds, kept.digest) == (
        team,
        ["ready", "message"],
        endpoint_digest(phone.endpoint),
    )
    # The same phone again: its kinds change, it is still one phone.
    posted(client, url, phone.form(["message"]))
    assert PushSubscription.objects.get().kinds == ["message"]
    said = posted(client, url, {"action": "push_off", "endpoint": phone.endpoint})
    assert said == "Notifications are off on this phone."
    assert not PushSubscription.objects.exists()
    # A second "off" changes nothing and writes nothing.
    posted(client, url, {"action": "push_off", "endpoint": phone.endpoint})
    acts_logged = TeamAct.objects.filter(team=team, via="link").order_by("pk")
    assert [(a.action, a.detail) for a in acts_logged] == [
        ("push_on", "Match ready, Organiser's message"),
        ("push_on", "Organiser's message"),
        ("push_off", ""),
    ]
    for act in acts_logged:
        assert phone.endpoint not in act.detail


def test_the_page_recognises_its_phone_by_digest_never_by_endpoint(client, url, phone, vapid):
    posted(client, url, phone.form(["ready"]))
    html = client.get(url, **EN).content.decode()
    assert 'id="push"' in html and "Notifications on this phone" in html
    assert f'data-key="{vapid["public"]}"' in html
    assert endpoint_digest(phone.endpoint) in html
    assert phone.endpoint not in html and phone.path not in html


def test_without_vapid_keys_the_page_offers_nothing_and_a_post_is_refused(
    client, url, phone, settings
):
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    html = client.get(url, **EN).content.decode()
    assert 'id="push"' not in html and "team-push.js" not in html
    settings.PUSH_INSECURE_TEST_HOSTS = ["127.0.0.1"]
    said = posted(client, url, phone.form(["ready"]))
    assert said == "Notifications are not set up on this site."
    assert not PushSubscription.objects.exists()


def phone_digest(phone: Phone) -> str:
    return endpoint_digest(phone.endpoint)


def _form(phone: Phone, **changed: str) -> dict:
    return {**phone.form(["ready"]), **changed}


KEY = b64url(b"\x04" + bytes(64))
COMPRESSED = b64url(b"\x02" + bytes(64))


@pytest.mark.parametrize(
    ("changed", "sentence"),
    [
        ({"endpoint": "http://fcm.googleapis.com/fcm/send/abc"}, "is not secure (https)"),
        ({"endpoint": "https://push.example.org/abc"}, "(push.example.org) is not one"),
        ({"endpoint": "https://127.0.0.1/abc"}, "(127.0.0.1) is not one"),
        ({"endpoint": "https://fcm.googleapis.com.example.org/x"}, "is not one"),
        ({"endpoint": "https://evilnotify.windows.com/w/"}, "is not one"),
        ({"endpoint": "https://fcm.googleapis.com:8443/fcm/send/abc"}, "is not one"),
        ({"endpoint": "https://me@fcm.googleapis.com/fcm/send/abc"}, "is not a web address"),
        ({"endpoint": "javascript:alert(1)"}, "is not a web address"),
        ({"endpoint": "https://fcm.googleapis.com/" + "a" * 1000}, "missing or too long"),
        ({"endpoint": ""}, "missing or too long"),
        ({"p256dh": b64url(bytes(64))}, "keys are not valid"),
        ({"p256dh": COMPRESSED}, "keys are not valid"),
        ({"p256dh": KEY + "!"}, "keys are not valid"),
        ({"auth": b64url(bytes(15))}, "keys are not valid"),
        ({"auth": ""}, "keys are not valid"),
    ],
)
def test_an_endpoint_the_site_would_not_post_to_or_bad_keys_are_refused(
    client, url, team, phone, vapid, changed, sentence
):
    said = posted(client, url, _form(phone, **changed))
    assert sentence in said
    assert not PushSubscription.objects.exists()
    assert not TeamAct.objects.filter(team=team, action="push_on").exists()


def test_the_known_push_services_are_accepted_over_https(team, url, phone, vapid):
    link = team.links.get()
    for endpoint in (
        "https://fcm.googleapis.com/fcm/send/dXZ",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAA",
        "https://wns2-par02p.notify.windows.com/w/?token=BQYAAA",
        "https://web.push.apple.com/QGx",
        "https://api.push.apple.com/3/device/abc",
    ):
        acts.link_push_on(
            link=link, endpoint=endpoint, p256dh=phone.p256dh, auth=phone.auth, kinds=["ready"]
        )
    assert PushSubscription.objects.filter(team=team).count() == 5


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("es", "La dirección de notificaciones de este móvil no es segura (https)"),
        ("ca", "L'adreça de notificacions d'aquest mòbil no és segura (https)"),
        ("en", "This phone's push address is not secure (https)"),
    ],
)
def test_the_refusal_is_said_in_the_pages_language(client, url, phone, vapid, language, sentence):
    form = _form(phone, endpoint="http://fcm.googleapis.com/fcm/send/abc")
    assert sentence in posted(client, url, form, language=language)


def test_a_phone_with_no_kind_chosen_is_asked_to_choose(client, url, phone, vapid):
    said = posted(client, url, phone.form([]))
    assert said == "Choose what this phone is told, or turn its notifications off."
    assert not PushSubscription.objects.exists()


def test_a_team_has_a_bounded_number_of_phones(team, url, push_service, vapid):
    link = team.links.get()
    for n in range(PHONES_MAX):
        other = Phone(push_service, f"phone-{n}")
        acts.link_push_on(
            link=link,
            endpoint=other.endpoint,
            p256dh=other.p256dh,
            auth=other.auth,
            kinds=["ready"],
        )
    one_more = Phone(push_service, "one-more")
    with pytest.raises(TournamentError) as refused:
        acts.link_push_on(
            link=link,
            endpoint=one_more.endpoint,
            p256dh=one_more.p256dh,
            auth=one_more.auth,
            kinds=["ready"],
        )
    assert refused.value.code == "push_phones"
    assert PushSubscription.objects.count() == PHONES_MAX


def test_a_revoked_link_turns_nothing_on(client, url, team, phone, vapid):
    link_revoke(team=team)
    answer = client.post(url, phone.form(["ready"]), **EN)
    assert answer.status_code == 403
    assert not PushSubscription.objects.exists()


def test_a_withdrawn_team_turns_nothing_on(client, url, team, phone, vapid):
    Entry.objects.filter(team=team).update(status=Entry.Status.WITHDRAWN)
    html = client.get(url, **EN).content.decode()
    assert 'id="push"' not in html
    said = posted(client, url, phone.form(["ready"]))
    assert "has withdrawn" in said
    assert not PushSubscription.objects.exists()


def test_the_subscriptions_of_a_link_go_with_it(url, team, phone, vapid):
    link = link_opened(slug=team.championship.slug, token=url.rstrip("/").rsplit("/", 1)[1])
    acts.link_push_on(
        link=link, endpoint=phone.endpoint, p256dh=phone.p256dh, auth=phone.auth, kinds=["ready"]
    )
    assert (
        str(PushSubscription.objects.get()) == f"{team.pk}: {endpoint_digest(phone.endpoint)[:8]}"
    )
    link.delete()
    assert not PushSubscription.objects.exists()


def test_vapid_keys_prints_a_pair_to_set_in_the_environment(settings):
    out = io.StringIO()
    call_command("vapid_keys", stdout=out)
    lines = dict(line.split("=", 1) for line in out.getvalue().splitlines())
    assert set(lines) == {"VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY", "VAPID_SUBJECT"}
    assert lines["VAPID_SUBJECT"] == settings.VAPID_SUBJECT
    public = unb64url(lines["VAPID_PUBLIC_KEY"])
    assert len(public) == 65 and public[0] == 4
    # The private key is the public one's: what pywebpush signs with, the phones check.
    signer = Vapid.from_string(lines["VAPID_PRIVATE_KEY"])
    assert signer.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint) == public
    # A new pair each time.
    again = io.StringIO()
    call_command("vapid_keys", stdout=again)
    assert again.getvalue() != out.getvalue()
