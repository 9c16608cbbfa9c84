"""Every kind of notice, in each of the three languages, through Django's mail outbox: the
act where the thing happens tells the team that entered in that language once, in its
language, with the headers of a mail a program may unsubscribe from in one click; that
click is honoured at once: the same kind queued again, and the organiser's message to
everyone entered, reach the team no more (the other teams still are told)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.core import mail
from django.utils import timezone, translation

from tests.tournaments.circuits.conftest import enter as circuit_enter
from tests.tournaments.circuits.conftest import make_circuit, make_event, play_knockout
from tests.tournaments.entries.conftest import enter as form_enter
from tests.tournaments.entries.conftest import entries_opened
from tests.tournaments.factories import ChampionshipFactory, UserFactory
from tests.tournaments.notices.conftest import entered, round_of
from tournaments.circuits.qualification import qualification_sync
from tournaments.entries import acts, reports
from tournaments.entries import services as entry_services
from tournaments.models import (
    Championship,
    CircuitEvent,
    Entry,
    Notice,
    Person,
    Scorekeeping,
    Stage,
    Team,
    TeamAct,
)
from tournaments.notices import services
from tournaments.notices.texts import About
from tournaments.results.services import match_result_correct
from tournaments.stages import league
from tournaments.stages import services as stage_services

A_WINS = [{"score": {"A": 30, "B": 25}}, {"score": {"A": 30, "B": 12}}]
B_WINS = [{"score": {"A": 20, "B": 30}}, {"score": {"A": 11, "B": 30}}]


@dataclass
class Told:
    """What a scenario leaves: the team told, in the championship it was told from, and
    what the kind is about (to queue the same kind again after the stop)."""

    team: Team
    championship: Championship
    about: About


@dataclass
class Day:
    """The people and championship a scenario plays with."""

    organiser: object
    language: str


def _championship(**values: object) -> Championship:
    defaults: dict[str, object] = {
        "name": "Copa Avisos",
        "slug": "copa-avisos",
        "scorekeeping": Scorekeeping.RESULTS,
    }
    return ChampionshipFactory(**{**defaults, **values})


def _taking_entries(day: Day) -> Championship:
    championship = _championship(
        slug="copa-abierta", name="Copa Abierta", status=Championship.Status.REGISTRATION
    )
    championship.organisers.add(day.organiser)
    return entries_opened(championship)


def _entered_through_the_form(championship: Championship, language: str) -> Entry:
    with translation.override(language):
        entry = form_enter(championship, "Los Pardos", email="pardos@example.org")
    assert entry.language == language
    return entry


def accepted(day: Day) -> Told:
    championship = _taking_entries(day)
    entry = _entered_through_the_form(championship, day.language)
    entry_services.entry_accept(entry=entry, by=day.organiser, via=TeamAct.Via.ORGANISER)
    return Told(entry.team, championship, About())


def refused(day: Day) -> Told:
    championship = _taking_entries(day)
    entry = _entered_through_the_form(championship, day.language)
    entry_services.entry_refuse(
        entry=entry, by=day.organiser, via=TeamAct.Via.ORGANISER, reason="Full at the club"
    )
    return Told(entry.team, championship, About(reason="Full at the club"))


def promoted(day: Day) -> Told:
    championship = _taking_entries(day)
    first = form_enter(championship, email="first@example.org")
    for number in range(3):
        form_enter(championship, email=f"t{number}@example.org")
    waiting = _entered_through_the_form(championship, day.language)
    assert waiting.status == Entry.Status.WAITING
    entry_services.entry_withdraw(team=first.team, via=TeamAct.Via.LINK)
    return Told(waiting.team, championship, About())


def _round(day: Day, *, told_first: bool = False) -> tuple[Championship, object]:
    championship = _championship()
    championship.organisers.add(day.organiser)
    languages = [day.language, "en"] if told_first else ["en", day.language]
    (match,) = round_of(championship, languages)
    return championship, match


def check_in(day: Day) -> Told:
    championship = _championship()
    team = entered(championship, language=day.language, name="Los Pardos")
    until = timezone.now() + dt.timedelta(hours=2)
    acts.championship_self_check_in(championship=championship, until=until, by=day.organiser)
    return Told(team, championship, About(when=until))


def reported(day: Day) -> Told:
    championship, match = _round(day)
    reports.link_report(team=match.team_a, match=match, games=A_WINS)
    return Told(match.team_b, championship, About(match=match, result="2–0 (30–25, 30–12)"))


def settled(day: Day) -> Told:
    championship, match = _round(day)
    with services.notices_muted():  # the report's notice is the kind above
        reports.link_report(team=match.team_a, match=match, games=A_WINS)
    reports.link_answer(team=match.team_b, match=match, dispute="We won")
    match_result_correct(match=match, games=B_WINS, reason="The sheet", by=day.organiser)
    return Told(match.team_b, championship, About(match=match, result="2–0 (30–20, 30–11)"))


def _league_match(day: Day) -> tuple[Championship, object]:
    championship = _championship(
        status=Championship.Status.RUNNING,
        start_date=dt.date(2026, 3, 1),
        end_date=dt.date(2026, 12, 20),
    )
    championship.organisers.add(day.organiser)
    for seed, language in enumerate(["en", day.language], start=1):
        entered(championship, language=language, seed=seed)
    stage = stage_services.stage_create(
        championship=championship,
        format=Stage.LEAGUE,
        settings={"first_date": "2026-03-04", "interval": 7, "time": "21:00"},
    )
    with services.notices_muted():  # the draw's notice is a kind of its own
        stage_services.round_generate(stage=stage)
    match = stage.matches.exclude(team_b=None).select_related("team_a", "team_b").first()
    return championship, match


def _told_side(match: object) -> Team:
    """The league match's team entered in the scenario's language (seeded second)."""
    return match.team_a if match.team_a.seed == 2 else match.team_b


def moved(day: Day) -> Told:
    championship, match = _league_match(day)
    new = timezone.make_aware(dt.datetime(2026, 3, 6, 21, 30), championship.zone)
    league.match_schedule(match=match, scheduled_at=new, venue_name="Casal de Gràcia")
    return Told(_told_side(match), championship, About(match=match, when=new))


def postponed(day: Day) -> Told:
    championship, match = _league_match(day)
    league.match_postpone(match=match, to=None, reason="Rain", by=day.organiser)
    return Told(_told_side(match), championship, About(match=match, reason="Rain"))


def ready(day: Day) -> Told:
    championship, match = _round(day, told_first=True)
    match.table = "7"
    match.save()
    services.round_call(round_=match.round, by=day.organiser)
    return Told(match.team_a, championship, About(match=match))


def drawn(day: Day) -> Told:
    championship = _championship()
    championship.organisers.add(day.organiser)
    team = entered(championship, language=day.language, name="Los Pardos", seed=1)
    entered(championship, language="en", name="Los Anchos", seed=2)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    return Told(team, championship, About(match=match))


def qualified(day: Day) -> Told:
    names = ["Ana", "Bea", "Cai", "Dan"]
    a, b, c, d = (Person.objects.create(name=name) for name in names)
    circuit = make_circuit(name="Circuito Balear", qualify_per_event=1)
    inca = make_event(circuit, day=1, place="Inca")
    final = make_event(
        circuit, day=20, kind=CircuitEvent.Kind.FINAL, status=Championship.Status.REGISTRATION
    )
    final.championship.name = "Final 20"
    final.championship.save()
    inca.championship.organisers.add(day.organiser)
    winners, runners = circuit_enter(inca, [(a, b), (c, d)])
    for position, (team, language) in enumerate(
        ((winners, day.language), (runners, "en")), start=1
    ):
        Entry.objects.create(
            championship=inca.championship,
            team=team,
            status=Entry.Status.ACCEPTED,
            position=position,
            email=f"q{team.pk}@example.org",
            language=language,
        )
    with services.notices_muted():  # the bracket's draws are a kind of their own
        play_knockout(inca)
    Championship.objects.filter(pk=inca.championship_id).update(status=Championship.Status.FINISHED)
    (row,) = qualification_sync(circuit=circuit)
    assert row.final_team is not None
    about = About(final="Final 20", circuit="Circuito Balear")
    return Told(winners, inca.championship, about)


def message(day: Day) -> Told:
    championship, match = _round(day)
    services.message_send(
        championship=championship, text="Bring your own cards", by=day.organiser, match=match
    )
    return Told(match.team_b, championship, About(match=match, message="Bring your own cards"))


SCENARIOS: dict[str, Callable[[Day], Told]] = {
    Notice.Kind.ACCEPTED: accepted,
    Notice.Kind.REFUSED: refused,
    Notice.Kind.PROMOTED: promoted,
    Notice.Kind.CHECK_IN: check_in,
    Notice.Kind.REPORTED: reported,
    Notice.Kind.SETTLED: settled,
    Notice.Kind.MOVED: moved,
    Notice.Kind.POSTPONED: postponed,
    Notice.Kind.READY: ready,
    Notice.Kind.DRAWN: drawn,
    Notice.Kind.QUALIFIED: qualified,
    Notice.Kind.MESSAGE: message,
}

# What each kind says, in each language: a piece of its sentence with the names put in.
SAYS: dict[str, dict[str, str]] = {
    Notice.Kind.ACCEPTED: {
        "es": "aceptó la inscripción de Los Pardos: juegas.",
        "ca": "ha acceptat la inscripció de Los Pardos",
        "en": "accepted the entry of Los Pardos: you play.",
    },
    Notice.Kind.REFUSED: {
        "es": "rechazó la inscripción de Los Pardos.",
        "ca": "ha rebutjat la inscripció de Los Pardos.",
        "en": "refused the entry of Los Pardos.",
    },
    Notice.Kind.PROMOTED: {
        "es": "Los Pardos pasa de la lista de",
        "ca": "Los Pardos passa de la llista",
        "en": "Los Pardos moved up from the waiting list",
    },
    Notice.Kind.CHECK_IN: {
        "es": "Marca presente a Los Pardos desde la página de tu equipo, hasta el",
        "ca": "Marca present Los Pardos des de la pàgina del teu equip, fins al",
        "en": "Check Los Pardos in through your team's page, until",
    },
    Notice.Kind.REPORTED: {
        "es": "ha comunicado el resultado de tu partida: 2–0 (30–25, 30–12).",
        "ca": "ha comunicat el resultat de la teva partida: 2–0 (30–25, 30–12).",
        "en": "reported the result of your match: 2–0 (30–25, 30–12).",
    },
    Notice.Kind.SETTLED: {
        "es": "El organizador ha resuelto el resultado de tu partida contra",
        "ca": "L'organitzador ha resolt el resultat de la teva partida contra",
        "en": "The organiser settled the result of your match against",
    },
    Notice.Kind.MOVED: {
        "es": "se ha cambiado: viernes 6 de marzo, 21:30.",
        "ca": "ha canviat: divendres 6 de març, 21:30.",
        "en": "moved to Friday 6 March, 21:30.",
    },
    Notice.Kind.POSTPONED: {
        "es": "se ha aplazado: la nueva fecha está por fijar.",
        "ca": "s'ha ajornat: la nova data està per fixar.",
        "en": "is postponed: its new date is to be fixed.",
    },
    Notice.Kind.READY: {
        "es": "está lista: mesa 7.",
        "ca": "està a punt: taula 7.",
        "en": "is ready: table 7.",
    },
    Notice.Kind.DRAWN: {
        "es": "Ronda 1 ya está sorteada: Los Pardos juega contra Los Anchos.",
        "ca": "Ronda 1 ja està sortejada: Los Pardos juga contra Los Anchos.",
        "en": "Round 1 is drawn: Los Pardos plays Los Anchos.",
    },
    Notice.Kind.QUALIFIED: {
        "es": "se ha clasificado para Final 20, la final de Circuito Balear",
        "ca": "s'ha classificat per a Final 20, la final de Circuito Balear",
        "en": "qualified for Final 20, the final of Circuito Balear",
    },
    Notice.Kind.MESSAGE: {
        "es": "Bring your own cards",
        "ca": "Bring your own cards",
        "en": "Bring your own cards",
    },
}

# The foot of every mail, in the team's language: the page and the way out.
FOOT = {
    "es": ("La página de tu equipo: ", "Para no recibir más estos correos: "),
    "ca": ("La pàgina del teu equip: ", "Per no rebre més aquests correus: "),
    "en": ("Your team's page: ", "To stop these mails: "),
}


def test_every_kind_has_a_scenario_and_its_words():
    assert set(SCENARIOS) == set(Notice.Kind.values) == set(SAYS)


@pytest.mark.parametrize("language", ["es", "ca", "en"])
@pytest.mark.parametrize("kind", Notice.Kind.values)
def test_each_kind_is_told_once_in_the_teams_language_and_its_unsubscribe_is_honoured(
    db, client, django_capture_on_commit_callbacks, kind, language
):
    day = Day(organiser=UserFactory(username="organiser"), language=language)
    with django_capture_on_commit_callbacks(execute=True):
        told = SCENARIOS[kind](day)
    entry = Entry.objects.get(team=told.team)
    address = entry.email
    assert entry.language == language
    mine = [m for m in mail.outbox if m.to == [address]]
    assert len(mine) == 1, [m.subject for m in mail.outbox]
    (sent,) = mine
    notice = Notice.objects.get(team=told.team, kind=kind, channel=Notice.Channel.EMAIL)
    assert notice.state == Notice.State.SENT and notice.language == language
    assert SAYS[kind][language] in sent.body, sent.body
    page, stop = FOOT[language]
    assert page in sent.body and stop in sent.body
    assert "\n" not in sent.subject and sent.subject == notice.subject
    # Nothing stored with the notice holds the address or a link.
    assert address not in f"{notice.subject} {notice.text}" and "/team/" not in notice.text

    # The one-click unsubscribe of RFC 8058, as a mail program sends it.
    assert sent.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert sent.extra_headers["Auto-Submitted"] == "auto-generated"
    url = re.fullmatch(
        r"<http://localhost:8000(/mails/stop/[^>]+/)>", sent.extra_headers["List-Unsubscribe"]
    )
    assert url and url.group(1) in sent.body
    answer = client.post(url.group(1), {"List-Unsubscribe": "One-Click"})
    assert answer.status_code == 200
    assert Entry.objects.get(pk=entry.pk).notices_stopped_at is not None
    assert TeamAct.objects.filter(team=told.team, action=TeamAct.Action.MAILS_STOPPED).exists()

    # Honoured at once: the same kind again, and a message to everyone, do not reach it.
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        again = services.notices_queue(
            championship=told.championship, kind=kind, addressed=[(told.team, told.about)]
        )
        services.message_send(championship=told.championship, text="Prizes at 8", by=day.organiser)
    assert again == []
    assert all(m.to != [address] for m in mail.outbox)
    others = (
        Entry.objects.filter(championship=told.championship)
        .exclude(team=told.team)
        .exclude(status__in=Entry.OUT)
        .exclude(email="")
    )
    if others.exists():
        assert mail.outbox, "the other teams are still told"
