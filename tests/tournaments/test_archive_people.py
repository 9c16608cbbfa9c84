"""An archive's people on import (docs/archive.md, "Importing"): each is a new person;
one likely already on record (the same rule as a team entered:
``people.selectors.person_likely_matches``) is offered to the new championship's
organisers who may already see him, never joined, and nothing private of him is shown
or copied. The command counts them."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.db import transaction
from django.urls import reverse
from django.utils import translation

from tests.tournaments.factories import (
    ChampionshipFactory,
    PersonFactory,
    PlayerFactory,
    TeamFactory,
    UserFactory,
)
from tournaments.io.archive import archive_export
from tournaments.io.archive_import import archive_import
from tournaments.models import Championship, Person, PersonMergeRequest, Player, Team
from tournaments.people import services as people_services

# The archive's four people: (name, club), two to a team.
ARCHIVED = [("Ana Ruiz", "Sants"), ("Joan Puig", "Reus"), ("Marta Vidal", ""), ("Pau Roca", "")]
# What the people on record hold privately: never on the importer's output or pages.
PRIVATE = ("FED-0042", "ana@example.org", "611 222 333", "pau@example.org", "FED-0099")


def _plays(person: Person, championship: Championship) -> Team:
    team = TeamFactory(championship=championship, name=f"T{person.pk}-{championship.pk}")
    membership = team.memberships.order_by("order").first()
    membership.player = PlayerFactory(name=person.name, person=person)
    membership.save()
    return team


@pytest.fixture(scope="module")
def archive(django_db_setup, django_db_blocker) -> dict[str, Any]:
    """A championship of two pairs whose players are :data:`ARCHIVED`, as its public
    archive; nothing of it stays in the database."""
    with django_db_blocker.unblock(), transaction.atomic():
        vieja = ChampionshipFactory(name="Copa Vieja", slug="copa-vieja")
        people = iter(ARCHIVED)
        for _n in range(2):
            team = TeamFactory(championship=vieja)
            for membership in team.memberships.order_by("order"):
                name, club = next(people)
                Person.objects.filter(pk=membership.player.person_id).update(name=name, club=club)
                Player.objects.filter(pk=membership.player_id).update(name=name, club=club)
        made = json.loads(json.dumps(archive_export(vieja)))
        transaction.set_rollback(True)
    return made


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


@pytest.fixture
def world(db):
    """Pere organises the Lliga de Sants, where Ana (her name with an accent, in capitals)
    and a Joan Puig of another club play; Bea organises the Open de Lleida, Pau's."""
    pere, bea = UserFactory(username="pere"), UserFactory(username="bea")
    sants = ChampionshipFactory(name="Lliga de Sants", slug="lliga-sants")
    sants.organisers.add(pere)
    lleida = ChampionshipFactory(name="Open de Lleida", slug="open-lleida")
    lleida.organisers.add(bea)
    ana = PersonFactory(
        name="ANA  RUÍZ",
        club="sants",
        licence="FED-0042",
        email="ana@example.org",
        phone="+34 611 222 333",
    )
    joan = PersonFactory(name="Joan Puig", club="Lleida")
    pau = PersonFactory(name="Pau Roca", licence="FED-0099", email="pau@example.org")
    _plays(ana, sants)
    _plays(joan, sants)
    _plays(pau, lleida)
    return {"pere": pere, "bea": bea, "ana": ana, "joan": joan, "pau": pau}


def _command(archive: dict[str, Any], tmp_path: Path, *organisers: str) -> str:
    path = tmp_path / "archive.json"
    path.write_text(json.dumps(archive), encoding="utf-8")
    out = io.StringIO()
    arguments = [a for name in organisers for a in ("--organiser", name)]
    call_command("import_archive", str(path), *arguments, stdout=out)
    return out.getvalue()


def _imported(slug: str = "copa-vieja") -> dict[str, Person]:
    people = Person.objects.filter(players__teams__championship__slug=slug)
    return {p.name: p for p in people}


def _private_absent(text: str) -> None:
    for value in PRIVATE:
        assert value not in text


