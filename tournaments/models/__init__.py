"""Championship records, one module per entity family (championships, people, teams,
stages, matches, hands, snapshots, the day of play, entries, statistics, ratings,
circuits), every model imported here: callers write ``from tournaments.models import``.
Writes go through ``services``, reads through ``selectors``.

A match is recorded one way (``Match.recorded``): hand by hand, the hand records
(``Hand.record``) being the source of truth of its result (its games, scores, status and
winner derived from them by the engine, ``tournaments.results.records``, never typed in),
or as its result, each chico's final score checked by the engine
(``tournaments.results.services.reported``). Walkovers and forfeits are the organiser's
decision (``services.match_walkover``).
"""

from __future__ import annotations

from tournaments.models.championships import (
    MANAGE_ALL_PERMISSION,
    Championship,
    ChampionshipQuerySet,
    Scorekeeping,
    default_rules,
    default_tiebreaks,
    default_time_zone,
    manages_every_championship,
    validate_time_zone,
)
from tournaments.models.circuits import (
    Circuit,
    CircuitEvent,
    CircuitPlacement,
    CircuitQualification,
    default_circuit_points,
)
from tournaments.models.day import (
    ChampionshipReferee,
    CheckIn,
    RefereeInvitation,
    Substitution,
)
from tournaments.models.entries import (
    Entry,
    EntryPolicy,
    TeamAct,
    TeamLink,
)
from tournaments.models.hands import (
    Hand,
    HandDraft,
    HandRevision,
    MatchConfirmation,
)
from tournaments.models.matches import (
    Game,
    Match,
    MatchQuerySet,
    MatchSide,
    Postponement,
)
from tournaments.models.notices import Notice, NoticeMark, PushSubscription
from tournaments.models.people import (
    Person,
    PersonMerged,
    PersonMergeRequest,
    Player,
    name_key,
    public_name,
)
from tournaments.models.ratings import (
    Rating,
    RatingChange,
    RatingFamily,
)
from tournaments.models.snapshots import (
    PlacementSnapshot,
    StandingsSnapshot,
)
from tournaments.models.stages import (
    Group,
    Round,
    Stage,
    round_name,
)
from tournaments.models.statistics import (
    HandPlayerStat,
    HandSideStat,
)
from tournaments.models.teams import (
    PLAYS,
    SEED_MAX,
    WEEKDAYS,
    Membership,
    Team,
    TeamQuerySet,
)

__all__ = [
    "MANAGE_ALL_PERMISSION",
    "PLAYS",
    "SEED_MAX",
    "WEEKDAYS",
    "Championship",
    "ChampionshipQuerySet",
    "ChampionshipReferee",
    "CheckIn",
    "Circuit",
    "CircuitEvent",
    "CircuitPlacement",
    "CircuitQualification",
    "Entry",
    "EntryPolicy",
    "Game",
    "Group",
    "Hand",
    "HandDraft",
    "HandPlayerStat",
    "HandRevision",
    "HandSideStat",
    "Match",
    "MatchConfirmation",
    "MatchQuerySet",
    "MatchSide",
    "Membership",
    "Notice",
    "NoticeMark",
    "Person",
    "PersonMergeRequest",
    "PersonMerged",
    "PlacementSnapshot",
    "Player",
    "Postponement",
    "PushSubscription",
    "Rating",
    "RatingChange",
    "RatingFamily",
    "RefereeInvitation",
    "Round",
    "Scorekeeping",
    "Stage",
    "StandingsSnapshot",
    "Substitution",
    "Team",
    "TeamAct",
    "TeamLink",
    "TeamQuerySet",
    "default_circuit_points",
    "default_rules",
    "default_tiebreaks",
    "default_time_zone",
    "manages_every_championship",
    "name_key",
    "public_name",
    "round_name",
    "validate_time_zone",
]
