"""Writes to championships: every change of the domain goes through one of these functions.

Each is keyword-only, typed and atomic; a bad request raises
:class:`tournaments.errors.TournamentError` (a ``ValidationError`` with a translated
message) and changes nothing. Signatures are documented in docs/tournaments.md.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Max, Prefetch, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.errors import EngineError
from scoring.rules import RuleSet
from tournaments import formats, records, tiebreaks
from tournaments.errors import TournamentError, from_engine, from_format
from tournaments.formats.base import FormatError
from tournaments.models import (
    Championship,
    Game,
    Group,
    Hand,
    Match,
    Membership,
    Player,
    Round,
    Stage,
    StandingsSnapshot,
    Team,
)

REFEREES_GROUP = "referees"
"""Users in this Django group (or staff users) may referee matches."""

# What may follow each status (organisers may also step back one, e.g. to reopen entries).
_STATUS_FLOW = {
    Championship.Status.DRAFT: {Championship.Status.REGISTRATION},
    Championship.Status.REGISTRATION: {Championship.Status.DRAFT, Championship.Status.RUNNING},
    Championship.Status.RUNNING: {Championship.Status.REGISTRATION, Championship.Status.FINISHED},
    Championship.Status.FINISHED: {Championship.Status.RUNNING},
}

_DECIDED = (Match.Status.FINISHED, Match.Status.WALKOVER)


# -- championships ------------------------------------------------------------------


@transaction.atomic
def championships_finish_ended(*, today: datetime.date) -> int:
    """Mark as finished every running championship whose end date is before ``today``.

    Returns how many changed; running it again the same day changes nothing.
    """
    return Championship.objects.filter(
        status=Championship.Status.RUNNING, end_date__lt=today
    ).update(status=Championship.Status.FINISHED)


def _check_rules(spec: Any) -> dict[str, Any]:
    try:
        RuleSet.from_spec(spec)
    except EngineError as error:
        raise from_engine(error) from None
    return dict(spec)


def _check_tiebreaks(chain: Sequence[str]) -> list[str]:
    try:
        tiebreaks.check_chain(list(chain))
    except FormatError as error:
        raise from_format(error) from None
    return list(chain)


@transaction.atomic
def championship_create(
    *,
    name: str,
    slug: str,
    start_date: datetime.date,
    preset: str = "argentine",
    options: Mapping[str, Any] | None = None,
    team_size: int = 2,
    end_date: datetime.date | None = None,
    venue: str = "",
    tiebreaks: Sequence[str] | None = None,
    seed: str = "",
    organisers: Iterable[AbstractBaseUser] = (),
) -> Championship:
    """Create a championship in draft from a rule preset plus options.

    The rule set is checked by the engine: an unknown option or value raises a
    ``TournamentError`` naming it. ``tiebreaks`` are keys of ``tournaments.tiebreaks``
    (default ``DEFAULT_CHAIN``).
    """
    rules = _check_rules({"preset": preset, **(options or {})})
    if team_size not in (1, 2, 3, 4):
        raise TournamentError(
            _("A team has 1, 2, 3 or 4 players, not %(size)s."),
            code="bad_team_size",
            params={"size": team_size},
        )
    championship = Championship(
        name=name,
        slug=slug,
        start_date=start_date,
        end_date=end_date,
        venue=venue,
        rules=rules,
        team_size=team_size,
        tiebreaks=_check_tiebreaks(tiebreaks or tiebreaks_default()),
        seed=seed,
    )
    championship.full_clean()
    championship.save()
    championship.organisers.set(list(organisers))
    return championship


@transaction.atomic
def championship_update(
    *,
    championship: Championship,
    name: str,
    start_date: datetime.date,
    end_date: datetime.date | None = None,
    venue: str = "",
) -> Championship:
    """Change a championship's name, dates and venue (its slug, the public address, stays)."""
    if end_date is not None and end_date < start_date:
        raise TournamentError(
            _("A championship cannot end before it starts."), code="dates_reversed"
        )
    championship = Championship.objects.select_for_update().get(pk=championship.pk)
    championship.name = name
    championship.start_date = start_date
    championship.end_date = end_date
    championship.venue = venue
    championship.full_clean()
    championship.save(update_fields=["name", "start_date", "end_date", "venue"])
    return championship


def tiebreaks_default() -> list[str]:
    return list(tiebreaks.DEFAULT_CHAIN)


