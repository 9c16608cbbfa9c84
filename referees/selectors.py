"""Reads of the referee pages: whose matches, who may referee one, the match sheet.

A match's sheet is open to its assigned referee and to whoever manages its championship
(its organisers; staff with the permission to manage every championship);
:func:`match_for_referee` answers 404 to anyone else, as if the match did not exist. Whether
hands may be written there and then is the services' rule
(``tournaments.results.selectors.hand_write_problem``), shown on the sheet.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, replace
from typing import Any

from django.db.models import Prefetch, Q, QuerySet
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import EngineError, Phase, RuleSet, next_hand, phase
from tournaments.championships import selectors as championship_selectors
from tournaments.championships.selectors import MEMBERS_IN_ORDER
from tournaments.models import Hand, HandDraft, Match, MatchConfirmation
from tournaments.results import records

_OPEN = (Match.Status.SCHEDULED, Match.Status.IN_PROGRESS)
# A finished match is listed until the end of its day, where its championship plays.
_DONE_WITHIN = datetime.timedelta(hours=36)


def _list_queryset() -> QuerySet[Match]:
    return (
        Match.objects.filter(team_b__isnull=False)
        .select_related("stage__championship", "round", "team_a", "team_b", "team_c", "referee")
        .prefetch_related("games", "confirmations")
        .order_by("scheduled_at", "table", "pk")
    )


@dataclass
class MatchList:
    """A referee's matches by what they wait for: each list soonest first."""

    in_play: list[Match]
    to_play: list[Match]
    awaiting: list[Match]  # played out, waiting for both sides' confirmation
    disputed: list[Match]  # played out, a side disputes the result
    done_today: list[Match]  # decided today (confirmed, or the organiser's decision)

    def __bool__(self) -> bool:
        return any(self.sections())

    def sections(self) -> list[list[Match]]:
        return [self.in_play, self.to_play, self.awaiting, self.disputed, self.done_today]


def _sorted(matches: QuerySet[Match], *, now: datetime.datetime) -> MatchList:
    found = MatchList([], [], [], [], [])
    since = now - _DONE_WITHIN
    candidates = matches.filter(
        Q(status__in=_OPEN)
        | Q(status=Match.Status.FINISHED, confirmed_at__isnull=True)
        | Q(finished_at__gte=since)
    )
    for match in candidates:
        if match.status == Match.Status.IN_PROGRESS:
            found.in_play.append(match)
        elif match.status == Match.Status.SCHEDULED:
            found.to_play.append(match)
        elif match.is_provisional:
            disputed = any(
                c.status == MatchConfirmation.Status.DISPUTED for c in match.confirmations.all()
            )
            (found.disputed if disputed else found.awaiting).append(match)
        elif _same_day(match.finished_at, now, match.stage.championship.zone):
            found.done_today.append(match)
    return found


def _same_day(moment: datetime.datetime | None, now: datetime.datetime, zone: Any) -> bool:
    return moment is not None and moment.astimezone(zone).date() == now.astimezone(zone).date()


def matches_for_referee(*, user: Any, now: datetime.datetime | None = None) -> MatchList:
    """The matches assigned to ``user``: in play, to play, waiting for the sides'
    confirmation, disputed, and those decided today."""
    return _sorted(_list_queryset().filter(referee=user), now=now or timezone.now())


def matches_for_organiser(*, user: Any, now: datetime.datetime | None = None) -> MatchList:
    """The same lists for the matches of the championships ``user`` manages."""
    queryset = _list_queryset()
    if not championship_selectors.manages_every_championship(user):
        managed = championship_selectors.championships_managed(user=user)
        queryset = queryset.filter(stage__championship__in=managed)
    return _sorted(queryset, now=now or timezone.now())


def organises_any(*, user: Any) -> bool:
    return championship_selectors.championships_managed(user=user).exists()


def match_for_referee(*, user: Any, pk: int) -> Match:
    """The match ``pk`` with teams, players, games and hands, if ``user`` may referee it
    (``championships.selectors.may_referee``: its referee, or who manages its championship);
    else ``Http404``. A bye is never refereed."""
    match = _sheet_match(pk)
    if match is None or not championship_selectors.may_referee(user, match):
        raise Http404("No such match.")
    return match


def _sheet_match(pk: int) -> Match | None:
    """Match ``pk`` with what its sheet shows (``None`` for none, or a bye)."""
    return (
        Match.objects.filter(pk=pk, team_b__isnull=False)
        .select_related("stage__championship", "round", "team_a", "team_b", "winner", "referee")
        .prefetch_related(
            Prefetch("team_a__memberships", queryset=MEMBERS_IN_ORDER),
            Prefetch("team_b__memberships", queryset=MEMBERS_IN_ORDER),
            "games__winner",
            Prefetch("hands", queryset=Hand.objects.order_by("number")),
        )
        .first()
    )


def match_for_team(*, team: Any, pk: int) -> Match:
    """The match ``pk`` loaded as :func:`match_for_referee` loads it, if ``team`` plays it
    (a table of three's third too); else ``Http404``, as if it did not exist. Whether the
    team keeps its score is ``results.selectors.team_scorer_problem``'s rule."""
    match = _sheet_match(pk)
    if match is None or match.side_of(team.pk) is None:
        raise Http404("No such match.")
    return match


