"""The open archive: a whole championship as one JSON document (docs/archive.md).

:func:`archive_export` reads a championship (its rules, people, teams and line-ups,
stages, rounds, matches, every hand record with its revisions, the sides' confirmations
and the walkovers) into a plain dict that ``docs/archive.schema.json`` validates and
``python -m scoring archive-check`` scores again; :mod:`tournaments.io.archive_import`
reads one back as a new championship.

Inside an archive everything is numbered afresh (people, teams, stages, groups, matches
from 1; players ``p1``, ``p2``... in the hand records), so no database id leaves the
site and two exports of the same championship are the same file. Nothing personal
leaves either: no email, phone or licence number, no account (a change's author is told
by role: ``organiser``, ``referee`` or null for Tanteo itself), and a person who asked
to be shown as "Ana R." is exported so. What a side writes to the organiser when it
answers a result (a dispute's comment, kept too as that answer's revision's reason) is
the organiser's to read: the public archive gives it empty, and only the organiser's
(``private=True``) keeps it.

A table of three (gallo) adds, and only it, a ``team_c``, a side ``"C"`` to its line-up
and to every figure (a fijo pair's ``"C"`` repeating its ``"B"``, as stored) and its
``places`` by side; a two-sided match is exported as before. A match recorded as its
result adds ``recorded``, ``reported_at`` and ``reported_side`` (and has no ``entry``),
and the championship and its stages say who keeps their score where it is not the
default: an archive without either is byte for byte what it was.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from typing import Any

from django.db.models import Prefetch

from scoring import ARCHIVE_FORMAT, ARCHIVE_VERSION, rename_players
from tournaments.championships.selectors import MEMBERS_IN_ORDER
from tournaments.models import (
    Championship,
    ChampionshipReferee,
    Entry,
    Group,
    Hand,
    HandRevision,
    Match,
    MatchConfirmation,
    Player,
    Round,
    Scorekeeping,
    Substitution,
    public_name,
)
from tournaments.results import records

#: The schema's address: its version is part of it (docs/archive.schema.json's ``$id``).
SCHEMA_ID = f"https://tanteo.org/schemas/archive/v{ARCHIVE_VERSION}.json"

CONFIRM_WITHIN_DEFAULT = Championship._meta.get_field("confirm_within").default

# The revisions whose reason is a side's own words to the organiser (its answer's comment).
ANSWERS = (HandRevision.Action.CONFIRMED, HandRevision.Action.DISPUTED)


def _time(value: datetime.datetime | datetime.date | None) -> str | None:
    return value.isoformat() if value is not None else None


def _sides(a: int, b: int, c: int | None = None) -> dict[str, int]:
    """A figure by side; ``c`` (a table of three's third side) only where given."""
    return {"A": a, "B": b} if c is None else {"A": a, "B": b, "C": c}


def _third(row: Any, field: str, three: bool) -> int | None:
    """A row's third-side figure (``<field>_c``), at a table of three only."""
    return getattr(row, f"{field}_c") if three else None


def _team_ids(value: Any, team_id: Mapping[int, int]) -> Any:
    """A list of team ids (None a bye) in the archive's numbering."""
    if not isinstance(value, list):
        return value
    return [team_id.get(item, item) if isinstance(item, int) else item for item in value]


def renumber_settings(settings: Mapping[str, Any], team_id: Mapping[int, int]) -> dict[str, Any]:
    """A stage's settings with the team ids the formats stored there (a round robin's
    ``teams``, the ``groups``' members, the bracket's ``positions``) renumbered by
    ``team_id``: the one place that knows where they are, both ways.

    >>> renumber_settings({"groups": {"A": [7, 9]}, "bracket": {"positions": [9, None]}},
    ...                   {7: 1, 9: 2})
    {'groups': {'A': [1, 2]}, 'bracket': {'positions': [2, None]}}
    """
    renumbered = dict(settings)
    if "teams" in renumbered:
        renumbered["teams"] = _team_ids(renumbered["teams"], team_id)
    if isinstance(renumbered.get("groups"), dict):
        renumbered["groups"] = {
            name: _team_ids(members, team_id) for name, members in renumbered["groups"].items()
        }
    if isinstance(renumbered.get("bracket"), dict):
        bracket = dict(renumbered["bracket"])
        bracket["positions"] = _team_ids(bracket.get("positions"), team_id)
        renumbered["bracket"] = bracket
    return renumbered


def rename_lineup(lineup: Mapping[str, Any], keys: Mapping[str, str]) -> dict[str, Any]:
    """A match's line-up (``{"A": keys, "B": keys, "captains": {...}}``, and ``"C"`` at a
    table of three) renamed."""
    sides = ("A", "B", "C") if "C" in lineup else ("A", "B")
    renamed: dict[str, Any] = {
        side: [keys.get(key, key) for key in lineup.get(side, [])] for side in sides
    }
    if isinstance(lineup.get("captains"), dict):
        renamed["captains"] = {side: keys.get(key, key) for side, key in lineup["captains"].items()}
    return renamed


def rename_view(view: Any, keys: Mapping[str, str]) -> Any:
    """A revision's view of a hand (``{"record", "points", "score", "status"}``) renamed."""
    if isinstance(view, dict) and isinstance(view.get("record"), dict):
        return {**view, "record": rename_players(view["record"], keys)}
    return view


def _scorekeeping(championship: Championship) -> dict[str, Any]:
    """Who keeps the score and the time to answer a reported result, each where it is not
    the default (referees, 30 minutes): an archive of before them is what it was."""
    found: dict[str, Any] = {}
    if championship.scorekeeping != Scorekeeping.REFEREES:
        found["scorekeeping"] = championship.scorekeeping
    if championship.confirm_within != CONFIRM_WITHIN_DEFAULT:
        found["confirm_within"] = championship.confirm_within
    return found


def _recorded(match: Match) -> dict[str, Any]:
    """How its hands were entered, for a match kept hand by hand; for a match recorded as
    its result (docs/archive.md), that, and when and by which side it was reported."""
    if match.recorded != Match.Recorded.RESULT:
        return {"entry": match.entry}
    return {
        "recorded": match.recorded,
        "reported_at": _time(match.reported_at),
        "reported_side": match.reported_side,
    }


class _Export:
    """One championship read into the archive's numbering."""

    def __init__(self, championship: Championship, *, private: bool = False) -> None:
        self.championship = championship
        self.private = private
        self.teams = list(
            championship.teams.order_by("pk").prefetch_related(
                Prefetch("memberships", queryset=MEMBERS_IN_ORDER)
            )
        )
        self.team_id = {team.pk: number for number, team in enumerate(self.teams, start=1)}
        self.stages = list(
            championship.stages.order_by("order").prefetch_related(
                Prefetch(
                    "groups", queryset=Group.objects.order_by("name").prefetch_related("teams")
                ),
                Prefetch("rounds", queryset=Round.objects.order_by("number")),
                "teams",
            )
        )
        self.stage_id = {stage.pk: number for number, stage in enumerate(self.stages, start=1)}
        self.group_id: dict[int, int] = {}
        for stage in self.stages:
            for group in stage.groups.all():
                self.group_id[group.pk] = len(self.group_id) + 1
        self.matches = list(
            Match.objects.filter(stage__championship=championship)
            .select_related("round", "team_a", "team_b", "team_c")
            .prefetch_related(
                Prefetch("team_a__memberships", queryset=MEMBERS_IN_ORDER),
                Prefetch("team_b__memberships", queryset=MEMBERS_IN_ORDER),
                Prefetch("team_c__memberships", queryset=MEMBERS_IN_ORDER),
                Prefetch("games"),
                Prefetch("hands", queryset=Hand.objects.order_by("number").select_related("game")),
                Prefetch("revisions", queryset=HandRevision.objects.order_by("pk")),
                Prefetch("confirmations", queryset=MatchConfirmation.objects.order_by("side")),
            )
            .order_by("stage__order", "round__number", "pk")
        )
        self.substitutions = list(
            Substitution.objects.filter(team__championship=championship).order_by("at", "pk")
        )
        self.referees = set(
            ChampionshipReferee.objects.filter(championship=championship).values_list(
                "user_id", flat=True
            )
        )
        self.players = self._players()
        self.key = {player.record_key: f"p{n}" for n, player in enumerate(self.players, start=1)}

    def _players(self) -> list[Player]:
        """Every player the championship names: line-ups, substitutions, matches."""
        ids: set[int] = set()
        for team in self.teams:
            ids.update(m.player_id for m in team.memberships.all())
        for substitution in self.substitutions:
            ids.update((substitution.player_out_id, substitution.player_in_id))
        for match in self.matches:
            keys = [*match.seats, *(k for side in "ABC" for k in match.lineup.get(side, []))]
            ids.update(int(key[1:]) for key in keys if key[1:].isdigit())
            ids.update(c.player_id for c in match.confirmations.all() if c.player_id)
        return list(Player.objects.filter(pk__in=ids).select_related("person").order_by("pk"))

    def people(self) -> list[dict[str, Any]]:
        self.person_id: dict[int, int] = {}
        people = []
        for player in self.players:
            person = player.person
            if person.pk in self.person_id:
                continue
            self.person_id[person.pk] = len(people) + 1
            people.append(
                {
                    "id": self.person_id[person.pk],
                    "name": person.public_name,
                    "club": person.club,
                    "initial_only": person.initial_only,
                }
            )
        return people

    def player_rows(self) -> list[dict[str, Any]]:
        return [
            {
                "key": self.key[player.record_key],
                "name": public_name(player.name, initial_only=player.person.initial_only),
                "club": player.club,
                "person": self.person_id[player.person_id],
            }
            for player in self.players
        ]

    def team_rows(self) -> list[dict[str, Any]]:
        entries = {e.team_id: e for e in Entry.objects.filter(championship=self.championship)}
        rows = []
        for team in self.teams:
            entry = entries.get(team.pk)
            rows.append(
                {
                    "id": self.team_id[team.pk],
                    "name": team.name,
                    "club": team.club,
                    "seed": team.seed,
                    "players": [
                        {"player": self.key[m.player.record_key], "captain": m.is_captain}
                        for m in team.memberships.all()
                    ],
                    "entry": (
                        {"status": entry.status, "position": entry.position} if entry else None
                    ),
                }
            )
        return rows

    def substitution_rows(self) -> list[dict[str, Any]]:
        return [
            {
                "team": self.team_id[s.team_id],
                "out": self.key[f"p{s.player_out_id}"],
                "in": self.key[f"p{s.player_in_id}"],
                "stage": self.stage_id.get(s.stage_id),
                "from_round": s.from_round,
                "at": _time(s.at),
            }
            for s in self.substitutions
        ]

    def stage_rows(self) -> list[dict[str, Any]]:
        return [
            {
                "id": self.stage_id[stage.pk],
                "name": stage.name,
                "order": stage.order,
                "format": stage.format,
                "settings": renumber_settings(stage.settings, self.team_id),
                "teams": sorted(self.team_id[t.pk] for t in stage.teams.all()),
                "groups": [
                    {
                        "id": self.group_id[group.pk],
                        "name": group.name,
                        "teams": sorted(self.team_id[t.pk] for t in group.teams.all()),
                    }
                    for group in stage.groups.all()
                ],
                **({"scorekeeping": stage.scorekeeping} if stage.scorekeeping else {}),
                "rounds": [
                    {
                        "number": round_.number,
                        "label": round_.label,
                        "absent": sorted(self.team_id.get(t, t) for t in round_.absent),
                        "created_at": _time(round_.created_at),
                    }
                    for round_ in stage.rounds.all()
                ],
            }
            for stage in self.stages
        ]

    def _role(self, match: Match, user_id: int | None) -> str | None:
        if user_id is None:
            return None
        return "referee" if user_id == match.referee_id or user_id in self.referees else "organiser"

    def _names(self, match: Match) -> dict[str, str]:
        """A match's players' stored names -> as the public sees them (for confirmations'
        revisions, which kept the name)."""
        by_key = {p.record_key: p for p in self.players}
        result = {}
        for key in [k for side in "ABC" for k in match.lineup.get(side, [])] or [
            m.player.record_key
            for team in (match.team_a, match.team_b, match.team_c)
            if team is not None
            for m in team.memberships.all()
        ]:
            player = by_key.get(key)
            if player is not None:
                result[player.name] = public_name(
                    player.name, initial_only=player.person.initial_only
                )
        return result

    def _revision(self, match: Match, revision: HandRevision) -> dict[str, Any]:
        before, after = revision.before, revision.after
        if revision.action in HandRevision.HAND_ACTIONS:
            before, after = rename_view(before, self.key), rename_view(after, self.key)
        elif isinstance(after, dict) and "player" in after:
            names = self._names(match)
            after = {**after, "player": names.get(after["player"], "")}
        return {
            "number": revision.number,
            "action": revision.action,
            "before": before,
            "after": after,
            "side": revision.side,
            "reason": revision.reason if self.private or revision.action not in ANSWERS else "",
            "by": self._role(match, revision.by_id),
            "at": _time(revision.at),
        }

    @staticmethod
    def _places(match: Match) -> dict[str, int]:
        """A table's places by side (stored by team id); none before its first hand."""
        if not match.places:
            return {}
        teams = {"A": match.team_a_id, "B": match.team_b_id, "C": match.team_c_id}
        return {side: match.places[str(team)] for side, team in teams.items()}

    def match_rows(self) -> Iterable[dict[str, Any]]:
        for number, match in enumerate(self.matches, start=1):
            side = {match.team_a_id: "A", match.team_b_id: "B"}
            three = match.team_c_id is not None
            if three:
                side[match.team_c_id] = "C"

            lineup = records.lineup(match) if match.team_b_id is not None else {"A": [], "B": []}
            yield {
                "id": number,
                "stage": self.stage_id[match.stage_id],
                "round": match.round.number,
                "group": self.group_id.get(match.group_id),
                "bracket_id": match.bracket_id,
                "team_a": self.team_id[match.team_a_id],
                "team_b": self.team_id.get(match.team_b_id),
                **({"team_c": self.team_id[match.team_c_id]} if three else {}),
                "table": match.table,
                "scheduled_at": _time(match.scheduled_at),
                "status": match.status,
                "outcome": match.outcome,
                "best_of": match.best_of,
                **_recorded(match),
                "lineup": rename_lineup(lineup, self.key),
                "seats": [self.key.get(key, key) for key in match.seats],
                "winner": side.get(match.winner_id),
                "chicos": _sides(match.chicos_a, match.chicos_b, _third(match, "chicos", three)),
                "tantos": _sides(match.tantos_a, match.tantos_b, _third(match, "tantos", three)),
                **({"places": self._places(match)} if three else {}),
                "reason": match.reason,
                "reason_code": match.reason_code,
                "finished_at": _time(match.finished_at),
                "confirmed_at": _time(match.confirmed_at),
                "games": [
                    {
                        "number": game.number,
                        "score": _sides(game.score_a, game.score_b, _third(game, "score", three)),
                        "winner": side.get(game.winner_id),
                    }
                    for game in sorted(match.games.all(), key=lambda g: g.number)
                ],
                "hands": [
                    {
                        "number": hand.number,
                        "game": hand.game.number if hand.game else None,
                        "record": rename_players(hand.record, self.key),
                        "order": [self.key.get(key, key) for key in hand.order],
                        "score_before": _sides(
                            hand.score_before_a,
                            hand.score_before_b,
                            _third(hand, "score_before", three),
                        ),
                        "points": _sides(
                            hand.points_a, hand.points_b, _third(hand, "points", three)
                        ),
                        "score": _sides(hand.score_a, hand.score_b, _third(hand, "score", three)),
                        "status": hand.status,
                        "recorded_at": _time(hand.recorded_at),
                        "corrected_at": _time(hand.corrected_at),
                    }
                    for hand in match.hands.all()
                ],
                "revisions": [self._revision(match, r) for r in match.revisions.all()],
                "confirmations": [
                    {
                        "side": c.side,
                        "status": c.status,
                        "player": self.key.get(f"p{c.player_id}") if c.player_id else None,
                        "on_behalf": c.on_behalf,
                        "comment": c.comment if self.private else "",
                        "at": _time(c.at),
                    }
                    for c in match.confirmations.all()
                ],
            }


def archive_export(championship: Championship, *, private: bool = False) -> dict[str, Any]:
    """``championship`` as an archive: a dict ready for ``json.dumps`` (docs/archive.md).

    The open archive, anyone's; with ``private`` the organiser's, which also keeps what
    the sides wrote to him when they answered a result (the module's docstring). A few
    queries whatever its size (every hand is held in memory: a 5,000-hand championship is
    a few megabytes)."""
    export = _Export(championship, private=private)
    c = championship
    people = export.people()
    return {
        "$schema": SCHEMA_ID,
        "format": ARCHIVE_FORMAT,
        "version": ARCHIVE_VERSION,
        "championship": {
            "name": c.name,
            "slug": c.slug,
            "status": c.status,
            "start_date": _time(c.start_date),
            "end_date": _time(c.end_date),
            "venue": c.venue,
            "time_zone": c.time_zone,
            "rules": c.rules,
            "team_size": c.team_size,
            "tiebreaks": list(c.tiebreaks),
            # What seeds the drawing of lots: the same draws under another slug.
            "seed": c.lots_seed,
            "absent_teams": c.absent_teams,
            **_scorekeeping(c),
        },
        "people": people,
        "players": export.player_rows(),
        "teams": export.team_rows(),
        "substitutions": export.substitution_rows(),
        "stages": export.stage_rows(),
        "matches": list(export.match_rows()),
    }


def archive_file_name(championship: Championship) -> str:
    """The archive's file name: ``<slug>.tanteo.json``."""
    return f"{championship.slug}.tanteo.json"


__all__ = [
    "SCHEMA_ID",
    "archive_export",
    "archive_file_name",
    "rename_lineup",
    "rename_view",
    "renumber_settings",
]