@transaction.atomic
def championship_update_rules(
    *,
    championship: Championship,
    preset: str,
    options: Mapping[str, Any] | None = None,
    tiebreaks: Sequence[str] | None = None,
) -> Championship:
    """Change the rule set (and tie-breaks) while no hand has been recorded."""
    championship = Championship.objects.select_for_update().get(pk=championship.pk)
    if Hand.objects.filter(match__stage__championship=championship).exists():
        raise TournamentError(
            _("The rules cannot change once hands have been recorded."), code="rules_locked"
        )
    championship.rules = _check_rules({"preset": preset, **(options or {})})
    if tiebreaks is not None:
        championship.tiebreaks = _check_tiebreaks(tiebreaks)
    championship.save(update_fields=["rules", "tiebreaks"])
    # Standings snapshots were ranked with the old chain: recomputed on the next read.
    StandingsSnapshot.objects.filter(stage__championship=championship).delete()
    return championship


@transaction.atomic
def championship_set_status(*, championship: Championship, status: str) -> Championship:
    """Move a championship along draft → registration → running → finished (or back one)."""
    championship = Championship.objects.select_for_update().get(pk=championship.pk)
    try:
        target = Championship.Status(status)
    except ValueError:
        raise TournamentError(
            _("Unknown status %(status)s."), code="bad_status", params={"status": status}
        ) from None
    current = Championship.Status(championship.status)
    if target == current:
        return championship
    if target not in _STATUS_FLOW[current]:
        raise TournamentError(
            _("A championship cannot go from “%(current)s” to “%(target)s”."),
            code="bad_status_change",
            params={"current": current.label, "target": target.label},
        )
    championship.status = target
    championship.save(update_fields=["status"])
    return championship


# -- teams and players ----------------------------------------------------------------


def _team_sizes_error(team: Team, size: int) -> TournamentError:
    return TournamentError(
        _("Team %(team)s already has the %(size)s players this championship allows."),
        code="team_full",
        params={"team": team.name, "size": size},
    )


@transaction.atomic
def team_create(
    *,
    championship: Championship,
    name: str,
    seed: int | None = None,
    club: str = "",
    players: Sequence[str] = (),
    captain: str | None = None,
) -> Team:
    """Create a team, optionally with its players (names, in seating order) and captain."""
    name = name.strip()
    if not name:
        raise TournamentError(_("A team needs a name."), code="team_name_missing")
    if Team.objects.filter(championship=championship, name=name).exists():
        raise TournamentError(
            _("This championship already has a team called %(name)s."),
            code="team_name_taken",
            params={"name": name},
        )
    if seed is not None and seed < 1:
        raise TournamentError(_("A seed is a whole number from 1."), code="bad_seed")
    team = Team.objects.create(championship=championship, name=name, seed=seed, club=club)
    for player_name in players:
        player = team_add_player(team=team, name=player_name, club=club)
        if captain is not None and player_name == captain:
            team_set_captain(team=team, player=player)
    if captain is not None and not team.memberships.filter(is_captain=True).exists():
        raise TournamentError(
            _("The cap de colla %(name)s is not a player of the team."),
            code="captain_not_member",
            params={"name": captain},
        )
    return team


@transaction.atomic
def team_add_player(
    *, team: Team, name: str = "", player: Player | None = None, club: str = ""
) -> Player:
    """Add a player (an existing one, or a new one by name) at the end of the team."""
    team = Team.objects.select_for_update().select_related("championship").get(pk=team.pk)
    size = team.championship.team_size
    if team.memberships.count() >= size:
        raise _team_sizes_error(team, size)
    if player is None:
        name = name.strip()
        if not name:
            raise TournamentError(_("A player needs a name."), code="player_name_missing")
        player = Player.objects.create(name=name, club=club)
    elif Membership.objects.filter(
        player=player, team__championship_id=team.championship_id
    ).exists():
        raise TournamentError(
            _("%(player)s already plays in a team of this championship."),
            code="player_taken",
            params={"player": player.name},
        )
    order = (team.memberships.aggregate(top=Max("order"))["top"] or 0) + 1
    Membership.objects.create(team=team, player=player, order=order)
    return player


@transaction.atomic
def team_set_captain(*, team: Team, player: Player) -> Membership:
    """Make ``player`` the team's cap de colla (only one per team)."""
    membership = Membership.objects.filter(team=team, player=player).first()
    if membership is None:
        raise TournamentError(
            _("%(player)s is not a player of %(team)s."),
            code="not_member",
            params={"player": player.name, "team": team.name},
        )
    Membership.objects.filter(team=team, is_captain=True).update(is_captain=False)
    membership.is_captain = True
    membership.save(update_fields=["is_captain"])
    return membership


