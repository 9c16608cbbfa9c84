"""Each mail's one-click unsubscribe (``List-Unsubscribe`` with ``List-Unsubscribe-Post``):
a mail program's POST stops the team's mails at once, in the audit log; a GET (a mail
scanner opening links) stops nothing; a forged token stops nobody's."""

from __future__ import annotations

import io
import re

from django.core import mail

from config.logs import ConsoleEmailBackend
from tests.tournaments.notices.conftest import round_of
from tournaments.entries import services as entry_services
from tournaments.models import Entry, Notice, TeamAct
from tournaments.notices import services
from tournaments.notices.delivery import notice_mail
from tournaments.notices.stops import stop_token
from tournaments.notices.tasks import send_notices


def _stop_url(message: mail.EmailMessage) -> str:
    header = message.extra_headers["List-Unsubscribe"]
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert message.message()["List-Unsubscribe"] == header
    url = re.fullmatch(r"<http://localhost:8000(/mails/stop/[^>]+/)>", header)
    assert url, header
    assert url.group(1) in message.body  # and written at the foot, for a person
    return url.group(1)


def test_the_one_click_unsubscribe_stops_the_teams_mails_at_once(
    championship, organiser, client, django_capture_on_commit_callbacks
):
    (match,) = round_of(championship, ["ca", "en"])
    with django_capture_on_commit_callbacks(execute=True):
        services.round_call(round_=match.round, by=organiser)
    catalan = next(m for m in mail.outbox if m.to == [match.team_a.entry.email])
    url = _stop_url(catalan)
    assert "Per no rebre més aquests correus" in catalan.body
    # A scanner's GET shows the page and stops nothing.
    page = client.get(url)
    assert page.status_code == 200 and b'id="mails-stop"' in page.content
    assert page["X-Robots-Tag"] == "noindex, nofollow"
    assert Entry.objects.get(team=match.team_a).notices_stopped_at is None
    # The mail program's one-click POST: no cookie, no CSRF token.
    answer = client.post(url, {"List-Unsubscribe": "One-Click"})
    assert answer.status_code == 200 and b'id="mails-stopped"' in answer.content
    assert Entry.objects.get(team=match.team_a).notices_stopped_at is not None
    act = TeamAct.objects.get(team=match.team_a, action=TeamAct.Action.MAILS_STOPPED)
    assert act.via == TeamAct.Via.MAIL and act.by is None
    client.post(url)  # a second click: done already, logged once
    assert TeamAct.objects.filter(action=TeamAct.Action.MAILS_STOPPED).count() == 1
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.message_send(championship=championship, text="Final at 8", by=organiser)
    assert [m.to for m in mail.outbox] == [[match.team_b.entry.email]]


def test_a_notice_queued_before_the_stop_is_not_sent(championship, organiser, client):
    (match,) = round_of(championship, ["en", "en"])
    services.round_call(round_=match.round, by=organiser)  # queued: not committed yet
    client.post(f"/mails/stop/{stop_token(match.team_a.entry)}/")
    send_notices(list(Notice.objects.values_list("pk", flat=True)))
    assert [m.to for m in mail.outbox] == [[match.team_b.entry.email]]
    states = dict(Notice.objects.values_list("team_id", "state"))
    assert states == {match.team_a.pk: Notice.State.CANCELLED, match.team_b.pk: Notice.State.SENT}


def test_a_forged_token_stops_nothing(championship, client):
    (match,) = round_of(championship, ["en", "en"])
    answer = client.post("/mails/stop/eyJlIjoxfQ:forged:forged/")
    assert answer.status_code == 404
    assert not Entry.objects.filter(notices_stopped_at__isnull=False).exists()
    assert match.team_a.entry.notices_stopped_at is None


def test_the_console_backend_prints_a_notice_with_its_link_and_unsubscribe_hidden(
    championship, organiser
):
    (match,) = round_of(championship, ["en", "en"])
    entry_services.link_issue(team=match.team_a, via=TeamAct.Via.ORGANISER)
    (notice, _other) = sorted(
        services.round_call(round_=match.round, by=organiser), key=lambda n: n.team_id
    )
    entry = match.team_a.entry
    stream = io.StringIO()
    ConsoleEmailBackend(stream=stream).send_messages([notice_mail(notice, entry)])
    printed = stream.getvalue()
    assert "/mails/stop/[hidden]/" in printed and "/team/[hidden]/" in printed
    assert stop_token(entry) not in printed
    assert match.team_a.links.get().token not in printed
