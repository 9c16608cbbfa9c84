"""A match recorded as its result: the final score of each chico, checked and scored.

Most tables have no referee: the players report the result ("Los Anchos won 2–1: 30–25,
18–30, 30–12"). :func:`score_reported_result` checks such a report against the rules in
force and scores it into what the match layer gives for a match entered hand by hand:
the games, the winner, the chicos and tantos of each side, the places at the table
(:func:`scoring.table_placement`) and the :class:`~scoring.match.MatchState` a match
stands at after its last chico. The report's JSON is docs/hand-record.md "A match
recorded as its result"; ``python -m scoring result`` reads it.

What the rules allow a final score to be (docs/rules.md "Scoring a game"):

- A chico (catalan: joc) ends the moment a side reaches the target and points beyond it
  are dropped: its winner has exactly the target (an envido that overshoots is capped),
  every other side less. Nobody at the target, or a side past it, is refused.
- One side wins a chico. At a table of three with ``gallo: por_turno`` the pair's points
  go to both its players, so two players may reach the target in one hand: the report
  then names the chico's winner (the engine decides it by the score before that hand,
  which a final score does not show).
- The match is best of ``best_of``: it is decided by the chico that gives a side a
  majority, and no chico follows it. At a table of three best of three may take four
  chicos (A, B, C, then a second for one of them).
- Catalan's rule of 11 (``002``) changes no final score: a joc still ends at 12 and the
  other side may have anything from 0 to 11 (11: the mestre who played his hand and lost
  it); 11–11 never stands, both go back to 6 before a hand is dealt.

>>> result = score_reported_result({"rules": "argentine", "games": [
...     {"score": {"A": 30, "B": 25}}, {"score": {"A": 18, "B": 30}},
...     {"score": {"A": 30, "B": 12}}]})
>>> result.winner, result.chicos, result.tantos
('A', {'A': 2, 'B': 1}, {'A': 78, 'B': 67})
>>> score_reported_result({"rules": "argentine", "games": [{"score": {"A": 31, "B": 12}}]})
Traceback (most recent call last):
...
scoring.errors.MatchError: A has 31 in chico 1: a chico ends the moment a side reaches 30, \
and points beyond it are not counted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.errors import EngineError, error
from scoring.match import MatchState
from scoring.placement import PLACEMENT_KEYS, Placement, table_placement
from scoring.record import check_text
from scoring.results import Game
from scoring.rules import RuleSet

__all__ = ["ReportedResult", "score_reported_result"]

SIDE_NAMES = ("A", "B", "C")


@dataclass(frozen=True, slots=True)
class ReportedResult:
    """A reported result, checked and scored.

    ``games`` are the chicos with their winners, ``winner`` the match's, ``chicos`` and
    ``tantos`` each side's chicos won and points over the chicos, ``places`` the table's
    ranking (:func:`scoring.table_placement`, best first) and ``state`` the
    :class:`~scoring.match.MatchState` after the last chico: no hand played, the chicos
    and the winner, as a match entered hand by hand stands once decided (a store keeps
    it like one; a hand added after it is ``match_over``).
    """

    winner: str
    games: tuple[Game, ...]
    chicos: Mapping[str, int]
    tantos: Mapping[str, int]
    places: tuple[Placement, ...]
    state: MatchState

    def to_dict(self) -> dict[str, Any]:
        """The output object of ``python -m scoring result``."""
        return {
            "winner": self.winner,
            "chicos": dict(self.chicos),
            "tantos": dict(self.tantos),
            "games": [g.to_dict() for g in self.games],
            "places": {p.side: p.place for p in self.places},
            "state": self.state.to_dict(),
        }


def score_reported_result(report: Mapping[str, Any]) -> ReportedResult:
    """Check a reported result against its rules and score it (``python -m scoring result``).

    ``report``: ``rules`` (a preset or ``{"preset", ...options}``, ``best_of`` among
    them), ``sides`` (2, or 3 at a gallo table of three; default 2: sides ``A``, ``B``
    and ``C``), ``games`` (each chico in order, ``{"score": {side: points}}`` with its
    ``winner`` where it must be said), and optionally ``winner`` (the match's, as the
    players stated it) and ``tiebreaks`` (the placement chain, default
    :data:`scoring.PLACEMENT_KEYS`). An impossible result raises a
    :class:`~scoring.errors.MatchError` whose ``params["index"]`` is the 0-based index of
    the chico at fault (absent for the report as a whole).

    >>> gallo = score_reported_result({"rules": {"preset": "argentine", "target": 15},
    ...     "sides": 3, "games": [{"score": {"A": 15, "B": 15, "C": 4}, "winner": "B"},
    ...                           {"score": {"A": 7, "B": 15, "C": 11}}]})
    >>> gallo.winner, [(p.side, p.place) for p in gallo.places]
    ('B', [('B', 1), ('C', 2), ('A', 3)])
    >>> score_reported_result({"rules": {"preset": "catalan", "best_of": 1},
    ...     "games": [{"score": {"A": 12, "B": 11}}], "winner": "B"})
    Traceback (most recent call last):
    ...
    scoring.errors.MatchError: The jocs give the match to A, not B.
    """
    if not isinstance(report, Mapping):
        raise _invalid("it must be a JSON object")
    check_text(report)
    rules = RuleSet.from_spec(report.get("rules"))
    sides = _sides(report.get("sides", 2), rules)
    games = report.get("games")
    if not isinstance(games, list):
        raise _invalid("'games' must be the list of the chicos' scores")
    stated = report.get("winner")
    if stated is not None and stated not in sides:
        raise _invalid(f"'winner' must be one of {', '.join(sides)}")
    tiebreaks = report.get("tiebreaks", PLACEMENT_KEYS)
    if not isinstance(tiebreaks, list | tuple) or not all(isinstance(k, str) for k in tiebreaks):
        raise _invalid("'tiebreaks' must be a list of placement keys")

    word, words = ("joc", "jocs") if rules.is_catalan else ("chico", "chicos")
    need = rules.best_of // 2 + 1
    wins = dict.fromkeys(sides, 0)
    finished: list[Game] = []
    winner: str | None = None
    for index, game in enumerate(games):
        if winner is not None:
            raise _at(
                "chico_after_match",
                index,
                word,
                winner=winner,
                decided=len(finished),
            )
        score, said = _game(game, index, sides)
        chico = _chico_winner(rules.target, score, said, index, word)
        finished.append(Game(chico, score))
        wins[chico] += 1
        if wins[chico] >= need:
            winner = chico
    if winner is None:
        raise error("match_not_decided", need=need, played=len(finished), words=words)
    if stated is not None and stated != winner:
        raise error("winner_contradicts_result", words=words, actual=winner, stated=stated)

    state = MatchState(
        hands=0,
        mano=0,
        score=dict.fromkeys(sides, 0),
        wins=wins,
        games=tuple(finished),
        winner=winner,
    )
    return ReportedResult(
        winner=winner,
        games=state.games,
        chicos=dict(wins),
        tantos={side: sum(g.score[side] for g in finished) for side in sides},
        places=table_placement(state, tiebreaks=list(tiebreaks)),
        state=state,
    )


def _invalid(detail: str) -> EngineError:
    return error("result_invalid", detail=detail)


def _at(code: str, index: int, word: str, **params: Any) -> EngineError:
    """An error about the chico at ``index`` (its number in the message, its index in
    ``params``, which the command line reports)."""
    return error(code, index=index, number=index + 1, word=word, **params)


def _sides(count: Any, rules: RuleSet) -> tuple[str, ...]:
    if type(count) is not int or count not in (2, 3):
        raise _invalid("'sides' must be 2, or 3 at a gallo table of three")
    if count == 3 and rules.is_catalan:
        raise _invalid("catalan truc is played by two sides")
    if count == 3 and rules.gallo == "fijo":
        raise _invalid("with gallo fijo the pair is one side: report the gallo's and the pair's")
    return SIDE_NAMES[:count]


def _game(game: Any, index: int, sides: Sequence[str]) -> tuple[dict[str, int], str | None]:
    """A chico of the report: its score (every side, a whole number) and its stated
    winner (None when not said)."""
    where = f"chico {index + 1}"
    if not isinstance(game, Mapping) or not isinstance(game.get("score"), Mapping):
        raise _invalid(f"{where} must be an object with its 'score'")
    score = game["score"]
    if set(score) != set(sides):
        raise _invalid(f"the score of {where} must give each of {', '.join(sides)}")
    for side in sides:
        if type(score[side]) is not int or score[side] < 0:
            raise _invalid(f"the score of {where} must be whole numbers, 0 or more")
    said = game.get("winner")
    if said is not None and said not in sides:
        raise _invalid(f"the winner of {where} must be one of {', '.join(sides)}")
    return {side: score[side] for side in sides}, said


def _chico_winner(
    target: int, score: Mapping[str, int], said: str | None, index: int, word: str
) -> str:
    """Who won the chico with this final ``score``, or the error that makes it impossible."""
    for side, points in score.items():
        if points > target:
            raise _at("chico_past_target", index, word, side=side, points=points, target=target)
    reached = [side for side, points in score.items() if points == target]
    if not reached:
        raise _at("chico_unfinished", index, word, target=target)
    # Two at the target only at a gallo table of three, where they were the pair.
    if len(reached) > 1 and (len(score) != 3 or len(reached) == 3):
        raise _at("chico_tied", index, word, side=reached[0], other=reached[1], target=target)
    if said is not None:
        if said not in reached:
            raise _at(
                "chico_winner_contradicts",
                index,
                word,
                winner=said,
                points=score[said],
                target=target,
            )
        return said
    if len(reached) > 1:
        raise _at(
            "chico_winner_needed", index, word, side=reached[0], other=reached[1], target=target
        )
    return reached[0]