def _check_team_ready(team: Team, championship: Championship) -> None:
    members = list(team.memberships.all())
    if len(members) != championship.team_size:
        raise TournamentError(
            _("Team %(team)s has %(count)s players; this championship plays with %(size)s."),
            code="team_incomplete",
            params={"team": team.name, "count": len(members), "size": championship.team_size},
        )
    if championship.is_catalan and len(members) > 1 and not any(m.is_captain for m in members):
        raise TournamentError(
            _("Team %(team)s needs a cap de colla."),
            code="captain_missing",
            params={"team": team.name},
        )


# -- stages and rounds -------------------------------------------------------------------

_FORMAT_SETTINGS = {
    Stage.Format.ROUND_ROBIN: {"cycles": 1},
    Stage.Format.SWISS: {"rounds": 5},
    Stage.Format.SINGLE_ELIMINATION: {"third_place": False},
    Stage.Format.DOUBLE_ELIMINATION: {"reset": True},
    Stage.Format.GROUPS_KNOCKOUT: {
        "group_count": 2,
        "advance": 2,
        "cycles": 1,
        "double": False,
        "reset": True,
        "third_place": False,
    },
}


@transaction.atomic
def stage_create(
    *,
    championship: Championship,
    format: str,
    name: str = "",
    settings: Mapping[str, Any] | None = None,
    teams: Iterable[Team] | None = None,
) -> Stage:
    """Add a stage played in ``format`` by ``teams`` (default: every team).

    ``settings`` (defaults in brackets): round robin ``cycles`` [1]; Swiss ``rounds`` [5];
    single elimination ``third_place`` [False]; double elimination ``reset`` [True];
    groups then knockout ``group_count`` [2], ``advance`` [2], ``cycles`` [1], ``double``,
    ``reset``, ``third_place``.
    """
    try:
        fmt = Stage.Format(format)
    except ValueError:
        raise TournamentError(
            _("Unknown format %(format)s."), code="bad_format", params={"format": format}
        ) from None
    merged = dict(_FORMAT_SETTINGS[fmt])
    unknown = set(settings or {}) - set(merged)
    if unknown:
        raise TournamentError(
            _("Unknown setting %(setting)s for this format."),
            code="bad_setting",
            params={"setting": ", ".join(sorted(unknown))},
        )
    merged.update(settings or {})
    order = (championship.stages.aggregate(top=Max("order"))["top"] or 0) + 1
    stage = Stage.objects.create(
        championship=championship,
        format=fmt,
        name=name or str(fmt.label),
        order=order,
        settings=merged,
    )
    chosen = list(teams) if teams is not None else list(championship.teams.all())
    if any(t.championship_id != championship.pk for t in chosen):
        raise TournamentError(_("A team of another championship."), code="foreign_team")
    stage.teams.set(chosen)
    return stage


def _seeded_team_ids(teams: Iterable[Team]) -> list[int]:
    ordered = sorted(teams, key=lambda t: (t.seed is None, t.seed or 0, t.name, t.pk))
    return [t.pk for t in ordered]


def _new_round(stage: Stage, label: str = "") -> Round:
    number = (stage.rounds.aggregate(top=Max("number"))["top"] or 0) + 1
    return Round.objects.create(stage=stage, number=number, label=label)


def _create_pairings(
    stage: Stage,
    round_: Round,
    pairings: Iterable[formats.Pairing],
    bye: int | None,
    group: Group | None = None,
) -> list[Match]:
    best_of = _best_of(stage.championship)
    created = [
        Match(
            stage=stage,
            round=round_,
            group=group,
            team_a_id=p.home,
            team_b_id=p.away,
            best_of=best_of,
        )
        for p in pairings
    ]
    if bye is not None:
        created.append(
            Match(
                stage=stage,
                round=round_,
                group=group,
                team_a_id=bye,
                status=Match.Status.FINISHED,
                outcome=Match.Outcome.BYE,
                winner_id=bye,
                best_of=best_of,
                finished_at=timezone.now(),
            )
        )
    return Match.objects.bulk_create(created)


def _best_of(championship: Championship) -> int:
    return RuleSet.from_spec(records.rules_spec(championship)).best_of


@transaction.atomic
def round_generate(*, stage: Stage) -> list[Match]:
    """Generate the next round of ``stage`` from its format and current results.

    Round robin: the next round of the Berger schedule (teams in seed order). Swiss: the
    pairing of the current standings, once every match of the stage is decided.
    Elimination: the first call builds the bracket from the seeds; later calls create the
    matches whose two teams are known (winners advance by themselves as results come in).
    Groups then knockout: group rounds first, then the knockout from the group standings.
    Returns the matches created; raises ``TournamentError`` when none can be.
    """
    stage = Stage.objects.select_for_update().select_related("championship").get(pk=stage.pk)
    try:
        if stage.format == Stage.Format.ROUND_ROBIN:
            return _round_robin_next(stage)
        if stage.format == Stage.Format.SWISS:
            return _swiss_next(stage)
        if stage.is_bracket:
            return _bracket_next(stage)
        return _groups_knockout_next(stage)
    except FormatError as error:
        raise from_format(error) from None


