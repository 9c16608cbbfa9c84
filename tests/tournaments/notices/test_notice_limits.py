"""What bounds the notices: a round called twice in a minute tells each team once, a team
is sent at most ``TEAM_PER_HOUR`` an hour, a championship ``MESSAGES_PER_HOUR`` messages;
the organiser's message is plain text of bounded length; a failing mail server delays the
notices, never the act; a batch for 400 teams is queued, not sent inside the request."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage

from tests.tournaments.notices.conftest import entered, round_of
from tournaments.models import Entry, Notice, NoticeMark, Team
from tournaments.notices import services, tasks
from tournaments.notices.delivery import MAX_ATTEMPTS


def test_a_round_called_twice_in_a_minute_tells_each_team_once(
    championship, organiser, django_capture_on_commit_callbacks
):
    matches = round_of(championship, ["en"] * 4)
    with django_capture_on_commit_callbacks(execute=True):
        first = services.round_call(round_=matches[0].round, by=organiser)
        again = services.round_call(round_=matches[0].round, by=organiser)
    assert len(first) == 4 and again == []
    assert len(mail.outbox) == 4
    # A minute later, calling it again tells them again (the table may have changed).
    NoticeMark.objects.update(last_at=NoticeMark.objects.first().last_at - dt.timedelta(minutes=2))
    with django_capture_on_commit_callbacks(execute=True):
        assert len(services.round_call(round_=matches[0].round, by=organiser)) == 4
    assert len(mail.outbox) == 8


def test_a_bye_is_not_called(championship, organiser):
    matches = round_of(championship, ["en"] * 3)  # three teams: one has a bye
    (played,) = [m for m in matches if m.team_b_id is not None]
    told = services.round_call(round_=played.round, by=organiser)
    assert {n.team_id for n in told} == {played.team_a_id, played.team_b_id}
    assert {n.match_id for n in told} == {played.pk}


def test_a_team_is_sent_at_most_its_hourly_share(championship, organiser, monkeypatch):
    monkeypatch.setattr(services, "TEAM_PER_HOUR", 3)
    (match,) = round_of(championship, ["en", "en"])
    for n in range(5):
        services.message_send(championship=championship, text=f"News {n}", by=organiser)
    assert Notice.objects.filter(team=match.team_a).count() == 3


def test_a_championship_sends_a_bounded_number_of_messages_an_hour(
    championship, organiser, monkeypatch
):
    monkeypatch.setattr(services, "MESSAGES_PER_HOUR", 2)
    round_of(championship, ["en", "en"])
    services.message_send(championship=championship, text="One", by=organiser)
    services.message_send(championship=championship, text="Two", by=organiser)
    with pytest.raises(ValidationError) as refused:
        services.message_send(championship=championship, text="Three", by=organiser)
    assert refused.value.code == "messages_limit"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "message_empty"),
        ("   \n ", "message_empty"),
        ("x" * (services.MESSAGE_MAX + 1), "message_long"),
        ("Table 4\x1b[2J", "control_characters"),
        ("Table 4\x00", "control_characters"),
        ("Bcc: all@example.org\u202e", "control_characters"),
    ],
)
def test_a_message_that_is_not_short_plain_text_is_refused_and_nothing_queued(
    championship, organiser, text, code
):
    round_of(championship, ["en", "en"])
    with pytest.raises(ValidationError) as refused:
        services.message_send(championship=championship, text=text, by=organiser)
    assert refused.value.code == code
    assert not Notice.objects.exists()


def test_no_header_is_injected_through_a_name(
    championship, organiser, django_capture_on_commit_callbacks
):
    # A name stored before the rule on control characters, with a header after a line break.
    (match,) = round_of(championship, ["en", "en"])
    Team.objects.filter(pk=match.team_a_id).update(name="Pardos\r\nBcc: all@example.org")
    championship.name = "Copa\nX-Evil: 1"
    championship.save()
    match.team_a.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        services.round_call(round_=match.round, by=organiser)
    assert len(mail.outbox) == 2
    for message in mail.outbox:
        sent = message.message()
        assert sent["Bcc"] is None and sent["X-Evil"] is None
        assert "\n" not in message.subject and "\r" not in message.subject
        assert message.recipients() == message.to


def test_a_failing_mail_server_delays_the_notices_never_the_act(
    championship, organiser, monkeypatch, django_capture_on_commit_callbacks
):
    (match,) = round_of(championship, ["en", "en"])

    def refuse(self, fail_silently=False):
        raise ConnectionRefusedError("smtp.example.org refused team1@example.org")

    monkeypatch.setattr(EmailMessage, "send", refuse)
    with django_capture_on_commit_callbacks(execute=True):
        told = services.round_call(round_=match.round, by=organiser)  # no error
    assert len(told) == 2
    notice = Notice.objects.first()
    assert notice.state == Notice.State.QUEUED and notice.attempts == 1
    assert notice.failure == "ConnectionRefusedError"  # not the server's words
    # The server comes back: the beat's resend sends them.
    monkeypatch.undo()
    Notice.objects.update(created_at=notice.created_at - dt.timedelta(minutes=5))
    assert tasks.resend_notices() == 2
    assert len(mail.outbox) == 2
    assert set(Notice.objects.values_list("state", flat=True)) == {Notice.State.SENT}


def test_a_notice_that_keeps_failing_is_marked_failed(championship, organiser, monkeypatch):
    (match,) = round_of(championship, ["en", "en"])
    monkeypatch.setattr(EmailMessage, "send", lambda self, fail_silently=False: 1 / 0)
    services.round_call(round_=match.round, by=organiser)
    ids = list(Notice.objects.values_list("pk", flat=True))
    for _ in range(MAX_ATTEMPTS + 2):
        tasks.send_notices(ids)
    assert set(Notice.objects.values_list("state", flat=True)) == {Notice.State.FAILED}
    assert set(Notice.objects.values_list("attempts", flat=True)) == {MAX_ATTEMPTS}


def test_a_message_to_400_teams_is_queued_in_chunks_not_sent_in_the_request(
    championship, organiser, monkeypatch, django_capture_on_commit_callbacks
):
    teams = Team.objects.bulk_create(
        Team(championship=championship, name=f"Team {n}") for n in range(400)
    )
    Entry.objects.bulk_create(
        Entry(
            championship=championship,
            team=team,
            status=Entry.Status.ACCEPTED,
            position=n + 1,
            email=f"t{n}@example.org",
            language="ca",
        )
        for n, team in enumerate(teams)
    )
    queued: list[list[int]] = []
    monkeypatch.setattr(tasks.send_notices, "delay", queued.append)
    with django_capture_on_commit_callbacks(execute=True):
        told = services.message_send(
            championship=championship, text="Sorteig a les 9", by=organiser
        )
    assert len(told) == 400 and mail.outbox == []
    assert [len(chunk) for chunk in queued] == [tasks.CHUNK] * (400 // tasks.CHUNK)
    assert Notice.objects.filter(state=Notice.State.QUEUED).count() == 400
    assert len({n.batch for n in told}) == 1


def test_a_broker_away_leaves_the_notices_queued_and_the_act_done(
    championship, organiser, monkeypatch, django_capture_on_commit_callbacks
):
    (match,) = round_of(championship, ["en", "en"])

    def away(*args):
        raise ConnectionError("broker away")

    monkeypatch.setattr(tasks.send_notices, "delay", away)
    with django_capture_on_commit_callbacks(execute=True):
        services.round_call(round_=match.round, by=organiser)
    assert Notice.objects.filter(state=Notice.State.QUEUED).count() == 2


def test_teams_without_an_address_are_not_told(championship, organiser):
    entered(championship, email="")
    entered(championship, status=Entry.Status.WITHDRAWN)
    reached = entered(championship)
    told = services.message_send(championship=championship, text="Hi", by=organiser)
    assert [n.team_id for n in told] == [reached.pk]


def test_nothing_is_told_while_notices_are_muted_as_when_the_demo_loads(
    championship, organiser, django_capture_on_commit_callbacks
):
    (match,) = round_of(championship, ["en", "en"])
    with django_capture_on_commit_callbacks(execute=True), services.notices_muted():
        assert services.round_call(round_=match.round, by=organiser) == []
    assert mail.outbox == [] and not Notice.objects.exists()
    assert len(services.round_call(round_=match.round, by=organiser)) == 2
