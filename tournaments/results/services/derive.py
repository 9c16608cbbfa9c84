"""What the engine derives from a match's hands, stored: the hands' context and points,
the games, the match's result (and a table of three's places) and its state.

Every write of hands ends here (``results.services.hands``); a decided result that
appears, changes or vanishes moves the bracket, the standings, the ratings and the pages
(:func:`_result_changed`).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils import timezone

from scoring import EngineError, MatchHand, MatchState
from tournaments import tasks
from tournaments.errors import from_engine
from tournaments.models import Game, Hand, Match
from tournaments.notices.services import notice_matches_drawn
from tournaments.ratings import statistics
from tournaments.results import records
from tournaments.results.services.matches import standings_invalidate
from tournaments.signals import announce_match
from tournaments.stages.rounds import bracket_sync

_HAND_FIELDS = (
    "game",
    "order",
    "score_before_a",
    "score_before_b",
    "score_before_c",
    "points_a",
    "points_b",
    "points_c",
    "score_a",
    "score_b",
    "score_c",
    "status",
)
_GAME_FIELDS = ("score_a", "score_b", "score_c", "winner_id")


def _derive(
    match: Match, hands: Sequence[Hand], scored: Sequence[MatchHand], state: MatchState | None
) -> None:
    """Store what the engine derived: hands' context and points, games, the match's result
    and its state.

    ``hands`` are the match's hands from some hand on to its last (all of them, or only a
    new one), with ``scored``, the engine's result for each; unsaved ones are created. Only
    what differs from the stored rows is written: the games are updated in place (created
    or deleted as their number changes) and a hand only when a derived field changed, so a
    save writes the new hand, its game and the match, whatever the length of the match.

    A table of three stores its third side in the ``c`` columns (a fijo pair's figures in
    both ``b`` and ``c``: ``records.column_sides``) and its places (``Match.places``).
    """
    assert state is not None  # the engine's results always carry it
    team_of = records.side_team_ids(match)
    columns = records.column_sides(match)
    wanted = [
        ({**dict.fromkeys("abc", 0), **scores}, team_of[winner] if winner else None)
        for scores, winner in records.games_of(state, scored[-1] if scored else None, columns)
    ]

    stored = {game.number: game for game in match.games.all()}
    games: list[Game] = []
    new_games: list[Game] = []
    changed_games: list[Game] = []
    for number, (scores, winner_id) in enumerate(wanted, start=1):
        values = {"score_a": scores["a"], "score_b": scores["b"], "score_c": scores["c"]}
        values["winner_id"] = winner_id
        game = stored.pop(number, None)
        if game is None:
            game = Game(match=match, number=number)
            new_games.append(game)
        elif all(getattr(game, field) == value for field, value in values.items()):
            games.append(game)
            continue
        else:
            changed_games.append(game)
        for field, value in values.items():
            setattr(game, field, value)
        games.append(game)
    if stored:
        # Their hands' links are set to null here; those hands are among ``hands`` (the
        # games only shrink on a full replay) and get their new game below.
        Game.objects.filter(pk__in=[game.pk for game in stored.values()]).delete()
    if changed_games:
        Game.objects.bulk_update(changed_games, ["score_a", "score_b", "score_c", "winner"])
    if new_games:
        Game.objects.bulk_create(new_games)

    new_hands: list[Hand] = []
    changed_hands: list[Hand] = []
    had_statistics = any(hand.pk is not None for hand in hands)
    for hand, result in zip(hands, scored, strict=True):
        values = {"game_id": games[result.game - 1].pk, "order": list(result.order)}
        for column in "abc":
            side = columns.get(column)
            for field, figures in (
                ("score_before", result.score_before),
                ("points", result.points),
                ("score", result.score),
            ):
                values[f"{field}_{column}"] = figures.get(side, 0) if side else 0
        values["status"] = str(result.status)
        if hand.pk is not None:
            if all(getattr(hand, field) == value for field, value in values.items()):
                continue
            changed_hands.append(hand)
        else:
            new_hands.append(hand)
        for field, value in values.items():
            setattr(hand, field, value)
    if changed_hands:
        Hand.objects.bulk_update(changed_hands, _HAND_FIELDS)
    if new_hands:
        Hand.objects.bulk_create(new_hands)
    # What the hands tell, kept with them (the statistics): in this transaction.
    statistics.hand_statistics_write(
        match=match,
        hands=hands,
        scored=scored,
        replace=had_statistics,
        columns=records.stat_columns(match),
    )

    was_decided = match.status in Match.DECIDED
    old_winner = match.winner_id
    for column, side in columns.items():
        setattr(match, f"chicos_{column}", sum(1 for g in state.games if g.winner == side))
        setattr(match, f"tantos_{column}", sum(getattr(g, f"score_{column}") for g in games))
    match.state = state.to_dict()
    three = match.team_c_id is not None and state.hands > 0  # no places before a hand
    match.places = _places(match, state) if three else {}
    winner = state.winner
    match.winner_id = team_of[winner] if winner else None
    if winner:
        match.status = Match.Status.FINISHED
        match.outcome = Match.Outcome.PLAYED
        match.finished_at = match.finished_at or timezone.now()
    else:
        match.status = Match.Status.IN_PROGRESS if state.hands else Match.Status.SCHEDULED
        match.outcome = ""
        match.finished_at = None
    match.save(
        update_fields=[
            "chicos_a",
            "chicos_b",
            "chicos_c",
            "tantos_a",
            "tantos_b",
            "tantos_c",
            "places",
            "winner",
            "status",
            "outcome",
            "finished_at",
            "state",
        ]
    )
    if was_decided or winner:
        _result_changed(
            match, advanced=was_decided != bool(winner) or old_winner != match.winner_id
        )


def _places(match: Match, state: MatchState) -> dict[str, int]:
    """Each team's place at a table of three, as the engine ranks it
    (``records.table_places``)."""
    try:
        return records.table_places(match, state)
    except EngineError as error:
        raise from_engine(error) from None


def _result_changed(match: Match, *, advanced: bool = True) -> None:
    """A decided result appeared, changed or vanished: brackets and standings follow."""
    if match.bracket_id and advanced:
        # The next bracket matches whose teams are now known: their teams are told.
        notice_matches_drawn(matches=bracket_sync(stage=match.stage))
    standings_invalidate(stage=match.stage)
    # The ratings of its players follow (a task: the save does not wait for them).
    tasks.rate_match_on_commit(match_id=match.pk)
    # The pages that show only decided results (standings, current rounds) follow too.
    announce_match(match, "result")