def _schedule(team_ids: list[int], cycles: int) -> list[formats.Round]:
    return formats.round_robin(team_ids, cycles=cycles)


def _round_robin_next(stage: Stage) -> list[Match]:
    if "teams" not in stage.settings:
        stage.settings["teams"] = _seeded_team_ids(stage.teams.all())
        stage.save(update_fields=["settings"])
    schedule = _schedule(stage.settings["teams"], stage.settings.get("cycles", 1))
    played = stage.rounds.count()
    if played >= len(schedule):
        raise TournamentError(
            _("Every round of this stage has already been generated."), code="no_round_left"
        )
    planned = schedule[played]
    round_ = _new_round(stage)
    return _create_pairings(stage, round_, planned.pairings, planned.bye)


def _check_all_decided(stage: Stage) -> None:
    if stage.matches.exclude(status__in=_DECIDED).exists():
        raise TournamentError(
            _("Every match of the current round must be decided first."),
            code="round_unfinished",
        )


def _swiss_next(stage: Stage) -> list[Match]:
    from tournaments.selectors import stage_standings  # selectors import services' models

    if stage.rounds.count() >= stage.settings.get("rounds", 5):
        raise TournamentError(
            _("All %(rounds)s rounds of this Swiss stage have been generated."),
            code="no_round_left",
            params={"rounds": stage.settings.get("rounds", 5)},
        )
    _check_all_decided(stage)
    standing = stage_standings(stage=stage, use_snapshot=False)
    opponents: dict[int, set[int]] = {line.team.pk: set() for line in standing}
    byes: set[int] = set()
    for a, b in stage.matches.values_list("team_a_id", "team_b_id"):
        if b is None:
            byes.add(a)
        else:
            opponents[a].add(b)
            opponents[b].add(a)
    teams = formats.swiss_teams(
        [line.team.pk for line in standing],
        {line.team.pk: line.points for line in standing},
        opponents,
        byes,
    )
    pairing = formats.swiss_pairings(teams)
    round_ = _new_round(stage)
    return _create_pairings(stage, round_, pairing.pairings, pairing.bye)


def _bracket_next(stage: Stage) -> list[Match]:
    if "bracket" not in stage.settings:
        positions = formats.seeded_positions(_seeded_team_ids(stage.teams.all()))
        stage.settings["bracket"] = {
            "positions": positions,
            "double": stage.format == Stage.Format.DOUBLE_ELIMINATION,
            "reset": bool(stage.settings.get("reset", True)),
            "third_place": bool(stage.settings.get("third_place", False)),
        }
        stage.save(update_fields=["settings"])
    created = bracket_sync(stage=stage)
    if not created:
        raise TournamentError(
            _("No match can be generated now: the bracket waits for results, or is finished."),
            code="nothing_to_generate",
        )
    return created


def _groups_knockout_next(stage: Stage) -> list[Match]:
    from tournaments.selectors import stage_standings

    settings = stage.settings
    if "groups" not in settings:
        seeds = _seeded_team_ids(stage.teams.all())
        split = formats.snake_groups(seeds, int(settings.get("group_count", 2)))
        settings["groups"] = {}
        for index, members in enumerate(split):
            name = chr(ord("A") + index)
            group = Group.objects.create(stage=stage, name=name)
            group.teams.set(members)
            settings["groups"][name] = members
        stage.save(update_fields=["settings"])
    if "bracket" in settings:
        return _bracket_next(stage)

    groups = {g.name: g for g in stage.groups.all()}
    cycles = settings.get("cycles", 1)
    schedules = {name: _schedule(ids, cycles) for name, ids in settings["groups"].items()}
    played = stage.rounds.count()
    remaining = [name for name, rounds in schedules.items() if played < len(rounds)]
    if remaining:
        round_ = _new_round(stage)
        created: list[Match] = []
        for name in remaining:
            planned = schedules[name][played]
            created += _create_pairings(stage, round_, planned.pairings, planned.bye, groups[name])
        return created

    _check_all_decided(stage)
    rankings = [
        [line.team.pk for line in stage_standings(stage=stage, group=groups[name])]
        for name in sorted(groups)
    ]
    positions = formats.knockout_positions(rankings, int(settings.get("advance", 2)))
    settings["bracket"] = {
        "positions": positions,
        "double": bool(settings.get("double", False)),
        "reset": bool(settings.get("reset", True)),
        "third_place": bool(settings.get("third_place", False)),
    }
    stage.save(update_fields=["settings"])
    return _bracket_next(stage)