def phase_label(found: Phase | None) -> str:
    """A side's phase in words: "3 malas", "1 buena", "mestre del joc" ("" for none)."""
    if found is None:
        return ""
    if found.name == "mestre":
        return _("mestre del joc")
    if found.name == "buenas":
        return ngettext("%(n)s buena", "%(n)s buenas", found.count) % {"n": found.count}
    return ngettext("%(n)s mala", "%(n)s malas", found.count) % {"n": found.count}


@dataclass
class Sheet:
    """What the match sheet shows besides the match itself."""

    match: Match
    rules: RuleSet
    names: dict[str, str]
    record: dict[str, Any]  # the engine's match head: the record without hands
    info: dict[str, Any] | None  # scoring.match.next_hand, None once the match is decided
    hands: list[Hand]
    seats: list[str]  # record keys, counter-clockwise, the first hand's mano first

    @property
    def playable(self) -> bool:
        return self.info is not None and not self.match.is_decided and not self.match.is_bye

    @property
    def started(self) -> bool:
        return bool(self.match.seats)

    @property
    def number(self) -> int:
        return self.info["number"] if self.info else len(self.hands) + 1

    @property
    def mano_name(self) -> str:
        mano = self.info["mano"] if self.info else None
        return self.names.get(mano, "") if mano else ""

    @property
    def gallo(self) -> str:
        """The next hand's gallo at a table of three, as the engine names it (por turno it
        changes every hand: never derived here)."""
        record = (self.info or {}).get("record") or {}
        return str(record.get("gallo") or "")

    @property
    def gallo_name(self) -> str:
        return self.names.get(self.gallo, self.gallo)

    @property
    def sides(self) -> tuple[str, ...]:
        return ("A", "B", "C") if self.match.team_c_id is not None else ("A", "B")

    def score_view(self) -> list[dict[str, Any]]:
        """Each side's running score of the current chico/joc, with its phase in words
        (malas/buenas, or the Catalan mestre) as the engine names it. At a table of three a
        row a player; with a fixed gallo the pair's two players share the engine's side B."""
        score = self.info["score"] if self.info else self._final_score()
        games = {"A": self.match.chicos_a, "B": self.match.chicos_b, "C": self.match.chicos_c}
        teams = {"A": self.match.team_a, "B": self.match.team_b, "C": self.match.team_c}
        members = records.lineup(self.match) if self.match.team_c_id is not None else {}
        rows = []
        for side in self.sides:
            engine_side = side if side in score else "B"
            found = phase(self.rules, score, engine_side)
            rows.append(
                {
                    "side": side,
                    "team": teams[side],
                    "points": score.get(engine_side, 0),
                    "games": games[side],
                    "mestre": found is not None and found.name == "mestre",
                    "phase_label": phase_label(found),
                    "gallo": bool(self.gallo) and self.gallo in members.get(side, ()),
                }
            )
        return rows

    def _final_score(self) -> dict[str, int]:
        """A decided match's last chico/joc as it ended (0–0 when none was played)."""
        games = list(self.match.games.all())
        if not games:
            return dict.fromkeys(self.sides, 0)
        last = games[-1]
        return {"A": last.score_a, "B": last.score_b, "C": last.score_c}

    def seat_names(self) -> list[dict[str, str]]:
        teams = records.lineup(self.match)
        side_of = {key: side for side in self.sides for key in teams.get(side, ())}
        return [
            {"key": key, "name": self.names.get(key, key), "side": side_of.get(key, "B")}
            for key in self.seats
        ]


def _next_hand(match: Match, head: dict[str, Any], hands: list[Hand]) -> dict[str, Any] | None:
    """The next hand's context from the match's stored engine state; the hands are
    replayed only when there is none in step with them (a match stored before states)."""
    state = records.stored_state(match, len(hands))
    if state is not None:
        try:
            upcoming = state.next_hand(head)
        except EngineError:
            pass  # a state that does not fit the match: replay, as without one
        else:
            return None if upcoming is None else upcoming.to_dict()
    return next_hand(records.match_record(match, [h.record for h in hands]))


def match_sheet(*, match: Match) -> Sheet:
    """The sheet of a match loaded by :func:`match_for_referee` (no further query)."""
    championship = match.stage.championship
    rules = RuleSet.from_spec(
        championship_selectors.rules_spec(championship, best_of=match.best_of)
    )
    hands = list(match.hands.all())
    names = records.names(match) if match.team_b is not None else {}
    record: dict[str, Any] = {}
    info = None
    seats: list[str] = []
    if match.team_b is not None:
        record = records.match_head(match)
        seats = record["seats"]
        if not match.is_decided:
            info = _next_hand(match, record, hands)
    return Sheet(
        match=match, rules=rules, names=names, record=record, info=info, hands=hands, seats=seats
    )


def correction_sheet(*, match: Match, number: int) -> Sheet:
    """The sheet of hand ``number`` of a match loaded by :func:`match_for_referee`, as the
    hand was about to be played: its context (mano, score, who is in) from the hands before
    it, for the organiser's hand editor. ``Http404`` if the match has no such hand."""
    sheet = match_sheet(match=match)
    if not any(h.number == number for h in sheet.hands):
        raise Http404("No such hand.")
    before = [h.record for h in sheet.hands if h.number < number]
    return replace(sheet, info=next_hand(records.match_record(match, before)))


def draft_revision(*, match: Match) -> int:
    """The revision of the match's hand in progress kept on the server (0: none yet)."""
    revision = HandDraft.objects.filter(match=match).values_list("revision", flat=True).first()
    return revision or 0
