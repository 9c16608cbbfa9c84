"""A match recorded as its result, read back from an archive (docs/archive.md, "Matches
recorded as their result"), for :mod:`tournaments.io.archive_import`.

As for a match kept hand by hand, the result is not copied but derived again: the
archive's games (each chico's final score, on the engine's sides, with its winner) are
the report the engine scores (``results.services.result_check``, the check a team's report
and the desk go through), and the match stores what it gives, as a reported result is
stored: its games, chicos, tantos, winner, a table's places and the engine's state (a
later report of the same result is then that side's answer). A result the engine refuses
is refused with its JSON path, even when the import accepts disagreements: Tanteo never
stores a result its engine does not give.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from scoring import ReportedResult
from tournaments.errors import TournamentError
from tournaments.io.archive_checks import ArchiveError
from tournaments.models import Championship, Game, Match, Scorekeeping, Team
from tournaments.results import records
from tournaments.results import services as result_services

# Decided by the organiser, not by a result: nothing to score.
DECIDED_WITHOUT_PLAY = (Match.Outcome.WALKOVER, Match.Outcome.FORFEIT, Match.Outcome.BYE)


def scorekeeping_fields(championship: Mapping[str, Any]) -> dict[str, Any]:
    """Who kept the score in the archive's championship and the time to answer a report,
    each its default when the archive leaves it out (an archive of before them)."""
    return {
        "scorekeeping": championship.get("scorekeeping", Scorekeeping.REFEREES),
        "confirm_within": championship.get(
            "confirm_within", Championship._meta.get_field("confirm_within").default
        ),
    }


def recorded_fields(row: Mapping[str, Any]) -> dict[str, Any]:
    """How the archive's match was recorded, and by which side it was reported (its time
    is read with the other times)."""
    return {
        "recorded": row.get("recorded", Match.Recorded.HANDS),
        "reported_side": row.get("reported_side", ""),
    }


def engine_result(match: Match, row: Mapping[str, Any], where: str) -> ReportedResult | None:
    """The engine's result of ``row``, a match recorded as its result and reported (played,
    with its games); ``None`` for any other match. ``match`` is the new one (its rules,
    best of and stage's placement chain are the archive's)."""
    if row.get("recorded") != Match.Recorded.RESULT or row["outcome"] in DECIDED_WITHOUT_PLAY:
        return None
    if not row["games"] and row["winner"] is None and row["outcome"] != Match.Outcome.PLAYED:
        return None  # not reported yet (archive-check checks the same ones)
    side = records.stat_columns(match)  # the stored side -> the engine's (fijo C: B)
    sides = sorted(set(side.values()))
    games = []
    for game in row["games"]:
        chico: dict[str, Any] = {"score": {s: game["score"][s] for s in sides}}
        if game["winner"] is not None:
            chico["winner"] = side[game["winner"]]
        games.append(chico)
    try:
        return result_services.result_check(match=match, games=games)
    except TournamentError as error:
        raise ArchiveError(
            _("the engine refuses this result: %(reason)s"),
            path=f"{where}.games",
            code="archive_result_refused",
            reason=error.text,
        ) from None


def store_result(
    match: Match, result: ReportedResult, teams: Mapping[str, Team | None]
) -> list[Game]:
    """Set ``match``'s figures (unsaved) from the engine's ``result`` and create its games;
    ``teams``: the stored sides' teams. Returns the games."""
    columns = records.column_sides(match)
    games = Game.objects.bulk_create(
        Game(
            match=match,
            number=number,
            **{f"score_{column}": score for column, score in scores.items()},
            winner=teams[winner] if winner else None,
        )
        for number, (scores, winner) in enumerate(
            records.games_of(result.state, None, columns), start=1
        )
    )
    for column, side in columns.items():
        setattr(match, f"chicos_{column}", result.chicos.get(side, 0))
        setattr(match, f"tantos_{column}", result.tantos.get(side, 0))
    match.winner = teams[result.winner]
    match.status, match.outcome = Match.Status.FINISHED, Match.Outcome.PLAYED
    match.state = result.state.to_dict()
    if match.team_c_id is not None:
        match.places = records.table_places(match, result.state)
    return games