def stage_bracket(stage: Stage, decided: Iterable[Match]) -> formats.Bracket | None:
    """The bracket of ``stage`` with the results of ``decided`` bracket matches reported.

    Results are reported as soon as their bracket match is ready, whatever the order they
    came in; a decided match whose teams no longer fit the bracket (after a correction
    upstream) is left out and reported by ``bracket_sync``.
    """
    spec = stage.settings.get("bracket")
    if not spec:
        return None
    bracket = formats.bracket_from_positions(
        spec["positions"],
        double=spec.get("double", False),
        reset=spec.get("reset", True),
        third_place=spec.get("third_place", False),
    )
    pending = [m for m in decided if m.bracket_id and m.winner_id is not None]
    progress = True
    while pending and progress:
        progress = False
        for match in list(pending):
            slot = bracket.matches.get(match.bracket_id)
            if slot is None or not slot.ready:
                continue
            if set(slot.teams) != {match.team_a_id, match.team_b_id}:
                continue
            outcome = (
                formats.Outcome.PLAYED
                if match.outcome in ("", Match.Outcome.PLAYED)
                else formats.Outcome(match.outcome)
            )
            bracket.report(match.bracket_id, match.winner_id, outcome=outcome)
            pending.remove(match)
            progress = True
    return bracket


def _bracket_label(bracket_id: str) -> str:
    return bracket_id.split("-")[0]


@transaction.atomic
def bracket_sync(*, stage: Stage) -> list[Match]:
    """Bring the stored bracket matches in line with the results; return those created.

    A winner advances into the next slot: the next match is created as soon as both its
    teams are known. A stored match whose teams changed (a corrected result upstream) is
    removed if nothing was recorded in it, else the correction is refused.
    """
    stored = list(stage.matches.exclude(bracket_id="").select_related("round"))
    decided = [m for m in stored if m.status in _DECIDED]
    bracket = stage_bracket(stage, decided)
    if bracket is None:
        return []
    by_id = {m.bracket_id: m for m in stored}
    for bracket_id, match in list(by_id.items()):
        slot = bracket.matches[bracket_id]
        if slot.teams == [match.team_a_id, match.team_b_id]:
            continue
        if match.status in _DECIDED or match.hands.exists():
            raise TournamentError(
                _(
                    "This change would alter who plays %(match)s, which already has results:"
                    " correct that match first."
                ),
                code="bracket_conflict",
                params={"match": str(match)},
            )
        match.delete()
        del by_id[bracket_id]
    best_of = _best_of(stage.championship)
    created = []
    for slot in bracket.ready():
        if slot.id in by_id:
            continue
        label = _bracket_label(slot.id)
        round_ = stage.rounds.filter(label=label).first() or _new_round(stage, label)
        created.append(
            Match.objects.create(
                stage=stage,
                round=round_,
                bracket_id=slot.id,
                team_a_id=slot.teams[0],
                team_b_id=slot.teams[1],
                best_of=best_of,
            )
        )
    return created


# -- matches ----------------------------------------------------------------------------


def _locked_match(match: Match) -> Match:
    """The match, locked against a concurrent writer, with what the records need."""
    # No ordering: the default one joins the round, and FOR UPDATE would lock that row too,
    # making the referees of one round wait for each other.
    Match.objects.select_for_update().filter(pk=match.pk).order_by().only("pk").first()
    members = Membership.objects.select_related("player").order_by("order")
    return (
        Match.objects.select_related("stage__championship", "team_a", "team_b")
        .prefetch_related(
            Prefetch("team_a__memberships", queryset=members),
            Prefetch("team_b__memberships", queryset=members),
        )
        .get(pk=match.pk)
    )


def _is_referee(user: AbstractBaseUser) -> bool:
    return bool(user.is_staff or user.groups.filter(name=REFEREES_GROUP).exists())


@transaction.atomic
def match_assign(
    *,
    match: Match,
    table: str | None = None,
    scheduled_at: datetime.datetime | None = None,
    referee: AbstractBaseUser | None = None,
) -> Match:
    """Set a match's table, time and referee (a user in the ``referees`` group, or staff).

    Arguments left ``None`` are not changed.
    """
    match = Match.objects.select_for_update().get(pk=match.pk)
    if referee is not None:
        if not _is_referee(referee):
            raise TournamentError(
                _("%(user)s is not a referee."),
                code="not_referee",
                params={"user": referee.get_username()},
            )
        match.referee = referee
    if table is not None:
        match.table = table
    if scheduled_at is not None:
        match.scheduled_at = scheduled_at
    match.save(update_fields=["referee", "table", "scheduled_at"])
    return match


