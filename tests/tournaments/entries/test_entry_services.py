"""Online entry's services: the policy, a team entered by its players, the organiser's
answers, each in the audit log."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.utils import timezone

from tests.tournaments.entries.conftest import enter
from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.entries import fees, selectors, services
from tournaments.errors import TournamentError
from tournaments.models import Championship, Entry, Team, TeamAct
from tournaments.people.services import PersonDetails


def _policy(championship, **changes):
    values = {
        "is_open": True,
        "capacity": None,
        "closes_at": None,
        "asks": [],
        "fee": None,
        "fee_instructions": "",
    }
    values.update(changes)
    return services.entry_policy_set(championship=championship, by=None, **values)


def _acts(team):
    return list(TeamAct.objects.filter(team=team).values_list("action", "via"))


@pytest.mark.parametrize(
    ("changes", "code", "field"),
    [
        ({"capacity": 0}, "entry_capacity", "capacity"),
        (
            {"closes_at": timezone.now() - datetime.timedelta(hours=1)},
            "entry_closes_past",
            "closes_at",
        ),
        ({"asks": ["club", "shoe size"]}, "entry_question_unknown", "asks"),
        ({"fee": Decimal("-5")}, "entry_fee", "fee"),
    ],
    ids=["capacity-0", "closing-passed", "unknown-question", "negative-fee"],
)
def test_nonsense_policies_are_refused_with_a_sentence_on_their_field(db, changes, code, field):
    championship = ChampionshipFactory(status=Championship.Status.REGISTRATION)
    with pytest.raises(TournamentError) as refused:
        _policy(championship, **changes)
    assert refused.value.code == code
    assert refused.value.params["field"] == field
    assert refused.value.text.endswith(".")
    assert selectors.entry_policy(championship) is None


def test_entries_cannot_open_once_play_has_started(db):
    championship = ChampionshipFactory(status=Championship.Status.RUNNING)
    with pytest.raises(TournamentError) as refused:
        _policy(championship)
    assert refused.value.code == "entries_closed"
    # Closed, its settings may still change (the fee, how to pay).
    _policy(championship, is_open=False, fee=Decimal("10"))


def test_teams_hold_the_places_then_wait_in_arrival_order(open_championship):
    entries = [enter(open_championship) for _ in range(6)]
    assert [e.position for e in entries] == [1, 2, 3, 4, 5, 6]
    assert [e.status for e in entries] == ["pending"] * 4 + ["waiting"] * 2
    assert [selectors.waiting_number(e) for e in entries[4:]] == [1, 2]
    assert _acts(entries[0].team) == [("entered", "form"), ("link_issued", "form")]
    assert _acts(entries[5].team) == [("waiting", "form"), ("link_issued", "form")]
    window = selectors.entry_window(open_championship)
    assert (window.taken, window.waiting, window.full, window.next_waiting) == (4, 2, True, 3)
    # A team waiting or entered but not accepted plays no stage.
    assert not open_championship.teams.playing().exists()


def test_the_team_entered_has_its_players_people_and_a_working_link(open_championship):
    open_championship.entry_policy.asks = ["club", "licence", "email"]
    open_championship.entry_policy.save()
    entry, token = services.entry_submit(
        championship=open_championship,
        team_name="Los Pardos",
        players=[
            PersonDetails(name="Ana Ruiz", licence="L-1", email="ana@example.com"),
            PersonDetails(name="Juan Gil", licence="L-2"),
        ],
        club="Rosario",
        email="ana@example.com",
        form_key="k1",
    )
    team = Team.objects.get(name="Los Pardos")
    assert entry.team == team and entry.email == "ana@example.com"
    assert team.club == "Rosario"
    members = [m.player for m in team.memberships.order_by("order")]
    assert [p.name for p in members] == ["Ana Ruiz", "Juan Gil"]
    assert [p.person.licence for p in members] == ["L-1", "L-2"]
    assert members[0].person.email == "ana@example.com"
    assert members[1].club == "Rosario"
    assert services.link_team(slug=open_championship.slug, token=token) == team


def test_the_same_form_sent_twice_enters_one_team(open_championship):
    kwargs = {
        "championship": open_championship,
        "team_name": "Los Pardos",
        "players": [PersonDetails(name="Ana"), PersonDetails(name="Juan")],
        "form_key": "same-form",
    }
    first, first_token = services.entry_submit(**kwargs)
    again, again_token = services.entry_submit(**kwargs)
    assert again.pk == first.pk
    assert (first.repeated, again.repeated) == (False, True)
    assert Team.objects.filter(championship=open_championship).count() == 1
    # The second answer still opens the team's page (the same link, not a new one).
    assert services.link_team(slug=open_championship.slug, token=again_token) == first.team
    assert services.link_team(slug=open_championship.slug, token=first_token) == first.team
    assert first.team.links.count() == 1


@pytest.mark.parametrize(
    "close",
    ["not_open", "closing_passed", "started"],
)
def test_a_closed_championship_refuses_entries_with_a_sentence(open_championship, close):
    policy = open_championship.entry_policy
    if close == "not_open":
        policy.is_open = False
        policy.save()
    elif close == "closing_passed":
        policy.closes_at = timezone.now() - datetime.timedelta(minutes=1)
        policy.save()
    else:
        Championship.objects.filter(pk=open_championship.pk).update(
            status=Championship.Status.RUNNING
        )
    with pytest.raises(TournamentError) as refused:
        enter(open_championship)
    assert refused.value.code == "entries_closed"
    assert refused.value.text
    assert not Entry.objects.exists()
    assert not Team.objects.filter(championship=open_championship).exists()


def test_every_problem_of_a_team_is_its_own_sentence(open_championship):
    open_championship.entry_policy.asks = ["club", "licence", "email", "phone"]
    open_championship.entry_policy.save()
    TeamFactory(championship=open_championship, name="Taken")
    problems = services.entry_problems(
        championship=open_championship,
        team_name="Taken",
        players=[PersonDetails(name="Ana", licence="1"), PersonDetails(name=" ana ")],
        captain=None,
        club="",
        email="not-an-address",
    )
    by_field = {p.params["field"]: p.code for p in problems}
    assert by_field == {
        "team_name": "team_name_taken",
        "club": "club_missing",
        "email": "email_invalid",
        "phone": "phone_missing",
        "player_2": "player_twice",
        "licence_2": "licence_missing",
    }
    with pytest.raises(TournamentError):
        services.entry_submit(
            championship=open_championship,
            team_name="",
            players=[PersonDetails(name="Ana"), PersonDetails(name="")],
        )
    assert not Entry.objects.exists()


def test_a_catalan_squad_needs_one_cap_de_colla(db):
    championship = ChampionshipFactory(
        status=Championship.Status.REGISTRATION, rules={"preset": "catalan"}, team_size=3
    )
    _policy(championship)
    players = [PersonDetails(name=n) for n in ("Pere", "Joan", "Marta")]
    problems = services.entry_problems(
        championship=championship,
        team_name="La Colla",
        players=players,
        captain=None,
        club="",
        email="",
    )
    assert [(p.params["field"], p.code) for p in problems] == [("captain", "captain_missing")]
    entry, _token = services.entry_submit(
        championship=championship, team_name="La Colla", players=players, captain="Joan"
    )
    captain = entry.team.memberships.get(is_captain=True)
    assert captain.player.name == "Joan"


def test_a_wrong_number_of_players_is_refused(open_championship):
    with pytest.raises(TournamentError) as refused:
        services.entry_submit(
            championship=open_championship,
            team_name="Solo",
            players=[PersonDetails(name="Ana")],
        )
    assert refused.value.code == "team_size"


def test_accepting_refusing_and_paying_write_their_acts(open_championship, organiser):
    first, second, _third, _fourth, waiting = (enter(open_championship) for _ in range(5))
    via = TeamAct.Via.ORGANISER
    services.entry_accept(entry=first, by=organiser, via=via)
    services.entry_accept(entry=first, by=organiser, via=via)  # a second tap: nothing more
    fees.entry_set_paid(entry=first, paid=True, by=organiser, via=via)
    fees.entry_set_paid(entry=first, paid=False, by=organiser, via=via)
    first.refresh_from_db()
    assert first.status == "accepted" and not first.paid and first.paid_at is None
    assert _acts(first.team)[2:] == [
        ("accepted", "organiser"),
        ("paid", "organiser"),
        ("unpaid", "organiser"),
    ]
    assert TeamAct.objects.filter(team=first.team, action="accepted").get().by == organiser
    assert list(open_championship.teams.playing()) == [first.team]

    with pytest.raises(TournamentError) as refused:
        services.entry_refuse(entry=second, by=organiser, via=via, reason="  ")
    assert refused.value.code == "entry_reason_missing"
    services.entry_refuse(entry=second, by=organiser, via=via, reason="Incomplete team")
    second.refresh_from_db()
    waiting.refresh_from_db()
    assert (second.status, second.reason) == ("refused", "Incomplete team")
    assert waiting.status == "pending"  # the place it held went to the first waiting
    assert ("promoted", "organiser") in _acts(waiting.team)
    assert TeamAct.objects.get(team=second.team, action="refused").detail == "Incomplete team"

    with pytest.raises(TournamentError) as refused:
        services.entry_accept(entry=second, by=organiser, via=via)
    assert refused.value.code == "entry_not_pending"


def test_a_withdrawal_promotes_the_first_waiting_team(open_championship, organiser):
    entries = [enter(open_championship) for _ in range(6)]
    services.entry_withdraw(team=entries[1].team, via=TeamAct.Via.ORGANISER, by=organiser)
    statuses = {e.position: s for e, s in ((e, Entry.objects.get(pk=e.pk).status) for e in entries)}
    assert statuses == {
        1: "pending",
        2: "withdrawn",
        3: "pending",
        4: "pending",
        5: "pending",
        6: "waiting",
    }


def test_a_larger_capacity_lets_the_waiting_teams_in(open_championship):
    entries = [enter(open_championship) for _ in range(6)]
    _policy(open_championship, capacity=5)
    assert Entry.objects.get(pk=entries[4].pk).status == "pending"
    assert Entry.objects.get(pk=entries[5].pk).status == "waiting"
    _policy(open_championship, capacity=None)
    assert Entry.objects.get(pk=entries[5].pk).status == "pending"


def test_the_organisers_counts(open_championship, organiser):
    open_championship.entry_policy.fee = Decimal("12.50")
    open_championship.entry_policy.save()
    entries = [enter(open_championship) for _ in range(5)]
    services.entry_accept(entry=entries[0], by=organiser, via="organiser")
    for entry in entries[:2]:
        fees.entry_set_paid(entry=entry, paid=True, by=organiser, via="organiser")
    listed = selectors.entries_for_organiser(open_championship)
    counts = selectors.entry_counts(listed, selectors.entry_policy(open_championship))
    assert (counts.entered, counts.accepted, counts.capacity, counts.waiting) == (4, 1, 4, 1)
    assert (counts.paid, counts.unpaid, counts.collected) == (2, 2, Decimal("25.00"))
