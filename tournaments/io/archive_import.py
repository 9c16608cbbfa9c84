"""An archive read back as a new championship (docs/archive.md, "Importing").

:func:`archive_import` checks the whole file first (``archive_checks``: limits, schema,
references, engine), then writes everything in one transaction: a refused file, or
any failure on the way, leaves nothing behind. People are created new, those likely
already on record only offered to the organisers (``archive_people``); players get new
ids and every hand record, line-up, seat list and hand order is renamed to them
(``scoring.rename_players``).

Results are not copied but derived again, as for any hand Tanteo stores: the engine
scores each match's hands and its games, scores, status and winner are what it says
(walkovers, forfeits and byes keep the organiser's decision). A hand whose stored result
differs from the engine's is refused, unless the import is told to accept it: the
engine's result is then stored, and a result change (``HandRevision``, "Hand corrected",
without author) keeps what the archive said, with the reason
:data:`DISAGREEMENT_REASON`.

A table of three (a match with ``team_c``) is derived as Tanteo derives one: its ``c``
columns from the engine's side they stand for (``records.column_sides``: a fijo pair's
repeat ``b``) and its places from the engine's ranking (``records.table_places``).

A match recorded as its result is derived from its games by the engine as a reported
result is (``archive_results``).
"""

from __future__ import annotations

import datetime
import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring import MatchResult, rename_players
from tournaments import tasks
from tournaments.io import archive_people, archive_results
from tournaments.io.archive import rename_lineup, rename_view, renumber_settings
from tournaments.io.archive_checks import ArchiveError, archive_check, hand_path
from tournaments.io.archive_limits import shown
from tournaments.io.archive_values import parse_time
from tournaments.models import (
    Championship,
    Entry,
    Game,
    Group,
    Hand,
    HandRevision,
    Match,
    MatchConfirmation,
    Membership,
    Person,
    Round,
    Stage,
    Substitution,
    Team,
)
from tournaments.results import records
from tournaments.results import services as result_services
from tournaments.signals import announce
from tournaments.standings import services as standing_services

DECIDED_WITHOUT_PLAY = ("walkover", "forfeit", "bye")
#: A short name given for the copy (the schema's for the archive's own).
SLUG = re.compile(r"[-a-zA-Z0-9_]{1,100}")
#: The reason of the result change that marks a disagreement accepted on import.
DISAGREEMENT_REASON = _(
    "Imported from an archive whose stored result differs from the engine's: the engine's"
    " is kept, the archive's is the “before”."
)


@dataclass(frozen=True)
class ArchiveImport:
    """What an import made: the new championship, the disagreements it accepted and, by
    the id of each new person likely already on record, the people he may be (offered to
    the organisers, nothing merged)."""

    championship: Championship
    disagreements: list[dict[str, Any]]
    likely: dict[int, list[Person]] = field(default_factory=dict)


def free_slug(wanted: str) -> str:
    """``wanted`` if no championship has it, else ``wanted-2``, ``wanted-3``..."""
    taken = set(Championship.objects.filter(slug__startswith=wanted).values_list("slug", flat=True))
    if wanted not in taken:
        return wanted
    for number in itertools.count(2):
        suffix = f"-{number}"
        slug = wanted[: 100 - len(suffix)] + suffix
        if slug not in taken:
            return slug
    raise AssertionError  # pragma: no cover