def _check_playable(match: Match) -> None:
    if match.is_bye:
        raise TournamentError(_("A bye is not played."), code="bye")
    if match.status == Match.Status.WALKOVER:
        raise TournamentError(
            _("This match was decided by walkover: no hand can be recorded."), code="walkover"
        )


@transaction.atomic
def match_start(*, match: Match, seats: Sequence[int | str] | None = None) -> Match:
    """Seat the players and open the match for hand entry.

    ``seats``: the players (ids or ``p<id>`` keys) counter-clockwise, the first hand's
    mano first; default the members of the two teams alternating. Both teams must be
    complete and, in catalan, have their cap de colla.
    """
    match = _locked_match(match)
    _check_playable(match)
    if match.hands.exists():
        raise TournamentError(
            _("The seats cannot change once hands have been recorded."), code="seats_locked"
        )
    championship = match.stage.championship
    for team in (match.team_a, match.team_b):
        _check_team_ready(team, championship)
    teams = {"A": records.team_keys(match.team_a), "B": records.team_keys(match.team_b)}
    if seats is None:
        chosen = records.default_seats(teams)
    else:
        chosen = [s if isinstance(s, str) else f"p{s}" for s in seats]
        if sorted(chosen) != sorted(teams["A"] + teams["B"]):
            raise TournamentError(
                _("The seats must list every player of both teams exactly once."),
                code="seats_invalid",
            )
    match.seats = chosen
    match.status = Match.Status.IN_PROGRESS
    match.save(update_fields=["seats", "status"])
    return match


def _check_entry(record: Any) -> dict[str, Any]:
    if not isinstance(record, Mapping) or not isinstance(record.get("events"), list):
        raise TournamentError(
            _("A hand record is an object with the list of its events."), code="bad_record"
        )
    return records.hand_entry(record)


def _score_or_fail(match: Match, entries: list[dict[str, Any]]) -> dict[str, Any]:
    try:
        return records.score(match, entries)
    except EngineError as error:
        hand = getattr(error, "hand", None)
        raise from_engine(
            error, names=records.names(match), hand=None if hand is None else hand + 1
        ) from None


@transaction.atomic
def hand_record(
    *, match: Match, record: Mapping[str, Any], recorded_by: AbstractBaseUser | None
) -> Hand:
    """Record the next hand of a match (its entry: ``cards``, ``events``...).

    The whole match record, the new hand included, is scored by the engine: an illegal
    hand raises a translated ``TournamentError`` and nothing is stored. Otherwise the hand
    is stored and the match's games, scores, status and winner are derived again; a
    bracket winner advances. Two referees on one match are serialised by a row lock.
    """
    match = _locked_match(match)
    _check_playable(match)
    if match.status == Match.Status.FINISHED:
        raise TournamentError(
            _("This match is over: correct a hand instead of adding one."), code="match_over"
        )
    if not match.seats:
        match = match_start(match=match)
        match = _locked_match(match)
    entry = _check_entry(record)
    hands = list(match.hands.order_by("number"))
    result = _score_or_fail(match, [h.record for h in hands] + [entry])
    hand = Hand.objects.create(
        match=match,
        number=len(hands) + 1,
        record=entry,
        status=result["hands"][-1]["status"],
        recorded_by=recorded_by,
    )
    _derive(match, [*hands, hand], result)
    return hand


@transaction.atomic
def match_hands_import(
    *,
    match: Match,
    records: Sequence[Mapping[str, Any]],
    recorded_by: AbstractBaseUser | None,
) -> list[Hand]:
    """Record several hands at once (a score sheet entered after play, or demo data).

    Same checks as :func:`hand_record` on the whole sequence: one illegal hand and none
    is stored.
    """
    match = _locked_match(match)
    _check_playable(match)
    if not match.seats:
        match_start(match=match)
        match = _locked_match(match)
    entries = [_check_entry(r) for r in records]
    existing = list(match.hands.order_by("number"))
    result = _score_or_fail(match, [h.record for h in existing] + entries)
    created = Hand.objects.bulk_create(
        [
            Hand(match=match, number=len(existing) + k, record=entry, recorded_by=recorded_by)
            for k, entry in enumerate(entries, start=1)
        ]
    )
    _derive(match, existing + created, result)
    return created


