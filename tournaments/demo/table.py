"""The demo's tables: every hand dealt and played by a seeded random walk over the engine's
legal actions, card by card, and the matches given a table, a time and a demo referee and
recorded through the services, so the engine scores every record."""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence
from typing import Any

from django.contrib.auth import get_user_model

import scoring
from scoring import Mazo, RuleSet, Trick, apply, is_finished, legal_actions, start_hand
from tournaments.championships import services as championship_services
from tournaments.models import Championship, Match
from tournaments.results import records
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services

SEED = 2026
MAX_HANDS = 400


def _playable(action: Any) -> bool:
    # Referees at the demo tables enter every card: detailed records, no quick tricks.
    return not isinstance(action, Trick)


def play_hand(rng: random.Random, record: dict[str, Any]) -> dict[str, Any]:
    """Deal and play one hand by random legal actions; ``record`` gives its context.

    Returns the hand entry (``cards`` and ``events``) of the match record.
    """
    rules = RuleSet.from_spec(record["rules"])
    deck = sorted(rules.deck, key=lambda c: (c.suit, c.rank))
    rng.shuffle(deck)
    order = record["order"]
    cards = {p: [str(c) for c in deck[3 * i : 3 * i + 3]] for i, p in enumerate(order)}
    hand = {**record, "cards": cards, "events": []}
    state = start_hand(hand, card_by_card=True)  # its record will have card plays
    for _ in range(120):
        if is_finished(state):
            break
        actions = [a for a in legal_actions(state) if _playable(a)]
        if not actions:
            break
        weights = [0.15 if isinstance(a, Mazo) else 1.0 for a in actions]
        action = rng.choices(actions, weights)[0]
        state = apply(state, action)
        hand["events"].append(action.to_event())
    return {"cards": cards, "events": hand["events"]}


def play_match_hands(rng: random.Random, match: Match, winner: str | None = None) -> list[dict]:
    """Every hand of a whole match, played at random until a side wins it.

    The engine says what each next hand is (its mano, order and score: the match's
    ``MatchResult.next``); the demo only deals and picks among the legal actions. With
    ``winner`` ("A" or "B"), the walk is replayed until that side wins, so the demo
    favourites mostly go through (the organiser's seeds mean something).
    """
    head = records.match_head(match)
    entries: list[dict] = []
    for _ in range(50):
        entries = []
        # Each hand scored from the state the hands before it left (no replay of the match).
        state = None
        upcoming = scoring.MatchState.start(list(head["teams"])).next_hand(head)
        while upcoming is not None and len(entries) < MAX_HANDS:
            # The demo's tables are redondo only (pairs, and Catalan squads of three).
            entry = play_hand(rng, dict(upcoming.record or {}))
            entries.append(entry)
            _scored, state = scoring.score_next_hand(head, state, entry)
            upcoming = state.next_hand(head)
        if winner is None or (state is not None and state.winner == winner):
            return entries
    return entries


def referees() -> list:
    """The demo referees (``arbitro.demo``, ``arbitra.demo``), created without a password."""
    users = get_user_model()
    result = []
    for username in ("arbitro.demo", "arbitra.demo"):
        user, created = users.objects.get_or_create(username=username)
        if created:
            user.set_unusable_password()
            user.save()
        result.append(user)
    return result


def list_referees(championship: Championship, referees: list) -> None:
    """Put the demo referees on the championship's list: only there may they referee."""
    for user in referees:
        championship_services.referee_add(championship=championship, user=user, added_by=None)


def assign(matches: Sequence[Match], referees: list, start: datetime.datetime) -> None:
    """Give each match its table, time and one of the demo referees: a demo referee given
    a password finds matches to record (those not played here)."""
    for table, match in enumerate(matches, start=1):
        if not match.is_bye:
            result_services.match_assign(
                match=match,
                table=str(table),
                scheduled_at=start + datetime.timedelta(minutes=30 * (table // 5)),
                referee=referees[table % len(referees)],
            )


def play(
    rng: random.Random, matches: Sequence[Match], referees: list, start: datetime.datetime
) -> None:
    """Play ``matches`` (assigned first), the better seed winning two times in three."""
    assign(matches, referees, start)
    for match in matches:
        if match.is_bye:
            continue
        match.refresh_from_db()
        referee = match.referee
        match = result_services.match_start(match=match)
        a, b = match.team_a.seed or 99, match.team_b.seed or 99
        # The better seed wins two times in three: upsets happen.
        favourite = "A" if a < b else "B"
        wanted = favourite if rng.random() < 0.67 else ("B" if favourite == "A" else "A")
        match = result_selectors.match_detail(pk=match.pk)
        hands = play_match_hands(rng, match, wanted)
        result_services.match_hands_import(match=match, records=hands, recorded_by=referee)
