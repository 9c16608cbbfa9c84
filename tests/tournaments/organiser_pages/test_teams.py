"""A championship's teams from the organiser pages: added by form, removed while
registration is open, imported from a CSV file with a report of its errors."""

from __future__ import annotations

from django.urls import reverse

from tests.tournaments.factories import ChampionshipFactory
from tests.tournaments.organiser_pages.conftest import upload
from tournaments.models import Championship, Team


def test_add_teams_by_form(client, organiser, registration):
    client.force_login(organiser)
    url = reverse("organiser:teams", args=[registration.slug])
    for name, players in [("Los Anchos", ("Ana", "Beto")), ("Las Flores", ("Cata", "Dani"))]:
        response = client.post(
            url,
            {
                "name": name,
                "seed": "",
                "club": "Rosario",
                "player_1": players[0],
                "player_2": players[1],
            },
        )
        assert response.status_code == 302
    teams = list(registration.teams.order_by("name"))
    assert [t.name for t in teams] == ["Las Flores", "Los Anchos"]
    assert [m.player.name for m in teams[1].memberships.order_by("order")] == ["Ana", "Beto"]
    html = client.get(url).content.decode()
    assert "Los Anchos" in html and "Beto" in html


def test_a_team_needs_every_player_and_a_unique_name(client, organiser, registration):
    client.force_login(organiser)
    url = reverse("organiser:teams", args=[registration.slug])
    response = client.post(url, {"name": "Solos", "player_1": "Ana"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.context["form"].errors["player_2"]
    client.post(url, {"name": "Dobles", "player_1": "Ana", "player_2": "Beto"})
    response = client.post(
        url, {"name": "Dobles", "player_1": "Cata", "player_2": "Dani"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert "already has a team called Dobles" in response.content.decode()
    assert registration.teams.count() == 1


def test_a_catalan_squad_names_its_cap_de_colla(client, organiser):
    championship = ChampionshipFactory(rules={"preset": "catalan"}, team_size=3)
    championship.organisers.add(organiser)
    client.force_login(organiser)
    response = client.post(
        reverse("organiser:teams", args=[championship.slug]),
        {
            "name": "Colla Vella",
            "player_1": "Jordi",
            "player_2": "Pere",
            "player_3": "Roser",
            "captain": "2",
        },
    )
    assert response.status_code == 302
    team = championship.teams.get()
    assert team.memberships.get(is_captain=True).player.name == "Pere"


def test_a_team_is_removed_only_during_registration(client, organiser, registration, four_teams):
    client.force_login(organiser)
    team = four_teams[0]
    client.post(reverse("organiser:team_remove", args=[registration.slug, team.pk]))
    assert not Team.objects.filter(pk=team.pk).exists()
    registration.status = Championship.Status.RUNNING
    registration.save()
    other = four_teams[1]
    client.post(reverse("organiser:team_remove", args=[registration.slug, other.pk]))
    assert Team.objects.filter(pk=other.pk).exists()


BAD_CSV = (
    "team,player,seed,club\n"
    "Los Anchos,Ana,1,Rosario\n"
    "Los Anchos,Beto,1,Rosario\n"
    "Las Flores,Cata,dos,Córdoba\n"
    "Las Flores,Dani,,Córdoba\n"
)
GOOD_CSV = BAD_CSV.replace("dos", "2")


def test_import_a_bad_csv_then_a_good_one(client, organiser, registration):
    client.force_login(organiser)
    response = upload(client, registration, BAD_CSV)
    assert response.status_code == 200
    report = response.context["import_errors"]
    assert [(error.row, error.column) for error in report] == [(4, "seed")]
    html = response.content.decode()
    assert "nothing was imported" in html
    assert str(report[0].message) in html
    assert registration.teams.count() == 0

    response = upload(client, registration, GOOD_CSV)
    assert response.status_code == 302
    page = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "2 teams imported." in page
    assert sorted(registration.teams.values_list("name", flat=True)) == ["Las Flores", "Los Anchos"]


def test_the_import_report_speaks_spanish(client, organiser, registration):
    client.force_login(organiser)
    html = upload(client, registration, BAD_CSV, language="es").content.decode()
    assert "nada se ha importado" in html
    assert registration.teams.count() == 0


def test_the_import_help_points_to_the_templates_where_they_are(client, organiser, registration):
    """The help said "download the template below" of links printed above it."""
    client.force_login(organiser)
    page = client.get(
        reverse("organiser:teams", args=[registration.slug]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    links = page.index(reverse("organiser:teams_template", args=[registration.slug, "en"]))
    help_text = page.index("download the template above")
    assert links < help_text
    assert "template below" not in page