@transaction.atomic
def archive_import(
    *,
    archive: Any,
    slug: str | None = None,
    accept_disagreements: bool = False,
    organisers: Iterable[AbstractBaseUser] = (),
) -> ArchiveImport:
    """Import ``archive`` (parsed JSON) as a new championship, or raise :class:`ArchiveError`
    naming the first problem with its JSON path, having created nothing.

    ``slug``: the new championship's short name (refused if taken); by default the
    archive's, or the first free ``<slug>-2``... ``accept_disagreements``: import hands
    whose stored result the engine does not give, marked (module docstring).
    ``organisers``: the new championship's; each is offered the people on record he may
    already see who are likely people of the archive (``archive_people.likely_known``).
    """
    disagreements = archive_check(archive)
    if disagreements and not accept_disagreements:
        first = disagreements[0]
        raise ArchiveError(
            _(
                "the archive says %(stored)s, the engine %(engine)s; import it with the"
                " engine's result only if you accept the difference"
                " (--accept-disagreements)."
            ),
            path=hand_path(archive, first["match"], first["hand"], first["field"]),
            code="archive_disagrees",
            stored=shown(first["stored"], 80),
            engine=shown(first["engine"], 80),
        )
    if slug:
        if not SLUG.fullmatch(slug):
            raise ArchiveError(
                _("a short name is 1 to 100 letters, digits, hyphens or underscores."),
                path="$.championship.slug",
                code="slug_invalid",
            )
        if Championship.objects.filter(slug=slug).exists():
            raise ArchiveError(
                _("a championship already has the short name “%(slug)s”."),
                path="$.championship.slug",
                code="slug_taken",
                slug=slug,
            )
    else:
        slug = free_slug(archive["championship"]["slug"])
    organisers = list(organisers)
    # Before the new people exist: none of them is offered as himself.
    known = archive_people.likely_known(archive["people"], organisers=organisers)
    writer = _Import(archive, slug)
    championship = writer.run(disagreements)
    championship.organisers.set(organisers)
    for stage in championship.stages.select_related("championship"):
        standing_services.standings_refresh(stage=stage)
    # The imported hands tell what any recorded hand tells: their statistics are kept, and
    # the decided matches are rated, in the order they were decided (each after commit).
    result_services.hand_statistics_rebuild(championship=championship)
    decided = Match.objects.filter(
        stage__championship=championship, status__in=Match.DECIDED
    ).order_by("finished_at", "pk")
    for match_id in decided.values_list("pk", flat=True):
        tasks.rate_match_on_commit(match_id=match_id)
    announce(championship_id=championship.pk, what="championship", slug=championship.slug)
    likely = {writer.people[key].pk: matches for key, matches in known.items()}
    return ArchiveImport(championship=championship, disagreements=disagreements, likely=likely)


def _date(value: str | None) -> datetime.date | None:
    return datetime.date.fromisoformat(value) if value else None


