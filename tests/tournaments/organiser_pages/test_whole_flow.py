"""The whole organiser flow through the pages, from logging in to the downloads."""

from __future__ import annotations

from django.urls import reverse

from tests.tournaments.factories import RefereeFactory
from tests.tournaments.organiser_pages.conftest import BASE, PASSWORD, create_form, upload
from tournaments.models import Championship, Match


def test_the_whole_organiser_flow(client, organiser):
    """From logging in to the downloads, only through the pages, as a new user would."""
    referee = RefereeFactory()
    response = client.post(reverse("login"), {"username": "organiser", "password": PASSWORD})
    assert response.status_code == 302
    data = {**create_form(client, "argentine_flor"), **BASE, "name": "Torneo de Otoño"}
    response = client.post(reverse("organiser:championship_create"), data)
    championship = Championship.objects.get(name="Torneo de Otoño")
    slug = championship.slug
    client.post(reverse("organiser:championship_status", args=[slug]), {"status": "registration"})
    # Its referee, put on its list: only the championship's referees are offered.
    client.post(
        reverse("organiser:referees", args=[slug]),
        {"action": "add", "add-user": referee.get_username()},
    )

    teams_url = reverse("organiser:teams", args=[slug])
    for name, players in [("Los Anchos", ("Ana", "Beto")), ("Las Flores", ("Cata", "Dani"))]:
        client.post(teams_url, {"name": name, "player_1": players[0], "player_2": players[1]})
    csv = "team,player,seed\nEl Mazo,Eva,x\nEl Mazo,Fede,\nLa Falta,Gabi,\nLa Falta,Hugo,\n"
    response = upload(client, championship, csv)
    assert [(e.row, e.column) for e in response.context["import_errors"]] == [(2, "seed")]
    assert championship.teams.count() == 2
    response = upload(client, championship, csv.replace(",x\n", ",3\n"))
    assert response.status_code == 302
    assert championship.teams.count() == 4

    client.post(reverse("organiser:championship_status", args=[slug]), {"status": "running"})
    response = client.post(
        reverse("organiser:stage_create", args=[slug]),
        {
            "format": "round_robin",
            "teams": list(championship.teams.values_list("pk", flat=True)),
            "tiebreak_1": "points",
            "tiebreak_2": "lots",
        },
    )
    stage = championship.stages.get()
    client.post(reverse("organiser:round_generate", args=[slug, stage.pk]))
    first, second = stage.matches.order_by("pk")

    assign_url = reverse("organiser:round_assign", args=[slug, stage.pk, 1])
    client.post(
        assign_url,
        {
            "form-TOTAL_FORMS": "2",
            "form-INITIAL_FORMS": "2",
            "form-0-match": first.pk,
            "form-0-table": "Mesa 1",
            "form-0-referee": referee.pk,
            "form-1-match": second.pk,
            "form-1-table": "Mesa 2",
        },
    )
    client.post(
        reverse("organiser:walkover", args=[slug, second.pk]),
        {"winner": second.team_a_id, "reason": "Llegaron tarde", "forfeit": ""},
    )
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.table, first.referee, second.table) == ("Mesa 1", referee, "Mesa 2")
    assert second.status == Match.Status.WALKOVER

    downloads = {}
    for kind in ("standings", "matches", "hands"):
        response = client.get(reverse("organiser:export", args=[slug, kind]))
        downloads[kind] = b"".join(response.streaming_content).decode("utf-8")
        assert downloads[kind].startswith("\ufeff")
    assert "Llegaron tarde" in downloads["matches"] and "Mesa 1" in downloads["matches"]
    assert len(downloads["standings"].strip().splitlines()) == 1 + 4
    assert len(downloads["hands"].strip().splitlines()) == 1  # no hand played yet: header
