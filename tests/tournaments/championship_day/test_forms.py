"""The day's forms and labels: the stage form's settings by format, the catalan preset's
squads of three, a table named once."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.championship_day.conftest import url


def test_the_stage_form_marks_each_setting_with_its_formats_and_asks_no_tiebreak(
    organiser_client, championship
):
    html = organiser_client.get(url("stage_create", championship.slug)).content.decode()
    assert 'data-formats="swiss"' in html
    assert 'data-formats="single_elimination groups_knockout"' in html
    assert "js/stage_form.js" in html
    assert "tiebreak_1" not in html


def test_the_catalan_preset_starts_with_squads_of_three(organiser_client):
    page = organiser_client.get(reverse("organiser:championship_create") + "?preset=catalan")
    assert page.context["form"]["team_size"].value() == 3
    page = organiser_client.get(reverse("organiser:championship_create"))
    assert page.context["form"]["team_size"].value() == 2


@pytest.mark.parametrize(
    ("table", "shown"),
    [("7", "Table 7"), ("B2", "Table B2"), ("Mesa del fondo", "Mesa del fondo"), ("", "")],
)
def test_a_table_is_named_once(table, shown):
    from django.utils import translation

    from tournaments.templatetags.stages import table_label

    with translation.override("en"):
        assert table_label(table) == shown
