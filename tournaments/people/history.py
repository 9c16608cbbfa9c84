"""Reads of people: a person's public history across championships, a team's page.

Nothing here shows a person's contact data or licence number: the public pages and the
public API read these.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet
from django.utils import timezone

from tournaments.models import (
    Championship,
    Group,
    Match,
    Membership,
    Person,
    Player,
    Stage,
    Substitution,
    Team,
    name_key,
)
from tournaments.standings.placements import current_placements

# The public history ---------------------------------------------------------------------
# (a person's page, a team's page, the persons of the public API; docs/tournaments.md)

MEMBERS = Membership.objects.select_related("player__person").order_by("order", "pk")
SUBSTITUTIONS = Substitution.objects.select_related(
    "player_out__person", "player_in__person", "stage"
).order_by("at", "pk")


@dataclass(frozen=True)
class Placement:
    """A team's place in its championship (``standings.placements``, the one rule for a
    place: the circuits' too), with the stage that placed it (and its group, when its rank
    there did). Provisional while the championship runs."""

    rank: int  # 1-based; tied teams share it (two 3rds, then 5th)
    tied: bool
    of: int  # teams placed
    stage: Stage
    group: Group | None
    provisional: bool


@dataclass(frozen=True)
class MatchLine:
    """A match seen from one of its teams."""

    match: Match
    side: str  # "A" or "B" ("C": the third player of a table of three)
    team: Team
    opponent: Team | None  # None: a bye (or the team was absent)
    round_title: str
    # Everyone he faced: the opponent, or a table of three's other two players.
    others: list[Team] = field(default_factory=list)

    @property
    def decided(self) -> bool:
        return self.match.is_decided

    @property
    def won(self) -> bool | None:
        """True, False, or None while undecided (a draw, which no format makes, is None)."""
        if not self.match.is_decided or self.match.winner_id is None:
            return None
        return self.match.winner_id == self.team.pk

    @property
    def place(self) -> int | None:
        """His place at a table of three (the engine's, stored), None elsewhere."""
        return (self.match.places or {}).get(str(self.team.pk))

    @property
    def chicos_for(self) -> int:
        return getattr(self.match, f"chicos_{self.side.lower()}")

    @property
    def chicos_against(self) -> int:
        """The chicos the others won: at a table of three with a fixed gallo the pair's are
        counted once (its two players' columns repeat them)."""
        if self.match.team_c_id is None:
            return self.match.chicos_b if self.side == "A" else self.match.chicos_a
        if self.match.stage.championship.rules.get("gallo") == "fijo":
            return self.match.chicos_b if self.side == "A" else self.match.chicos_a
        columns = {"A": self.match.chicos_a, "B": self.match.chicos_b, "C": self.match.chicos_c}
        return sum(chicos for side, chicos in columns.items() if side != self.side)


@dataclass
class Record:
    """Matches won and lost, chicos won and lost: decided matches against an opponent."""

    won: int = 0
    lost: int = 0
    chicos_won: int = 0
    chicos_lost: int = 0

    def add(self, line: MatchLine) -> None:
        if line.opponent is None or not line.decided:
            return
        if line.won is True:
            self.won += 1
        elif line.won is False:
            self.lost += 1
        self.chicos_won += line.chicos_for
        self.chicos_lost += line.chicos_against

    def add_record(self, other: Record) -> None:
        self.won += other.won
        self.lost += other.lost
        self.chicos_won += other.chicos_won
        self.chicos_lost += other.chicos_lost


@dataclass
class Stint:
    """One championship of a person: his team, who played with him, how it went."""

    championship: Championship
    team: Team
    partners: list[Player]
    placement: Placement | None
    record: Record
    matches: list[MatchLine]
    left: bool  # substituted out of the team since


@dataclass
class PersonHistory:
    person: Person
    stints: list[Stint]  # the most recent championship first
    record: Record = field(default_factory=Record)
    next_match: MatchLine | None = None


@dataclass
class TeamPage:
    team: Team
    members: list[Membership]
    substitutions: list[Substitution]
    matches: list[MatchLine]
    record: Record
    placement: Placement | None
    next_match: MatchLine | None


def public_championships() -> QuerySet[Championship]:
    """The championships whose people are public: every one that is no longer a draft
    (a draft's pages answer 404, its teams are nobody's history yet)."""
    return Championship.objects.exclude(status=Championship.Status.DRAFT)


def _played_in(championships: QuerySet[Championship]) -> Q:
    """Persons with a player in a team of ``championships``, now or substituted out."""
    members = Membership.objects.filter(
        player__person=OuterRef("pk"), team__championship__in=championships
    )
    substituted = Substitution.objects.filter(
        player_out__person=OuterRef("pk"), team__championship__in=championships
    )
    return Q(Exists(members)) | Q(Exists(substituted))


def persons_public(*, championships: QuerySet[Championship] | None = None) -> QuerySet[Person]:
    """The persons who played in ``championships`` (default: the public ones), by name."""
    if championships is None:
        championships = public_championships()
    return Person.objects.filter(_played_in(championships)).order_by("name", "pk")


def text_matches(query: str, *texts: str) -> bool:
    """Whether every word of ``query`` is in one of ``texts``, ignoring case and accents.

    >>> text_matches("begona mart", "Begoña Martínez")
    True
    >>> text_matches("ruiz", "Ana R.")
    False
    """
    # The people's one key for "the same name" (case, accents and spaces aside).
    return folded_matches(query, [name_key(text) for text in texts])


def folded_matches(query: str, folded: Sequence[str]) -> bool:
    """:func:`text_matches` on texts already folded by ``name_key`` (a search through
    many names folds them once, not at every query).

    >>> folded_matches("Begoña", ["begona martinez", "flores"])
    True
    """
    return folded_matcher(query)(folded)


def folded_matcher(query: str) -> Callable[[Sequence[str]], bool]:
    """:func:`folded_matches` for one query against many lists of folded texts: the query
    folded once (a schedule's search looks through 400 teams' names).

    >>> found = folded_matcher("ana r")
    >>> found(["ana r.", "dos"]), found(["ana ruiz"]), found(["mario"])
    (True, True, False)
    """
    words = name_key(query).split()

    def matches(folded: Sequence[str]) -> bool:
        return bool(words) and all(any(word in text for text in folded) for word in words)

    return matches


def persons_search(
    *,
    search: str = "",
    licence: str = "",
    championships: QuerySet[Championship] | None = None,
) -> QuerySet[Person] | list[Person]:
    """The persons of :func:`persons_public` whose public name or club has every word of
    ``search`` (case and accents aside), or whose licence number is ``licence`` exactly.

    A person shown as "Ana R." is found by "Ana" or "R.", never by her surname: the
    search must not tell who hides behind an initial. Without ``search`` a queryset;
    with one, a list.
    """
    found = persons_public(championships=championships)
    if licence:
        found = found.filter(licence=licence.strip())
    search = search.strip()
    if not search:
        return found
    # Compared in Python: accents on every database (no unaccent on SQLite), and the
    # public name is computed. People are thousands, not millions: one query either way.
    narrowed = found.only("pk", "name", "club", "initial_only")
    return [p for p in narrowed if text_matches(search, p.public_name, p.club)]


def _round_title(match: Match) -> str:
    return match.round.name_in(match.stage)


def _line(match: Match, team_id: int) -> MatchLine:
    teams = match.teams_by_side()
    side = match.side_of(team_id) or "A"
    others = [team for key, team in teams.items() if key != side and team is not None]
    return MatchLine(
        match=match,
        side=side,
        team=teams[side],
        opponent=others[0] if others else None,
        round_title=_round_title(match),
        others=others,
    )


def _matches_of(teams: list[Team]) -> list[Match]:
    """Every match of ``teams``, in playing order (stage, round), one query."""
    ids = [team.pk for team in teams]
    return list(
        Match.objects.filter(Q(team_a_id__in=ids) | Q(team_b_id__in=ids) | Q(team_c_id__in=ids))
        .select_related("stage__championship", "round", "group", "team_a", "team_b", "team_c")
        .order_by("stage__order", "stage_id", "round__number", "pk")
    )


def _next(lines: list[MatchLine]) -> MatchLine | None:
    """The first match still to be played against an opponent, by time (from today on,
    then those whose day passed), then round."""
    waiting = [
        line
        for line in lines
        if line.opponent is not None
        and not line.decided
        and line.team.championship.status == Championship.Status.RUNNING
    ]
    # A league's match whose day has passed unplayed (its date to be set again) comes
    # after the coming matchdays: "next" is the one a player goes to.
    today = timezone.localtime().replace(hour=0, minute=0, second=0, microsecond=0)
    waiting.sort(
        key=lambda line: (
            line.match.scheduled_at is None,
            line.match.scheduled_at is not None and line.match.scheduled_at < today,
            line.match.scheduled_at or 0,
            line.match.stage.order,
            line.match.round.number,
        )
    )
    return waiting[0] if waiting else None


def _placements(teams: list[Team]) -> dict[int, Placement]:
    """Each team's place in its championship, from the stored placements (a few queries
    for all; a championship whose results changed since is computed, as its standings
    page would be). A team in no stage yet has none."""
    current = current_placements(championships={team.championship for team in teams})
    found = {team.pk: (team, p) for team in teams if (p := current.of(team)) is not None}
    group_ids = {p.group_id for _, p in found.values() if p.group_id}
    groups = Group.objects.in_bulk(group_ids) if group_ids else {}
    placements = {}
    for team_id, (team, placement) in found.items():
        placements[team_id] = Placement(
            rank=placement.place,
            tied=placement.tied,
            of=placement.of,
            stage=current.stages[placement.stage_id],
            group=groups.get(placement.group_id) if placement.group_id else None,
            provisional=team.championship.status != Championship.Status.FINISHED,
        )
    return placements


def person_history(
    *, person: Person, championships: QuerySet[Championship] | None = None
) -> PersonHistory:
    """Every championship of ``championships`` (default: the public ones) that ``person``
    played, through his players: his team, his partners, its placement, his record (the
    matches he played: the line-up stored when play started, else the team as it is), his
    matches; and his next match. A fixed number of queries, however many championships
    and matches (each stale standings snapshot costs a few more)."""
    if championships is None:
        championships = public_championships()
    teams = list(
        Team.objects.filter(championship__in=championships)
        .filter(
            Q(memberships__player__person=person)
            | Q(pk__in=Substitution.objects.filter(player_out__person=person).values("team_id"))
        )
        .distinct()
        .select_related("championship")
        .prefetch_related(
            Prefetch("memberships", queryset=MEMBERS),
            Prefetch("substitutions", queryset=SUBSTITUTIONS),
        )
    )
    matches = _matches_of(teams)
    placements = _placements(teams)
    history = PersonHistory(person=person, stints=[])
    upcoming: list[MatchLine] = []
    for team in sorted(
        teams, key=lambda t: (t.championship.start_date, t.championship.pk), reverse=True
    ):
        members = [m.player for m in team.memberships.all()]
        known = {p.record_key: p for p in members}
        for substitution in team.substitutions.all():
            for player in (substitution.player_out, substitution.player_in):
                known.setdefault(player.record_key, player)
        mine = {key for key, player in known.items() if player.person_id == person.pk}
        current = any(player.person_id == person.pk for player in members)
        stint = Stint(
            championship=team.championship,
            team=team,
            partners=[],
            placement=placements.get(team.pk),
            record=Record(),
            matches=[],
            left=not current,
        )
        partners: dict[str, Player] = {}
        for match in matches:
            if team.pk not in (match.team_a_id, match.team_b_id, match.team_c_id):
                continue
            line = _line(match, team.pk)
            line.team.championship = team.championship
            lineup = (match.lineup or {}).get(line.side)
            played = bool(mine & set(lineup)) if lineup else current
            if not played:
                continue
            stint.matches.append(line)
            stint.record.add(line)
            if lineup:
                partners.update({k: known[k] for k in lineup if k in known and k not in mine})
            if not line.decided and current:
                upcoming.append(line)
        if current:  # and whoever plays with him now, though no match has started yet
            partners.update({p.record_key: p for p in members if p.person_id != person.pk})
        stint.partners = list(partners.values())
        history.record.add_record(stint.record)
        history.stints.append(stint)
    history.next_match = _next(upcoming)
    return history


def person_public(
    *, person_id: int, championships: QuerySet[Championship] | None = None
) -> PersonHistory | None:
    """The history of a person who played in ``championships`` (default: the public
    ones), or None: someone whose every team is in a draft has no public page yet."""
    person = Person.objects.filter(pk=person_id).first()
    if person is None:
        return None
    history = person_history(person=person, championships=championships)
    return history if history.stints else None


def team_page(*, championship: Championship, team_id: int) -> TeamPage | None:
    """A team of ``championship`` for its public page: its line-up (with each person),
    its substitutions, its matches and record, its standing and its next match; None
    when it has no such team. A fixed number of queries."""
    team = (
        championship.teams.filter(pk=team_id)
        .prefetch_related(
            Prefetch("memberships", queryset=MEMBERS),
            Prefetch("substitutions", queryset=SUBSTITUTIONS),
        )
        .first()
    )
    if team is None:
        return None
    team.championship = championship
    lines = [_line(match, team.pk) for match in _matches_of([team])]
    record = Record()
    for line in lines:
        line.team.championship = championship
        record.add(line)
    return TeamPage(
        team=team,
        members=list(team.memberships.all()),
        substitutions=list(team.substitutions.all()),
        matches=lines,
        record=record,
        placement=_placements([team]).get(team.pk),
        next_match=_next(lines),
    )


def match_people(*, match_id: int) -> tuple[list[int], list[int]]:
    """The teams of a match and the persons who play it (its stored line-up's and its
    teams' current players): whose pages its result and table show. Two queries."""
    match = (
        Match.objects.filter(pk=match_id)
        .values_list("team_a_id", "team_b_id", "team_c_id", "lineup")
        .first()
    )
    if match is None:
        return [], []
    team_a, team_b, team_c, lineup = match
    # A table of three's third player too: his page shows its result and his rating.
    teams = [team for team in (team_a, team_b, team_c) if team is not None]
    keys = [key for side in ("A", "B", "C") for key in (lineup or {}).get(side, ())]
    ids = [int(key[1:]) for key in keys if isinstance(key, str) and key[1:].isdigit()]
    persons = (
        Player.objects.filter(Q(memberships__team_id__in=teams) | Q(pk__in=ids))
        .values_list("person_id", flat=True)
        .distinct()
    )
    return teams, sorted(persons)
