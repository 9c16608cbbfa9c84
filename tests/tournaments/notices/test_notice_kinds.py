"""Every kind of notice reaches the team's address through Django's mail outbox, in the
language the team entered in, from the service where the thing happens; the stored
notice keeps what, to whom and when, never the address nor the link's secret."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.core import mail, signing
from django.utils import timezone

from tests.tournaments.entries.conftest import enter, open_championship  # noqa: F401
from tests.tournaments.factories import UserFactory
from tests.tournaments.notices.conftest import entered, round_of
from tournaments.entries import acts, reports
from tournaments.entries import services as entry_services
from tournaments.models import Entry, Notice, Stage, TeamAct
from tournaments.models.entries import LINK_SALT
from tournaments.notices import services
from tournaments.results import services as result_services
from tournaments.results.services import match_result_correct
from tournaments.stages import league
from tournaments.stages import services as stage_services

A_WINS = [{"score": {"A": 30, "B": 25}}, {"score": {"A": 30, "B": 12}}]
B_WINS = [{"score": {"A": 20, "B": 30}}, {"score": {"A": 11, "B": 30}}]


@pytest.fixture
def host(open_championship):  # noqa: F811
    """The organiser of the championship taking entries."""
    user = UserFactory(username="host")
    open_championship.organisers.add(user)
    return user


def _only_mail() -> mail.EmailMessage:
    assert len(mail.outbox) == 1, [m.subject for m in mail.outbox]
    return mail.outbox[0]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("es", "aceptó la inscripción"),
        ("ca", "ha acceptat la inscripció"),
        ("en", "accepted the entry"),
    ],
)
def test_an_accepted_entry_is_told_in_the_language_the_team_entered_in(
    open_championship,  # noqa: F811
    host,
    django_capture_on_commit_callbacks,
    language,
    words,
):
    from django.utils import translation

    with translation.override(language):
        entry = enter(open_championship, "Los Pardos", email="pardos@example.org")
    assert entry.language == language
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        entry_services.entry_accept(entry=entry, by=host, via=TeamAct.Via.ORGANISER)
    sent = _only_mail()
    assert sent.to == ["pardos@example.org"]
    assert words in sent.body
    assert "Los Pardos" in sent.subject and "Copa Abierta" in sent.subject
    # The team's personal link is in the private mail, as in the entry's own mail...
    # (a token is signed with its time: the mail's is read back, not signed again here)
    link = entry.team.links.get(revoked_at__isnull=True)
    token = re.search(r"/c/copa-abierta/team/([^/\s]+)/", sent.body).group(1)
    assert signing.loads(token, salt=LINK_SALT) == {"l": link.pk}
    # ...and nowhere it is kept: the notice holds what was said, not the link or address.
    notice = Notice.objects.get()
    assert notice.state == Notice.State.SENT and notice.sent_at is not None
    assert notice.kind == Notice.Kind.ACCEPTED and notice.team == entry.team
    stored = f"{notice.subject} {notice.text} {notice.failure}"
    assert token not in stored and "pardos@example.org" not in stored


def test_a_refused_entry_is_told_with_the_reason_and_then_nothing_more(
    open_championship,  # noqa: F811
    host,
    django_capture_on_commit_callbacks,
):
    entry = enter(open_championship, "Los Tardíos", email="tardios@example.org")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        entry_services.entry_refuse(
            entry=entry, by=host, via=TeamAct.Via.ORGANISER, reason="Full at the club"
        )
    assert "Full at the club" in _only_mail().body
    # Its last notice: a message to everyone entered does not reach it.
    with django_capture_on_commit_callbacks(execute=True):
        services.message_send(championship=open_championship, text="Doors at 9", by=host)
    assert len(mail.outbox) == 1
    assert not Notice.objects.filter(kind=Notice.Kind.MESSAGE, team=entry.team).exists()


def test_a_team_moved_up_from_the_waiting_list_is_told(
    open_championship,  # noqa: F811
    host,
    django_capture_on_commit_callbacks,
):
    entries = [enter(open_championship, email=f"t{n}@example.org") for n in range(5)]
    waiting = entries[-1]
    assert waiting.status == Entry.Status.WAITING
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        entry_services.entry_withdraw(team=entries[0].team, via=TeamAct.Via.LINK)
    sent = _only_mail()
    assert sent.to == ["t4@example.org"]
    assert "pasa de la lista de espera" in sent.body  # entered in Spanish, the default


@pytest.mark.parametrize(
    ("language", "words"),
    [("es", "ha comunicado el resultado"), ("ca", "ha comunicat el resultat"), ("en", "reported")],
)
def test_a_result_reported_by_one_team_is_told_to_the_other_only(
    championship, django_capture_on_commit_callbacks, language, words
):
    (match,) = round_of(championship, ["en", language])
    entry_services.link_issue(team=match.team_a, via=TeamAct.Via.ORGANISER)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        reports.link_report(team=match.team_a, match=match, games=A_WINS)
    sent = _only_mail()
    assert sent.to == [match.team_b.entry.email]
    assert words in sent.body and "2–0 (30–25, 30–12)" in sent.body
    assert match.team_a.name in sent.body
    # The same report again tells nobody again.
    with django_capture_on_commit_callbacks(execute=True):
        reports.link_report(team=match.team_a, match=match, games=A_WINS)
    assert len(mail.outbox) == 1


def test_a_result_settled_by_the_organiser_is_told_to_both_teams(
    championship, organiser, django_capture_on_commit_callbacks
):
    (match,) = round_of(championship, ["es", "ca"])
    reports.link_report(team=match.team_a, match=match, games=A_WINS)
    reports.link_answer(team=match.team_b, match=match, dispute="We won")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        match_result_correct(match=match, games=B_WINS, reason="The sheet says so", by=organiser)
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        [match.team_a.entry.email, match.team_b.entry.email]
    )
    bodies = {m.to[0]: m.body for m in mail.outbox}
    assert "ha resuelto el resultado" in bodies[match.team_a.entry.email]
    assert "ha resolt el resultat" in bodies[match.team_b.entry.email]
    assert "0–2 (20–30, 11–30)" in bodies[match.team_a.entry.email]


def _league_match(championship):
    championship.start_date = dt.date(2026, 3, 1)
    championship.end_date = dt.date(2026, 12, 20)
    championship.save()
    for seed, language in enumerate(["en", "es"], start=1):
        entered(championship, language=language, seed=seed)
    stage = stage_services.stage_create(
        championship=championship,
        format=Stage.LEAGUE,
        settings={"first_date": "2026-03-04", "interval": 7, "time": "21:00"},
    )
    stage_services.round_generate(stage=stage)
    return stage.matches.exclude(team_b=None).select_related("team_a", "team_b").first()


def test_a_league_match_moved_or_postponed_is_told_with_its_date_venue_and_reason(
    championship, organiser, django_capture_on_commit_callbacks
):
    championship.status = "running"
    championship.save()
    match = _league_match(championship)
    new = timezone.make_aware(dt.datetime(2026, 3, 6, 21, 30), championship.zone)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        league.match_schedule(match=match, scheduled_at=new, venue_name="Casal de Gràcia")
    bodies = {m.to[0]: m.body for m in mail.outbox}
    english = bodies[match.team_a.entry.email]
    assert "moved to Friday 6 March, 21:30." in english and "Casal de Gràcia" in english
    assert "se ha cambiado" in bodies[match.team_b.entry.email]
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        league.match_postpone(match=match, to=None, reason="Rain on the terrace", by=organiser)
    english = {m.to[0]: m.body for m in mail.outbox}[match.team_a.entry.email]
    assert "to be fixed" in english and "Rain on the terrace" in english
    assert Notice.objects.filter(kind=Notice.Kind.POSTPONED).count() == 2


@pytest.mark.parametrize(
    ("language", "words"),
    [("es", "está lista: mesa 7"), ("ca", "està a punt: taula 7"), ("en", "is ready: table 7")],
)
def test_a_called_round_tells_each_team_its_table(
    championship, organiser, django_capture_on_commit_callbacks, language, words
):
    (match,) = round_of(championship, [language, language])
    match.table = "7"
    match.save()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.round_call(round_=match.round, by=organiser)
    assert len(mail.outbox) == 2
    assert all(words in m.body for m in mail.outbox)


def test_a_match_waiting_for_a_table_is_told_when_one_frees_up(
    championship, organiser, django_capture_on_commit_callbacks
):
    """Three matches, two tables: the call tells the two matches seated; the third, told
    nothing yet (no "go to your table" with no table to go to), is told its table when the
    organiser gives it the one a finished match freed, once however often it is saved."""
    first, second, waiting = round_of(championship, ["en"] * 6)
    for match, table in ((first, "1"), (second, "2")):
        result_services.match_assign(match=match, table=table)
    assert not mail.outbox  # the round is not called yet: the call tells them
    with django_capture_on_commit_callbacks(execute=True):
        services.round_call(round_=first.round, by=organiser)
    told = sorted(m.to[0] for m in mail.outbox)
    seated = [first.team_a, first.team_b, second.team_a, second.team_b]
    assert told == sorted(team.entry.email for team in seated)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        result_services.match_walkover(match=first, winner=first.team_a, reason="no show")
        result_services.match_assign(match=waiting, table="1")
        result_services.match_assign(match=waiting, table="1", scheduled_at=None)
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        [waiting.team_a.entry.email, waiting.team_b.entry.email]
    )
    assert all("is ready: table 1." in m.body for m in mail.outbox)


def test_the_organisers_message_is_plain_text_to_whom_he_chose(
    championship, organiser, django_capture_on_commit_callbacks
):
    matches = round_of(championship, ["en"] * 4)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.message_send(
            championship=championship,
            text="Bring your\nown cards",
            by=organiser,
            match=matches[0],
        )
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        [matches[0].team_a.entry.email, matches[0].team_b.entry.email]
    )
    assert "Bring your\nown cards" in mail.outbox[0].body
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.message_send(championship=championship, text="Prizes at 8", by=organiser)
    assert len(mail.outbox) == 4


def test_a_matchday_moved_tells_the_teams_of_each_match_that_moved(
    championship, django_capture_on_commit_callbacks
):
    championship.status = "running"
    championship.save()
    match = _league_match(championship)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        league.matchday_set_date(
            stage=match.stage, number=match.round.number, date=dt.date(2026, 3, 5)
        )
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        [match.team_a.entry.email, match.team_b.entry.email]
    )
    assert "Thursday 5 March" in {m.to[0]: m.body for m in mail.outbox}[match.team_a.entry.email]


def test_a_team_whose_link_was_revoked_is_sent_its_public_page(
    championship, organiser, django_capture_on_commit_callbacks
):
    (match,) = round_of(championship, ["en", "en"])
    entry_services.link_issue(team=match.team_a, via=TeamAct.Via.ORGANISER)
    entry_services.link_revoke(team=match.team_a, by=organiser)
    with django_capture_on_commit_callbacks(execute=True):
        services.round_call(round_=match.round, by=organiser)
    body = {m.to[0]: m.body for m in mail.outbox}[match.team_a.entry.email]
    assert f"http://localhost:8000/c/copa-avisos/teams/{match.team_a.pk}/" in body
    assert "/team/" not in body


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("es", "Marca presente a Los Pardos desde la página de tu equipo, hasta el"),
        ("ca", "Marca present Los Pardos des de la pàgina del teu equip, fins al"),
        ("en", "Check Los Pardos in through your team's page, until"),
    ],
)
def test_the_check_in_window_opened_is_told_to_every_team_that_plays(
    championship, organiser, django_capture_on_commit_callbacks, language, words
):
    entered(championship, language=language, name="Los Pardos")
    entered(championship, status=Entry.Status.PENDING)  # not accepted yet: not told
    until = timezone.now() + dt.timedelta(hours=2)
    with django_capture_on_commit_callbacks(execute=True):
        acts.championship_self_check_in(championship=championship, until=until, by=organiser)
        acts.championship_self_check_in(championship=championship, until=until, by=organiser)
    sent = _only_mail()
    assert words in sent.body
    with django_capture_on_commit_callbacks(execute=True):
        acts.championship_self_check_in(championship=championship, until=None, by=organiser)
    assert len(mail.outbox) == 1  # closing it tells nobody
