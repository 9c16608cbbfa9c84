"""In a real browser: an organiser enters a player already on record (asked "the same
person as ...?"), finds the likely pair on his people's page and merges it; every page
fits a phone. Screenshots at three sizes go to ``$TANTEO_SCREENSHOT_DIR`` to look at."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from tests.tournaments.factories import (
    ChampionshipFactory,
    PersonFactory,
    PlayerFactory,
    TeamFactory,
)
from tournaments.models import Championship, Person

SIZES = {"phone": (390, 844), "tablet": (820, 1180), "desktop": (1280, 800)}


def _fits_and_shot(page, shots, name: str) -> None:
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate("document.documentElement.scrollWidth") <= width, (page.url, size)
        page.screenshot(path=str(shots / f"{name}-{size}.png"), full_page=True)


def test_a_player_on_record_is_asked_about_then_merged(
    browser, logged_in_page, live_server, shots, csp_violations
):
    marta = get_user_model().objects.create_user(username="marta", password="envido-real-33")
    earlier = ChampionshipFactory(name="Open de Reus 2025", slug="reus")
    copa = ChampionshipFactory(
        name="Copa de Sants", slug="sants", status=Championship.Status.REGISTRATION
    )
    for championship in (earlier, copa):
        championship.organisers.add(marta)
    ana = PersonFactory(name="Ana Ruiz", club="CT Sants", licence="FED-0107", phone="600 111 222")
    team = TeamFactory(championship=earlier, name="Las Anas")
    first = team.memberships.get(order=1)
    first.player = PlayerFactory(name="Ana Ruiz", person=ana)
    first.save()
    PersonFactory(name="Beto Gil")  # never played: not offered to anyone's people's page

    page = logged_in_page(
        "/organiser/sants/teams/", "marta", "envido-real-33", viewport={"width": 390, "height": 844}
    )
    page.fill("#id_name", "Los Anchos")
    page.fill("#id_club", "CT Sants")
    page.fill("#id_player_1", "ana ruiz")
    page.fill("#id_player_2", "Carla Pons")
    page.click("#id_player_2 >> xpath=ancestor::fieldset >> summary")
    page.fill("#id_email_2", "carla@example.com")
    _fits_and_shot(page, shots, "team-form")
    page.click("button:has-text('Add the team')")
    page.wait_for_selector("text=Is this the same person?")
    _fits_and_shot(page, shots, "team-people")
    page.check("#team-people input[value='new']")
    page.click("button:has-text('Save')")
    page.wait_for_selector("text=Team Los Anchos added.")
    new = copa.teams.get().memberships.get(order=1).player.person
    assert new != ana

    page.goto(live_server.url + "/organiser/people/")
    page.wait_for_selector("text=Likely the same person")
    _fits_and_shot(page, shots, "people")
    page.click("text=Review and merge")
    page.wait_for_selector("text=Merge two records")
    _fits_and_shot(page, shots, "person-merge")
    page.click("button:has-text('merge')")
    page.wait_for_selector("text=The two records are now one person")
    assert not Person.objects.filter(pk=new.pk).exists()

    page.goto(live_server.url + f"/organiser/people/{ana.pk}/")
    _fits_and_shot(page, shots, "person-edit")
    assert csp_violations == []
