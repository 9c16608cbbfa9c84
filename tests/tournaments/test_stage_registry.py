"""The stage-format registry: adding a format is one class, and everything else follows."""

import pytest
from django.template import Context, Template
from django.utils import translation

from tournaments.errors import TournamentError
from tournaments.models import Match
from tournaments.stages import registry, rounds
from tournaments.stages import services as stage_services
from tournaments.web.organiser.forms import StageForm


class KingOfTheTable(registry.StageFormat):
    """A toy format: the two best seeds meet, once, for as many games as the setting says."""

    key = "king_of_the_table"
    label = "King of the table"
    defaults = {"games": 1}
    fields = {"games": lambda: __import__("django").forms.IntegerField(min_value=1)}

    def next_round(self, stage):
        if stage.rounds.exists():
            raise TournamentError("Only one round.", code="no_round_left")
        seeds = rounds.seeded_team_ids(stage.teams.all())
        round_ = rounds.new_round(stage, "K")
        return rounds.create_pairings(stage, round_, [_Pairing(seeds[0], seeds[1])], None)


class _Pairing:
    def __init__(self, home, away):
        self.home, self.away = home, away


@pytest.fixture
def king():
    registry.register(KingOfTheTable)
    yield registry.FORMATS[KingOfTheTable.key]
    del registry.FORMATS[KingOfTheTable.key]


def test_every_registered_variant_is_offered_by_the_stage_form(championship):
    form = StageForm(championship=championship)
    offered = [key for key, _label in form.fields["format"].choices]
    # The tables of three (gallo) are offered to championships of gallo only.
    assert offered == [variant.key for fmt, variant in registry.variants() if not fmt.has_tables]
    assert offered == [
        "round_robin",
        "round_robin_double",
        "league",
        "league_home_away",
        "swiss",
        "single_elimination",
        "double_elimination",
        "double_elimination_no_reset",
        "groups_knockout",
    ]
    # Each format's own settings become fields, once each.
    assert {"rounds", "group_count", "advance", "third_place"} <= set(form.fields)
    assert {"first_date", "interval", "weekday", "time"} <= set(form.fields)


def test_a_new_format_is_one_class(championship, make_teams, king):
    teams = make_teams(championship, 3)
    form = StageForm(
        {
            "format": "king_of_the_table",
            "games": "3",
            "teams": [t.pk for t in teams],
            **{f"tiebreak_{i}": key for i, key in enumerate(championship.tiebreaks, start=1)},
        },
        championship=championship,
    )
    assert "games" in form.fields
    assert form.is_valid(), form.errors
    stage = stage_services.stage_create(championship=championship, **form.service_kwargs())
    assert (stage.format, stage.settings) == ("king_of_the_table", {"games": 3})
    chain = list(championship.tiebreaks)
    championship.refresh_from_db()
    assert championship.tiebreaks == chain

    (match,) = stage_services.round_generate(stage=stage)
    assert (match.team_a_id, match.team_b_id) == (teams[0].pk, teams[1].pk)
    with pytest.raises(TournamentError) as error:
        stage_services.round_generate(stage=stage)
    assert error.value.code == "no_round_left"
    assert Match.objects.filter(stage=stage).count() == 1

    shown = Template("{% load stages %}{{ stage|format_label }} {{ stage|has_bracket }}")
    assert shown.render(Context({"stage": stage})) == "King of the table False"


def test_an_unknown_format_or_setting_is_refused(championship):
    with pytest.raises(TournamentError) as error:
        stage_services.stage_create(championship=championship, format="lottery")
    assert error.value.code == "bad_format"
    with pytest.raises(TournamentError) as error:
        stage_services.stage_create(
            championship=championship, format="swiss", settings={"cycles": 2}
        )
    assert error.value.code == "bad_setting"


@pytest.mark.parametrize(
    ("key", "bracket"),
    [
        ("round_robin", False),
        ("swiss", False),
        ("single_elimination", True),
        ("double_elimination", True),
        ("groups_knockout", True),
    ],
)
def test_bracket_pages_follow_the_registry(championship, make_teams, client, key, bracket):
    make_teams(championship, 4)
    stage = stage_services.stage_create(championship=championship, format=key)
    with translation.override("en"):
        page = client.get(f"/c/{championship.slug}/stages/{stage.pk}/bracket/")
        detail = client.get(f"/c/{championship.slug}/").content.decode()
    assert page.status_code == (200 if bracket else 404)
    assert (f"/stages/{stage.pk}/bracket/" in detail) is bracket
    assert str(registry.FORMATS[key].label) in detail