@transaction.atomic
def hand_correct(
    *, hand: Hand, record: Mapping[str, Any], corrected_by: AbstractBaseUser | None
) -> Hand:
    """Replace a recorded hand (a referee fixing a mistake) and derive everything again.

    The whole match is re-scored with the corrected hand; if any hand becomes illegal, or a
    later hand is no longer possible (the match now ends earlier), nothing changes.
    """
    match = _locked_match(hand.match)
    entry = _check_entry(record)
    hands = list(match.hands.order_by("number"))
    entries = [entry if h.pk == hand.pk else h.record for h in hands]
    result = _score_or_fail(match, entries)
    target = next(h for h in hands if h.pk == hand.pk)
    target.record = entry
    target.recorded_by = corrected_by or target.recorded_by
    target.corrected_at = timezone.now()
    target.save(update_fields=["record", "recorded_by", "corrected_at"])
    _derive(match, hands, result)
    return target


@transaction.atomic
def hand_delete_last(*, match: Match) -> None:
    """Delete the last hand of a match and derive everything again."""
    match = _locked_match(match)
    hands = list(match.hands.order_by("number"))
    if not hands:
        raise TournamentError(_("This match has no hand to delete."), code="no_hand")
    if match.status == Match.Status.WALKOVER:
        raise TournamentError(
            _("This match was decided by walkover: undo the walkover first."), code="walkover"
        )
    hands.pop().delete()
    result = _score_or_fail(match, [h.record for h in hands])
    _derive(match, hands, result)


def _derive(match: Match, hands: list[Hand], result: Mapping[str, Any]) -> None:
    """Store what the engine derived: hands' points, games, the match's score and winner."""
    team_of = {"A": match.team_a_id, "B": match.team_b_id}
    match.games.all().delete()
    games: list[Game] = []
    for number, game in enumerate(result["games"], start=1):
        games.append(
            Game(
                match=match,
                number=number,
                score_a=game["score"].get("A", 0),
                score_b=game["score"].get("B", 0),
                winner_id=team_of[game["winner"]],
            )
        )
    hand_results = result["hands"]
    running = hand_results and hand_results[-1]["status"] != "game_over"
    if running:
        last = hand_results[-1]["score"]
        games.append(
            Game(
                match=match,
                number=len(games) + 1,
                score_a=last.get("A", 0),
                score_b=last.get("B", 0),
            )
        )
    games = Game.objects.bulk_create(games)

    context = records.hand_context(match.seats, hand_results)
    game_index = 0
    for hand, outcome, ctx in zip(hands, hand_results, context[:-1], strict=True):
        hand.game = games[game_index] if games else None
        hand.order = ctx["order"]
        hand.score_before_a, hand.score_before_b = ctx["score"]["A"], ctx["score"]["B"]
        hand.points_a = outcome["points"].get("A", 0)
        hand.points_b = outcome["points"].get("B", 0)
        hand.score_a = outcome["score"].get("A", 0)
        hand.score_b = outcome["score"].get("B", 0)
        hand.status = outcome["status"]
        if outcome["status"] == "game_over":
            game_index += 1
    Hand.objects.bulk_update(
        hands,
        [
            "game",
            "order",
            "score_before_a",
            "score_before_b",
            "points_a",
            "points_b",
            "score_a",
            "score_b",
            "status",
        ],
    )

    was_decided = match.status in _DECIDED
    old_winner = match.winner_id
    match.chicos_a = sum(1 for g in result["games"] if g["winner"] == "A")
    match.chicos_b = sum(1 for g in result["games"] if g["winner"] == "B")
    match.tantos_a = sum(g.score_a for g in games)
    match.tantos_b = sum(g.score_b for g in games)
    winner = result["winner"]
    match.winner_id = team_of[winner] if winner else None
    if winner:
        match.status = Match.Status.FINISHED
        match.outcome = Match.Outcome.PLAYED
        match.finished_at = match.finished_at or timezone.now()
    else:
        match.status = Match.Status.IN_PROGRESS if hands else Match.Status.SCHEDULED
        match.outcome = ""
        match.finished_at = None
    match.save(
        update_fields=[
            "chicos_a",
            "chicos_b",
            "tantos_a",
            "tantos_b",
            "winner",
            "status",
            "outcome",
            "finished_at",
        ]
    )
    if was_decided or winner:
        _result_changed(
            match, advanced=was_decided != bool(winner) or old_winner != match.winner_id
        )


def _result_changed(match: Match, *, advanced: bool = True) -> None:
    """A decided result appeared, changed or vanished: brackets and standings follow."""
    if match.bracket_id and advanced:
        bracket_sync(stage=match.stage)
    standings_invalidate(stage=match.stage)