class _Import:
    """The archive's rows written under new ids, in the order their references need."""

    def __init__(self, archive: Mapping[str, Any], slug: str) -> None:
        self.archive = archive
        self.slug = slug

    def run(self, disagreements: Sequence[Mapping[str, Any]]) -> Championship:
        self.championship = self._championship()
        self._people()
        self._teams()
        self._stages()
        self._substitutions()
        self._matches(disagreements)
        return self.championship

    def _championship(self) -> Championship:
        c = self.archive["championship"]
        return Championship.objects.create(
            name=c["name"],
            slug=self.slug,
            status=c["status"],
            start_date=_date(c["start_date"]),
            end_date=_date(c["end_date"]),
            venue=c["venue"],
            time_zone=c["time_zone"],
            rules=c["rules"],
            team_size=c["team_size"],
            tiebreaks=list(c["tiebreaks"]),
            seed=c["seed"],
            absent_teams=c.get("absent_teams", Championship.AbsentTeams.WALKOVER),
            **archive_results.scorekeeping_fields(c),
        )

    def _people(self) -> None:
        self.people, self.player = archive_people.people_create(self.archive)
        # The archive's p1, p2... -> this site's p<id>, in every record and line-up.
        self.key = {key: player.record_key for key, player in self.player.items()}

    def _teams(self) -> None:
        rows = self.archive["teams"]
        teams = Team.objects.bulk_create(
            Team(
                championship=self.championship,
                name=t["name"],
                club=t.get("club", ""),
                seed=t.get("seed"),
            )
            for t in rows
        )
        self.team = {row["id"]: team for row, team in zip(rows, teams, strict=True)}
        Membership.objects.bulk_create(
            Membership(
                team=self.team[t["id"]],
                player=self.player[m["player"]],
                order=order,
                is_captain=m.get("captain", False),
            )
            for t in rows
            for order, m in enumerate(t["players"])
        )
        Entry.objects.bulk_create(
            Entry(
                championship=self.championship,
                team=self.team[t["id"]],
                status=t["entry"]["status"],
                position=t["entry"]["position"],
            )
            for t in rows
            if t.get("entry")
        )

    def _team_pks(self, ids: Iterable[Any]) -> list[Any]:
        return [self.team[i].pk if i in self.team else i for i in ids]

    def _stages(self) -> None:
        team_pk = {archive_id: team.pk for archive_id, team in self.team.items()}
        self.stage: dict[int, Stage] = {}
        self.group: dict[int, Group] = {}
        self.round: dict[tuple[int, int], Round] = {}
        created_at = []
        for s in self.archive["stages"]:
            stage = Stage.objects.create(
                championship=self.championship,
                name=s.get("name", ""),
                order=s["order"],
                format=s["format"],
                settings=renumber_settings(s["settings"], team_pk),
                scorekeeping=s.get("scorekeeping", ""),
            )
            stage.teams.set(self._team_pks(s["teams"]))
            self.stage[s["id"]] = stage
            for g in s["groups"]:
                group = Group.objects.create(stage=stage, name=g["name"])
                group.teams.set(self._team_pks(g["teams"]))
                self.group[g["id"]] = group
            for index, r in enumerate(s["rounds"]):
                round_ = Round.objects.create(
                    stage=stage,
                    number=r["number"],
                    label=r.get("label", ""),
                    absent=sorted(self._team_pks(r.get("absent", []))),
                )
                self.round[(s["id"], r["number"])] = round_
                where = f"$.stages[{list(self.stage).index(s['id'])}].rounds[{index}].created_at"
                when = parse_time(r.get("created_at"), where)
                if when is not None:
                    round_.created_at = when
                    created_at.append(round_)
        Round.objects.bulk_update(created_at, ["created_at"])

    def _substitutions(self) -> None:
        rows = self.archive["substitutions"]
        made = Substitution.objects.bulk_create(
            Substitution(
                team=self.team[s["team"]],
                player_out=self.player[s["out"]],
                player_in=self.player[s["in"]],
                stage=self.stage.get(s.get("stage")),
                from_round=s["from_round"],
            )
            for s in rows
        )
        for index, (row, substitution) in enumerate(zip(rows, made, strict=True)):
            when = parse_time(row.get("at"), f"$.substitutions[{index}].at")
            substitution.at = when or substitution.at
        Substitution.objects.bulk_update(made, ["at"])

    def _matches(self, disagreements: Sequence[Mapping[str, Any]]) -> None:
        accepted: dict[int, list[Mapping[str, Any]]] = {}
        for found in disagreements:
            accepted.setdefault(found["match"], []).append(found)
        for index, row in enumerate(self.archive["matches"]):
            _MatchImport(self, row, f"$.matches[{index}]").run(accepted.get(row["id"], []))