def test_a_person_likely_on_record_is_offered_to_the_organiser_not_joined(
    archive, world, tmp_path, client
):
    ana = world["ana"]
    before = Person.objects.count()
    out = _command(archive, tmp_path, "pere")

    assert "1 person may be someone already on record" in out
    _private_absent(out)
    # Every person of the archive is a new record: Ana's is not hers, nor has anything of
    # hers; hers is untouched, with her one player.
    assert Person.objects.count() == before + len(ARCHIVED)
    imported = _imported()
    assert imported["Ana Ruiz"].pk != ana.pk
    assert (imported["Ana Ruiz"].licence, imported["Ana Ruiz"].email) == ("", "")
    assert imported["Ana Ruiz"].phone == ""
    ana.refresh_from_db()
    assert (ana.name, ana.licence, ana.email) == ("ANA  RUÍZ", "FED-0042", "ana@example.org")
    assert ana.players.count() == 1
    assert not PersonMergeRequest.objects.exists()  # nothing asked of anyone else

    # Pere finds the pair among his likely ones, and merges it if he says so.
    client.force_login(world["pere"])
    page = client.get(reverse("organiser:people"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    likely = page[page.index('id="likely"') :]
    assert "Ana Ruiz" in likely and "ANA  RUÍZ" in likely
    assert "Joan Puig" not in likely.split("Everyone")[0]  # another club: not likely
    kept = people_services.person_merge(keep=ana, drop=imported["Ana Ruiz"], by=world["pere"])
    assert kept.players.count() == 2


def test_the_import_finds_them_by_the_entry_forms_rule(archive, world):
    done = archive_import(archive=archive, organisers=[world["pere"]])

    imported = _imported()
    # The same name without case, accents or extra spaces, the same club where both give
    # one: Ana; Joan of another club is not; Marta and Pau (Pere does not see Pau) are new.
    assert done.likely == {imported["Ana Ruiz"].pk: [world["ana"]]}


def test_nobody_is_offered_a_record_he_cannot_see(archive, world, tmp_path, client):
    pau = world["pau"]
    out = _command(archive, tmp_path, "pere")
    assert "1 person may be" in out  # Ana only: Pau is Bea's
    imported = _imported()
    # Neither organiser's page pairs Pau's two records or shows the other's private data.
    for user, others in ((world["pere"], PRIVATE[3:]), (world["bea"], PRIVATE[:3])):
        client.force_login(user)
        page = client.get(reverse("organiser:people"), HTTP_ACCEPT_LANGUAGE="en")
        text = page.content.decode()
        assert not any(value in text for value in others)
        likely = text[text.index('id="likely"') :].split("Everyone")[0]
        assert "Pau Roca" not in likely
    assert imported["Pau Roca"].pk != pau.pk
    assert pau.players.count() == 1 and not PersonMergeRequest.objects.exists()

    # Named an organiser too, Bea is offered her Pau, and only she.
    done = archive_import(archive=archive, organisers=[world["pere"], world["bea"]])
    copy = done.championship
    pau_copy = Person.objects.get(players__teams__championship=copy, name="Pau Roca")
    # Her Pau, and the first copy's (Pere's): each is offered to whoever may see him.
    assert pau.pk in {p.pk for p in done.likely[pau_copy.pk]}
    client.force_login(world["pere"])
    page = client.get(reverse("organiser:people"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "pau@example.org" not in page and "FED-0099" not in page


def test_without_an_organiser_nobody_is_offered_anything(archive, world, tmp_path):
    out = _command(archive, tmp_path)
    assert "No organiser named" in out
    assert Person.objects.filter(name="Ana Ruiz").count() == 1  # the import's own
    assert archive_import(archive=archive, slug="otra").likely == {}


def test_an_archive_imported_again_makes_a_new_copy_and_offers_its_people(archive, world, tmp_path):
    _command(archive, tmp_path, "pere")
    before = Person.objects.count()
    out = _command(archive, tmp_path, "pere")

    # As before: a new championship under the next free short name, its people new.
    copy = Championship.objects.get(slug="copa-vieja-2")
    assert Person.objects.count() == before + len(ARCHIVED)
    assert not Person.objects.filter(
        players__teams__championship=copy, pk__in=[p.pk for p in _imported().values()]
    ).exists()
    # Each of them is now likely someone Pere sees (the first copy's, Ana's too).
    assert "4 people may be people already on record" in out
    _private_absent(out)


def test_a_person_who_resembles_nobody_is_just_new(archive, world, tmp_path):
    pau = world["pau"]
    pau.name = "Pau Roca i Vidal"  # Bea's only player: no longer the archive's Pau
    pau.save()
    before = Person.objects.count()
    out = _command(archive, tmp_path, "bea")

    assert "Nobody of the archive looks like a person already on record." in out
    assert Person.objects.count() == before + len(ARCHIVED)
    assert sorted(_imported()) == sorted(name for name, _club in ARCHIVED)
    assert pau.players.count() == 1


@pytest.mark.parametrize(
    "language, words",
    [
        ("es", "1 persona puede ser alguien ya registrado"),
        ("ca", "1 persona pot ser algú ja registrat"),
    ],
)
def test_the_count_speaks_the_organisers_language(archive, world, tmp_path, language, words):
    with translation.override(language):
        out = _command(archive, tmp_path, "pere")
    assert words in out