@transaction.atomic
def match_walkover(
    *,
    match: Match,
    winner: Team,
    reason: str,
    forfeit: bool = False,
    recorded_by: AbstractBaseUser | None = None,
) -> Match:
    """Decide a match without play: ``winner`` takes it, the other team did not turn up.

    With ``forfeit`` the other team gave up (or was disqualified) during the match: the
    hands already recorded stay. The winner is credited the chicos still needed to win the
    match, each at the rule set's target; the loser keeps what it had won.
    """
    match = _locked_match(match)
    _check_playable(match)
    if match.status == Match.Status.FINISHED:
        raise TournamentError(_("This match is already decided."), code="match_over")
    if winner.pk not in (match.team_a_id, match.team_b_id):
        raise TournamentError(
            _("%(team)s does not play this match."), code="not_in_match", params={"team": winner}
        )
    if not reason.strip():
        raise TournamentError(_("Give the reason for the walkover."), code="reason_missing")
    if not forfeit and match.hands.exists():
        raise TournamentError(
            _("Hands have been recorded in this match: record a forfeit instead."),
            code="walkover_after_play",
        )
    rules = RuleSet.from_spec(records.rules_spec(match.stage.championship, best_of=match.best_of))
    need = match.best_of // 2 + 1
    finished_games = list(match.games.filter(winner__isnull=False))
    # An unfinished chico of a forfeit goes to the winner: drop its partial score.
    match.games.filter(winner__isnull=True).delete()
    won = sum(1 for g in finished_games if g.winner_id == winner.pk)
    is_a = winner.pk == match.team_a_id
    for number in range(len(finished_games) + 1, len(finished_games) + need - won + 1):
        Game.objects.create(
            match=match,
            number=number,
            score_a=rules.target if is_a else 0,
            score_b=0 if is_a else rules.target,
            winner=winner,
        )
    games = list(match.games.all())
    match.chicos_a = sum(1 for g in games if g.winner_id == match.team_a_id)
    match.chicos_b = sum(1 for g in games if g.winner_id == match.team_b_id)
    match.tantos_a = sum(g.score_a for g in games)
    match.tantos_b = sum(g.score_b for g in games)
    match.winner = winner
    match.status = Match.Status.WALKOVER
    match.outcome = Match.Outcome.FORFEIT if forfeit else Match.Outcome.WALKOVER
    match.reason = reason.strip()
    match.finished_at = timezone.now()
    match.save()
    _result_changed(match)
    return match


@transaction.atomic
def match_walkover_undo(*, match: Match) -> Match:
    """Undo a walkover or forfeit: the match is derived from its hands again."""
    match = _locked_match(match)
    if match.status != Match.Status.WALKOVER:
        raise TournamentError(_("This match was not decided by walkover."), code="not_walkover")
    match.status = Match.Status.IN_PROGRESS
    match.reason = ""
    match.save(update_fields=["status", "reason"])
    hands = list(match.hands.order_by("number"))
    _derive(match, hands, _score_or_fail(match, [h.record for h in hands]))
    return match


# -- standings ------------------------------------------------------------------------------


def standings_invalidate(*, stage: Stage) -> None:
    """Drop the stage's snapshots now and queue their refresh once the result is committed."""
    StandingsSnapshot.objects.filter(stage=stage).delete()
    from tournaments.tasks import standings_refresh

    stage_id = stage.pk
    transaction.on_commit(lambda: standings_refresh.delay(stage_id))


@transaction.atomic
def standings_refresh(*, stage: Stage) -> int:
    """Recompute and store the standings snapshots of a stage (and of each group).

    Idempotent; returns how many snapshots were written.
    """
    from tournaments.selectors import stage_standings

    written = 0
    targets: list[Group | None] = list(stage.groups.all()) or [None]
    for group in targets:
        lines = stage_standings(stage=stage, group=group, use_snapshot=False)
        rows = [line.to_row() for line in lines]
        try:
            with transaction.atomic():
                StandingsSnapshot.objects.update_or_create(
                    stage=stage, group=group, defaults={"rows": rows}
                )
        except IntegrityError:  # a concurrent refresh wrote it first: same content
            continue
        written += 1
    return written


@transaction.atomic
def team_remove(*, team: Team) -> None:
    """Remove a team (and its memberships) that has not been drawn into any match."""
    if Match.objects.filter(Q(team_a=team) | Q(team_b=team)).exists():
        raise TournamentError(
            _("Team %(team)s has matches and cannot be removed."),
            code="team_has_matches",
            params={"team": team.name},
        )
    players = [m.player_id for m in team.memberships.all()]
    team.delete()
    # A player belongs to the team he was created for: drop those left without a team.
    Player.objects.filter(pk__in=players, memberships__isnull=True).delete()