class _MatchImport:
    """One match: its row, its hands scored again, its games, history and answers."""

    def __init__(self, owner: _Import, row: Mapping[str, Any], where: str) -> None:
        self.owner = owner
        self.row = row
        self.where = where

    def _time(self, field: str, row: Mapping[str, Any] | None = None, where: str = "") -> Any:
        row = self.row if row is None else row
        return parse_time(row.get(field), f"{where or self.where}.{field}")

    def run(self, disagreements: Sequence[Mapping[str, Any]]) -> None:
        owner, row = self.owner, self.row
        team_b = owner.team[row["team_b"]] if row["team_b"] is not None else None
        team_c = owner.team[row["team_c"]] if row.get("team_c") is not None else None
        self.side = {"A": owner.team[row["team_a"]], "B": team_b, "C": team_c}
        keys = owner.key
        started = bool(row["hands"] or row["seats"] or row["status"] != "scheduled")
        match = Match.objects.create(
            stage=owner.stage[row["stage"]],
            round=owner.round[(row["stage"], row["round"])],
            group=owner.group.get(row.get("group")),
            bracket_id=row.get("bracket_id", ""),
            team_a=self.side["A"],
            team_b=team_b,
            team_c=team_c,
            table=row.get("table", ""),
            scheduled_at=self._time("scheduled_at"),
            best_of=row["best_of"],
            entry=row.get("entry", Match.Entry.QUICK),
            seats=[keys[key] for key in row["seats"]],
            lineup=rename_lineup(row["lineup"], keys) if started and team_b else {},
            reason=row.get("reason", ""),
            reason_code=row.get("reason_code", ""),
            finished_at=self._time("finished_at"),
            confirmed_at=self._time("confirmed_at"),
            reported_at=self._time("reported_at"),
            **archive_results.recorded_fields(row),
        )
        self.match = match
        self.columns = records.column_sides(match)
        entries = [rename_players(hand["record"], keys) for hand in row["hands"]]
        result = records.score(match, entries) if entries else None
        decided_by_organiser = row["outcome"] in DECIDED_WITHOUT_PLAY
        reported = archive_results.engine_result(match, row, self.where)
        if reported is not None:
            self.games = archive_results.store_result(match, reported, self.side)
        elif decided_by_organiser or result is None:
            self._as_stored()
        else:
            self._as_scored(result)
        if result is not None:
            self._hands(result)
            match.state = result.state.to_dict()
            if team_c is not None:
                match.places = records.table_places(match, result.state)
        match.save()
        self._history(disagreements, result)

    def _as_stored(self) -> None:
        """A walkover, a forfeit, a bye or a match without hands: as the archive says."""
        match, row = self.match, self.row
        match.status = row["status"]
        match.outcome = row["outcome"]
        match.winner = self.side[row["winner"]] if row["winner"] else None
        for column in self.columns:
            side = column.upper()
            setattr(match, f"chicos_{column}", row["chicos"][side])
            setattr(match, f"tantos_{column}", row["tantos"][side])
        self.games = Game.objects.bulk_create(
            Game(
                match=match,
                number=g["number"],
                score_a=g["score"]["A"],
                score_b=g["score"]["B"],
                score_c=g["score"].get("C", 0),
                winner=self.side[g["winner"]] if g["winner"] else None,
            )
            for g in self.row["games"]
        )

    def _as_scored(self, result: MatchResult) -> None:
        """A played match: its games, scores, status and winner as the engine says."""
        match = self.match
        last = result.hands[-1] if result.hands else None
        wanted = records.games_of(result.state, last, self.columns)
        self.games = Game.objects.bulk_create(
            Game(
                match=match,
                number=number,
                **{f"score_{column}": score for column, score in scores.items()},
                winner=self.side[winner] if winner else None,
            )
            for number, (scores, winner) in enumerate(wanted, start=1)
        )
        for column, side in self.columns.items():
            won = sum(1 for g in result.state.games if g.winner == side)
            setattr(match, f"chicos_{column}", won)
            setattr(
                match, f"tantos_{column}", sum(getattr(g, f"score_{column}") for g in self.games)
            )
        winner = result.state.winner
        match.winner = self.side[winner] if winner else None
        if winner:
            match.status, match.outcome = Match.Status.FINISHED, Match.Outcome.PLAYED
        else:
            match.status = Match.Status.IN_PROGRESS
            match.outcome = ""
            match.finished_at = None

    def _hands(self, result: MatchResult) -> None:
        games = {game.number: game for game in self.games}
        hands = []
        for index, (row, scored) in enumerate(zip(self.row["hands"], result.hands, strict=True)):
            where = f"{self.where}.hands[{index}]"
            hand = Hand(
                match=self.match,
                game=games.get(scored.game),
                number=scored.number,
                record=records.hand_entry(rename_players(row["record"], self.owner.key)),
                order=list(scored.order),
                **{
                    f"{field}_{column}": figures.get(side, 0)
                    for column, side in self.columns.items()
                    for field, figures in (
                        ("score_before", scored.score_before),
                        ("points", scored.points),
                        ("score", scored.score),
                    )
                },
                status=str(scored.status),
                corrected_at=self._time("corrected_at", row, where),
            )
            hand.archived_at = self._time("recorded_at", row, where)
            hands.append(hand)
        Hand.objects.bulk_create(hands)
        for hand in hands:
            hand.recorded_at = hand.archived_at or hand.recorded_at
        Hand.objects.bulk_update(hands, ["recorded_at"])
        self.hands = hands

    def _history(
        self, disagreements: Sequence[Mapping[str, Any]], result: MatchResult | None
    ) -> None:
        """The match's result changes and the sides' answers, then the disagreements
        accepted (one change per hand, one for the match)."""
        keys, match = self.owner.key, self.match
        revisions = []
        for index, r in enumerate(self.row.get("revisions", [])):
            revision = HandRevision(
                match=match,
                number=r.get("number"),
                action=r["action"],
                before=rename_view(r.get("before"), keys),
                after=rename_view(r.get("after"), keys),
                side=r.get("side", ""),
                reason=r.get("reason", ""),
            )
            revision.archived_at = self._time("at", r, f"{self.where}.revisions[{index}]")
            revisions.append(revision)
        revisions += self._marks(disagreements)
        HandRevision.objects.bulk_create(revisions)
        for revision in revisions:
            revision.at = getattr(revision, "archived_at", None) or revision.at
        HandRevision.objects.bulk_update(revisions, ["at"])
        for index, c in enumerate(self.row.get("confirmations", [])):
            answer = MatchConfirmation.objects.create(
                match=match,
                side=c["side"],
                status=c["status"],
                player=self.owner.player.get(c.get("player")),
                on_behalf=c.get("on_behalf", False),
                comment=c.get("comment", ""),
            )
            when = self._time("at", c, f"{self.where}.confirmations[{index}]")
            if when is not None:
                # ``at`` is auto_now: a queryset update keeps the archive's time.
                MatchConfirmation.objects.filter(pk=answer.pk).update(at=when)

    def _by_side(self, hand: Hand, field: str) -> dict[str, int]:
        """A hand's stored figure by side, as the archive gives it (``"C"`` at a table of
        three)."""
        return {column.upper(): getattr(hand, f"{field}_{column}") for column in self.columns}

    def _marks(self, disagreements: Sequence[Mapping[str, Any]]) -> list[HandRevision]:
        """A "Hand corrected" change for each hand (and the match) the archive and the
        engine disagree on: before, what the archive said; after, what is stored."""
        reason = gettext(str(DISAGREEMENT_REASON))
        by_hand: dict[int | None, dict[str, Any]] = {}
        for found in disagreements:
            by_hand.setdefault(found["hand"], {})[found["field"]] = found
        marks = []
        for number, fields in by_hand.items():
            if number is None:
                before = {field: f["stored"] for field, f in fields.items()}
                after = {field: f["engine"] for field, f in fields.items()}
            else:
                hand = self.hands[number - 1]
                row = self.row["hands"][number - 1]
                after = {
                    "record": hand.record,
                    "points": self._by_side(hand, "points"),
                    "score": self._by_side(hand, "score"),
                    "status": hand.status,
                }
                before = {
                    "record": hand.record,
                    "points": row["points"],
                    "score": row["score"],
                    "status": row["status"],
                }
            marks.append(
                HandRevision(
                    match=self.match,
                    number=number,
                    action=HandRevision.Action.CORRECTED,
                    before=before,
                    after=after,
                    reason=reason,
                )
            )
        return marks
