"""Management commands (import_teams, generate_round, export, load_demo) and the demo data."""

import csv
import io
import json
import subprocess
import sys

import pytest
from django.conf import settings
from django.core import mail
from django.core.management import CommandError, call_command

from scoring.match import score_match
from tournaments.models import Championship, Hand, Match, Notice, Player, Team
from tournaments.results import records
from tournaments.results import selectors as result_selectors
from tournaments.stages import services as stage_services
from tournaments.standings import selectors as standing_selectors


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


@pytest.mark.parametrize(
    "command",
    ["import_teams", "generate_round", "export", "load_demo", "export_archive", "import_archive"],
)
def test_every_command_help_exits_0(command):
    """``--help`` used to crash on the lazily translated help texts."""
    done = subprocess.run(
        [sys.executable, "manage.py", command, "--help"],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "usage: manage.py " + command in done.stdout
    assert "Traceback" not in done.stderr


def test_import_teams_command(championship, tmp_path):
    good = tmp_path / "equipos.csv"
    good.write_text("team,player\nLos Anchos,Ramón\nLos Anchos,Begoña\n", encoding="utf-8-sig")
    assert "1 equipo importado." in run("import_teams", championship.slug, str(good))
    bad = tmp_path / "malo.csv"
    bad.write_text("team,player\nLas Sotas,\n", encoding="utf-8")
    err = io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_teams", championship.slug, str(bad), stderr=err)
    assert "Fila 2, columna player" in err.getvalue()
    assert list(championship.teams.values_list("name", flat=True)) == ["Los Anchos"]
    with pytest.raises(CommandError):
        run("import_teams", "no-existe", str(good))


def test_generate_round_and_export_commands(championship, make_teams, play_match, tmp_path):
    make_teams(championship, 4)
    stage_services.stage_create(championship=championship, format="round_robin")
    out = run("generate_round", championship.slug, "--stage", "1")
    assert "2 partidas generadas" in out
    for match in Match.objects.all():
        play_match(match, match.team_a)

    target = tmp_path / "manos.csv"
    run("export", championship.slug, "hands", "-o", str(target))
    raw = target.read_bytes()
    assert raw.startswith("\ufeff".encode())
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"))))
    assert len(rows) == Hand.objects.count() == 6
    standings = run("export", championship.slug, "standings")
    assert standings.startswith("\ufeffstage,group,rank")
    assert len(standings.strip().splitlines()) == 5


def test_generate_round_without_a_stage_fails(championship):
    with pytest.raises(CommandError):
        run("generate_round", championship.slug)


def test_load_demo_twice_creates_no_duplicates(demo):
    first = demo.output
    counts = (
        Championship.objects.count(),
        Team.objects.count(),
        Player.objects.count(),
        Match.objects.count(),
        Hand.objects.count(),
    )
    second = run("load_demo")
    # The demo's teams (made-up addresses) are told nothing.
    assert not Notice.objects.exists() and mail.outbox == []
    # One line per championship, in the site's default language, and nothing else.
    assert first.splitlines() == [
        "Creado: Abierto de Truco de Gràcia",
        "Creado: Torneig de Truc del Casal",
        "Creado: Open de Truco de Primavera",
        "Creado: Liga de Clubes de Truco",
        "Creado: Obert de Truc de Mallorca — Inca",
        "Creado: Obert de Truc de Mallorca — Manacor",
        "Creado: Obert de Truc de Mallorca — Felanitx",
        "Creado: Obert de Truc de Mallorca — Final",
        "Creado: Gallo de los Jueves",
        "Creado: Torneo Sin Árbitros de Sants",
        "Creado: Relámpago de Otoño",
        "Creado: Torneig Llampec de Tardor",
        "Creado: Liga de Invierno",
    ]
    assert second.splitlines() == [
        "Ya existía: Abierto de Truco de Gràcia",
        "Ya existía: Torneig de Truc del Casal",
        "Ya existía: Open de Truco de Primavera",
        "Ya existía: Liga de Clubes de Truco",
        "Ya existía: Obert de Truc de Mallorca — Inca",
        "Ya existía: Obert de Truc de Mallorca — Manacor",
        "Ya existía: Obert de Truc de Mallorca — Felanitx",
        "Ya existía: Obert de Truc de Mallorca — Final",
        "Ya existía: Gallo de los Jueves",
        "Ya existía: Torneo Sin Árbitros de Sants",
        "Ya existía: Relámpago de Otoño",
        "Ya existía: Torneig Llampec de Tardor",
        "Ya existía: Liga de Invierno",
    ]
    assert (
        Championship.objects.count(),
        Team.objects.count(),
        Player.objects.count(),
        Match.objects.count(),
        Hand.objects.count(),
    ) == counts

    # The gallo championship: rounds one and two played, round three under way.
    gallo = Championship.objects.get(slug="gallo-de-los-jueves")
    tables = Match.objects.filter(stage__championship=gallo)
    assert gallo.plays_gallo and tables.filter(team_c__isnull=False).exists()
    played = {
        n: tables.filter(round__number=n, status__in=Match.DECIDED).count() for n in (1, 2, 3)
    }
    assert played[1] == tables.filter(round__number=1).count() == 3
    assert played[2] == 3
    assert 0 < played[3] < tables.filter(round__number=3).count()
    assert Hand.objects.filter(match__stage__championship=gallo).exists()

    abierto = Championship.objects.get(slug="abierto-de-truco")
    assert abierto.teams.count() == 16
    assert all(t.memberships.count() == 2 for t in abierto.teams.all())
    stage = abierto.stages.get()
    assert stage.format == "groups_knockout"
    assert stage.groups.count() == 4
    quarters = stage.matches.filter(bracket_id__startswith="W1-")
    assert quarters.count() == 4 and quarters.filter(winner__isnull=False).count() == 2
    # The two winners already meet in the first semi-final.
    semi = stage.matches.get(bracket_id="W2-1")
    assert {semi.team_a_id, semi.team_b_id} == set(
        quarters.filter(winner__isnull=False).values_list("winner_id", flat=True)
    )

    casal = Championship.objects.get(slug="torneig-truc-casal")
    assert casal.rules["preset"] == "catalan"
    assert all(t.memberships.filter(is_captain=True).count() == 1 for t in casal.teams.all())
    assert all(t.memberships.count() == 3 for t in casal.teams.all())
    swiss = casal.stages.get()
    assert swiss.rounds.count() == 3
    assert standing_selectors.stage_standings(stage=swiss)[0].points >= 2

    # Every played match is real: its stored hands score, through the engine, to its result.
    for match in Match.objects.filter(hands__isnull=False).distinct()[:10]:
        match = result_selectors.match_detail(pk=match.pk)
        result = score_match(records.match_record(match, [h.record for h in match.hands.all()]))
        assert (result["winner"] == "A") == (match.winner_id == match.team_a_id)
        assert any("play" in e for h in match.hands.all() for e in h.record["events"])
    assert json.dumps(Hand.objects.first().record)


class _ClosedAfterOneLine(io.StringIO):
    """A pipe whose reader stops after the first line (``manage.py export ... | head -1``)."""

    def write(self, text: str) -> int:
        if self.getvalue().count("\n") >= 1:
            raise BrokenPipeError(32, "Broken pipe")
        return super().write(text)


def test_an_export_read_only_in_part_stops_quietly(championship, make_teams, play_match):
    """``export ... | head`` ended in a BrokenPipeError traceback, then "Cannot operate on
    a closed database" from the export's query left open."""
    make_teams(championship, 4)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    stage_services.round_generate(stage=stage)
    for match in Match.objects.all():
        play_match(match, match.team_a)
    out = _ClosedAfterOneLine()
    call_command("export", championship.slug, "hands", stdout=out, stderr=io.StringIO())
    assert out.getvalue().startswith("\ufeff")
    assert out.getvalue().count("\n") == 1
    # The database is still usable afterwards.
    assert Hand.objects.count() == 6


def test_the_demo_referees_have_matches_to_record(demo):
    """Every unplayed match of the demo had no referee: a demo referee given a password
    (README) could record nothing until the organiser assigned him."""
    from django.contrib.auth import get_user_model

    from referees import selectors as referee_selectors

    # The championships whose referees keep the score (the one without referees has none).
    unplayed = Match.objects.filter(
        stage__championship__status=Championship.Status.RUNNING,
        stage__championship__scorekeeping="referees",
        team_b__isnull=False,
    ).exclude(status__in=Match.DECIDED)
    assert unplayed.exists()
    assert not unplayed.filter(referee__isnull=True).exists()
    for username in ("arbitro.demo", "arbitra.demo"):
        referee = get_user_model().objects.get(username=username)
        found = referee_selectors.matches_for_referee(user=referee)
        assert found.in_play or found.to_play, username


def test_the_demo_shows_people_across_championships_and_entries_open(demo, client):
    """A newcomer sees at once a person who played both demo championships (his page
    lists both) and a championship taking entries, some paid, some waiting."""
    from django.urls import reverse

    from tournaments.models import Entry, Person, Rating

    both = Person.objects.filter(players__teams__championship__slug="abierto-de-truco").filter(
        players__teams__championship__slug="torneig-truc-casal"
    )
    assert both.distinct().count() == 3
    person = both.first()
    page = client.get(reverse("tournaments:person", args=[person.pk]))
    assert page.status_code == 200
    assert "Abierto de Truco de Gràcia" in page.content.decode()
    assert "Torneig de Truc del Casal" in page.content.decode()

    entries = Entry.objects.filter(championship__slug="open-de-primavera")
    assert entries.filter(status=Entry.Status.ACCEPTED).count() == 4
    assert entries.filter(status=Entry.Status.PENDING).count() == 4
    assert list(entries.filter(status=Entry.Status.WAITING).values_list("position", flat=True)) == [
        10
    ]
    assert entries.filter(paid=True).count() == 5
    # One withdrew after paying: its fee is to refund.
    assert [e.position for e in entries if e.to_refund] == [3]
    form = client.get(reverse("tournaments:enter", args=["open-de-primavera"]))
    assert form.status_code == 200
    assert "waiting list" in form.content.decode() or "espera" in form.content.decode()

    # Both leaderboards list people (five rated matches or more): the past championships
    # gave the Abierto's and the Casal's people their history, rated in its own order.
    from tournaments.models import RatingChange
    from tournaments.ratings import skill

    for family, at_least in (("argentine", 12), ("catalan", 20)):
        page = client.get(reverse("tournaments:ratings", args=[family])).content.decode()
        listed = Rating.objects.filter(family=family, matches__gte=skill.MIN_MATCHES)
        assert listed.count() >= at_least, family
        assert all(reverse("tournaments:person", args=[r.person_id]) in page for r in listed)
    first = RatingChange.objects.filter(person=person, family="argentine").order_by(
        "decided_at", "match_id"
    )[0]
    assert first.match.stage.championship.slug == "relampago-de-otono"
