"""Matches (two sides, or three at a table of three), their sides, postponements and games."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.stages import Group, Round, Stage
from tournaments.models.teams import Team


class MatchQuerySet(models.QuerySet):
    def of_team(self, team: Any) -> MatchQuerySet:
        """The matches ``team`` (a team or its id) plays, on any side: A, B, or the third
        player's C at a table of three."""
        return self.filter(Q(team_a=team) | Q(team_b=team) | Q(team_c=team))

    def of_teams(self, teams: Any) -> MatchQuerySet:
        """The matches any of ``teams`` (teams or ids) plays, on any side."""
        return self.filter(Q(team_a__in=teams) | Q(team_b__in=teams) | Q(team_c__in=teams))


@dataclass(frozen=True)
class MatchSide:
    """One side of a match as a list of matches names it (``Match.sides``)."""

    side: str  # "A", "B" or "C" (the third player of a table of three)
    team: Team
    chicos: int
    place: int | None  # at a table of three, once a hand is played; else None
    won: bool  # the winner; at a table of three, the first place (shared when tied)


class Match(models.Model):
    """A *partida* between two teams, or a bye (``team_b`` empty); a table of three (gallo)
    has a third side, ``team_c``. A list of matches names every side through ``sides``,
    ``sides_text``, ``chicos_text`` and ``places_text`` (and the template
    ``tournaments/_match_sides.html``), never ``team_a`` and ``team_b`` alone."""

    class Entry(models.TextChoices):
        # How the referee's tablet enters the hands: trick winners, or every card played
        # (finals, clubs that want it); the engine then takes envido and flor from the cards.
        QUICK = "quick", _("Quick (trick by trick)")
        CARDS = "cards", _("Card by card")

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        IN_PROGRESS = "in_progress", _("In progress")
        FINISHED = "finished", _("Finished")
        WALKOVER = "walkover", _("Walkover")

    class Outcome(models.TextChoices):
        PLAYED = "played", _("Played")
        WALKOVER = "walkover", _("Walkover")
        FORFEIT = "forfeit", _("Forfeit")
        BYE = "bye", _("Bye")

    class Recorded(models.TextChoices):
        # One way per match: its hands (a referee's tablet, a player's phone) or its result
        # (the final score of each chico, reported by a team or typed at the desk).
        HANDS = "hands", _("Hand by hand")
        RESULT = "result", _("As its result")

    class Reason(models.TextChoices):
        # Reasons Tanteo gives itself: stored as a code, told in each reader's language.
        ABSENT = "absent", _("Absent at check-in")

    # The statuses of a match whose result counts: standings, brackets, rounds all ask this.
    DECIDED = (Status.FINISHED, Status.WALKOVER)

    stage = models.ForeignKey(
        Stage, on_delete=models.CASCADE, related_name="matches", verbose_name=_("stage")
    )
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="matches", verbose_name=_("round")
    )
    group = models.ForeignKey(
        Group,
        on_delete=models.CASCADE,
        related_name="matches",
        null=True,
        blank=True,
        verbose_name=_("group"),
    )
    # The bracket match this is ("W1-1", "L2-3", "GF"...), empty outside brackets.
    bracket_id = models.CharField(_("bracket match"), max_length=20, blank=True)
    team_a = models.ForeignKey(
        Team, on_delete=models.PROTECT, related_name="+", verbose_name=_("team A")
    )
    team_b = models.ForeignKey(
        Team,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("team B"),
    )
    # The third player of a table of three (gallo, docs/tournaments.md "Tables of three"):
    # empty for every two-sided match.
    team_c = models.ForeignKey(
        Team,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("team C"),
    )
    table = models.CharField(_("table"), max_length=50, blank=True)
    scheduled_at = models.DateTimeField(_("time"), null=True, blank=True)
    referee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="refereed_matches",
        verbose_name=_("referee"),
    )
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.SCHEDULED
    )
    outcome = models.CharField(_("outcome"), max_length=20, choices=Outcome.choices, blank=True)
    best_of = models.PositiveSmallIntegerField(
        _("best of"), choices=[(1, "1"), (3, "3")], default=3
    )
    entry = models.CharField(
        _("hand entry"), max_length=10, choices=Entry.choices, default=Entry.QUICK
    )
    # Player record keys (p<id>) counter-clockwise, the first hand's mano first.
    seats = models.JSONField(_("seats"), default=list, blank=True)
    # Who played: {"A": [keys], "B": [keys], "captains": {"A": key, "B": key}}, stored when
    # play starts (or when a substitution changes the team for a later round), so the match
    # keeps its players whatever happens to the teams afterwards. Empty: the teams' current
    # players (tournaments.results.records.lineup).
    lineup = models.JSONField(_("lineup"), default=dict, blank=True)
    winner = models.ForeignKey(
        Team,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("winner"),
    )
    # Derived from the hands (or the walkover): never typed in.
    chicos_a = models.PositiveSmallIntegerField(_("chicos A"), default=0)
    chicos_b = models.PositiveSmallIntegerField(_("chicos B"), default=0)
    tantos_a = models.PositiveIntegerField(_("tantos A"), default=0)
    tantos_b = models.PositiveIntegerField(_("tantos B"), default=0)
    chicos_c = models.PositiveSmallIntegerField(_("chicos C"), default=0)
    tantos_c = models.PositiveIntegerField(_("tantos C"), default=0)
    # A table of three: each side's place at the table, ``{"<team id>": place}`` (1 best,
    # shared places repeat), as the engine ranks it (``scoring.table_placement``) with the
    # hands; empty for two-sided matches. The placement points are the standings' (a stage
    # setting), derived on read, so a change of the points scheme needs no rewrite.
    places = models.JSONField(_("places"), default=dict, blank=True)
    # The organiser's words for a walkover or forfeit, as typed; or a reason Tanteo gave
    # itself (``reason_code``), shown in the reader's language: ``reason_text``.
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    reason_code = models.CharField(
        _("reason code"), max_length=20, choices=Reason.choices, blank=True
    )
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # The engine's scoring.MatchState after the last hand (MatchState.to_dict()), written
    # with the hands under the match's row lock: the next hand is scored from it instead of
    # replaying the match. Null (a match from before it existed) or out of step with the
    # hands (its "hands" count differs): the hands are replayed once and it is stored.
    state = models.JSONField(_("match state"), null=True, blank=True, editable=False)
    # When both sides (or the organiser for them) confirmed the played result; cleared when
    # a hand changes. A finished match without it is provisional (``is_provisional``).
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True, editable=False)
    # Where it is played (a league's home venue), copied onto the match: a venue changed
    # later, or a postponement to another place, leaves the history as it was.
    recorded = models.CharField(
        _("recorded"), max_length=10, choices=Recorded.choices, default=Recorded.HANDS
    )
    # A result reported by a team (its side) or typed at the organiser's desk (no side):
    # when, so that an answer the other side owes can run out (Championship.confirm_within).
    reported_at = models.DateTimeField(_("result reported at"), null=True, blank=True)
    reported_side = models.CharField(_("reported by side"), max_length=1, blank=True)
    venue_name = models.CharField(_("venue"), max_length=200, blank=True)
    venue_address = models.CharField(_("venue's address"), max_length=300, blank=True)
    # Moved from its matchday's date (Postponement keeps each move): shown as postponed
    # until it is decided.
    postponed = models.BooleanField(_("postponed"), default=False)
    # Bumped with every change of its date, time or venue: the calendar feeds' SEQUENCE
    # and LAST-MODIFIED, so a subscribed phone moves the event instead of adding one.
    schedule_sequence = models.PositiveIntegerField(
        _("schedule changes"), default=0, editable=False
    )
    schedule_changed_at = models.DateTimeField(
        _("schedule changed at"), null=True, blank=True, editable=False
    )

    objects = MatchQuerySet.as_manager()

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["stage", "round__number", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(team_a=F("team_b")),
                name="match_teams_differ",
                violation_error_message=_("A team cannot play itself."),
            ),
            models.CheckConstraint(
                condition=Q(team_c__isnull=True)
                | (Q(team_b__isnull=False) & ~Q(team_c=F("team_a")) & ~Q(team_c=F("team_b"))),
                name="match_three_teams_differ",
                violation_error_message=_("The three players of a table must differ."),
            ),
            # One match per bracket slot: the last guard against two results advancing into
            # the same slot at once (bracket_sync serialises them with the stage lock).
            models.UniqueConstraint(
                fields=["stage", "bracket_id"],
                condition=~Q(bracket_id=""),
                name="match_bracket_slot_unique",
            ),
        ]
        indexes = [
            models.Index(fields=["stage", "status"], name="match_stage_status"),
            models.Index(fields=["stage", "bracket_id"], name="match_stage_bracket"),
        ]

    def __str__(self) -> str:
        if self.team_c_id is not None:
            return f"{self.team_a} – {self.team_b} – {self.team_c}"
        if self.team_b_id is None and self.outcome == self.Outcome.WALKOVER:
            return _("%(team)s (absent)") % {"team": self.team_a}
        if self.team_b_id is None:
            return _("%(team)s (bye)") % {"team": self.team_a}
        return f"{self.team_a} – {self.team_b}"

    @property
    def is_table_of_three(self) -> bool:
        """Three sides at the table (gallo): ``team_c`` is set."""
        return self.team_c_id is not None

    def teams_by_side(self) -> dict[str, Any]:
        """The sides' teams: ``{"A": team_a, "B": team_b}`` and ``"C"`` at a table of
        three (``team_b`` None for a bye)."""
        sides = {"A": self.team_a, "B": self.team_b}
        if self.team_c_id is not None:
            sides["C"] = self.team_c
        return sides

    def side_of(self, team_id: int | None) -> str | None:
        """The side (``"A"``, ``"B"``, ``"C"``) ``team_id`` holds here, None if none."""
        ids = {"A": self.team_a_id, "B": self.team_b_id, "C": self.team_c_id}
        return next((side for side, pk in ids.items() if pk == team_id and pk), None)

    def place_of(self, team_id: int | None) -> int | None:
        """A team's place at this table of three (None outside one, or before a hand)."""
        if team_id is None or not self.places:
            return None
        return self.places.get(str(team_id))

    @property
    def table_places(self) -> list[tuple[Any, int]]:
        """A table of three's teams with their places, best first (empty before a hand)."""
        if self.team_c_id is None or not self.places:
            return []
        teams = [self.team_a, self.team_b, self.team_c]
        placed = [(team, self.places.get(str(team.pk))) for team in teams]
        return sorted(((t, p) for t, p in placed if p is not None), key=lambda item: item[1])

    @property
    def sides(self) -> list[MatchSide]:
        """Every side at the table, A first: two, three at a table of three, the team
        alone for a bye; each with its chicos, its place at a table and whether it won."""
        teams = [("A", self.team_a, self.chicos_a), ("B", self.team_b, self.chicos_b)]
        if self.team_c_id is not None:
            teams.append(("C", self.team_c, self.chicos_c))
        three = self.team_c_id is not None
        found = []
        for side, team, chicos in teams:
            if team is None:
                continue
            place = self.place_of(team.pk) if three else None
            won = place == 1 if place is not None else self.winner_id == team.pk
            found.append(MatchSide(side=side, team=team, chicos=chicos, place=place, won=won))
        return found

    def others_of(self, team_id: int | None) -> list[Any]:
        """The teams ``team_id`` faces here: its opponent, or a table of three's other two
        players (empty for a bye)."""
        return [s.team for s in self.sides if s.team.pk != team_id]

    @property
    def sides_text(self) -> str:
        """The sides by name, "Ana – Beto", at a table of three "Ana – Beto – Caro"."""
        return " – ".join(s.team.name for s in self.sides)

    @property
    def chicos_list(self) -> list[int]:
        """The chicos won, side A first: two, three at a table of three (a fixed gallo's
        pair repeats its chicos under both its players); ``{{ m.chicos_list|join:" – " }}``."""
        return [s.chicos for s in self.sides] if self.team_b_id is not None else []

    @property
    def chicos_text(self) -> str:
        """:attr:`chicos_list` as the fixture lists write it: "2–1", "2–1–0"; empty for a
        bye."""
        return "–".join(str(chicos) for chicos in self.chicos_list)

    @property
    def places_text(self) -> str:
        """A table of three's places, best first ("1. Caro · 2. Ana · 3. Beto"); empty
        outside one and before its first hand."""
        return " · ".join(f"{place}. {team.name}" for team, place in self.table_places)

    @property
    def is_bye(self) -> bool:
        """No opponent: a bye, or a team absent at check-in (``is_absence``)."""
        return self.team_b_id is None

    @property
    def is_absence(self) -> bool:
        """A team absent at check-in: alone in its match, which it lost by walkover (a bye
        is a win without an opponent; the lists must not call the one the other)."""
        return self.team_b_id is None and self.outcome == self.Outcome.WALKOVER

    @property
    def is_decided(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.WALKOVER)

    def credit_walkover(
        self, *, winner_id: int, target: int, finished: Sequence[Game] = ()
    ) -> list[Game]:
        """The games a walkover credits, unsaved: the winner is given the chicos still needed
        to win the match, each at the rule set's ``target``; the ``finished`` games (a
        forfeit's) stay as played. Sets the match's chicos and tantos from all of them.

        The one rule for every walkover: the organiser's (``results.services.match_walkover``)
        and a team absent at check-in (``stages.rounds``).
        """
        is_a = winner_id == self.team_a_id
        won = sum(1 for g in finished if g.winner_id == winner_id)
        first = len(finished) + 1
        credited = [
            Game(
                match=self,
                number=number,
                score_a=target if is_a else 0,
                score_b=0 if is_a else target,
                winner_id=winner_id,
            )
            for number in range(first, first + self.best_of // 2 + 1 - won)
        ]
        games = [*finished, *credited]
        self.chicos_a = sum(1 for g in games if g.winner_id == self.team_a_id)
        self.chicos_b = sum(1 for g in games if g.winner_id == self.team_b_id)
        self.tantos_a = sum(g.score_a for g in games)
        self.tantos_b = sum(g.score_b for g in games)
        return credited

    @property
    def reason_text(self) -> str:
        """Why the match was decided without play, in the reader's language when Tanteo
        itself gave the reason (a team absent at check-in), else as the organiser typed it."""
        if self.reason_code:
            return str(self.get_reason_code_display())
        return self.reason

    @property
    def round_name(self) -> str:
        """Its round's name for people, its own stage naming a bracket's rounds ("Quarter-
        finals", not "Knockout round 1" as the round alone says without its stage)."""
        return self.round.name_in(self.stage)

    @property
    def is_postponed(self) -> bool:
        """Moved from its matchday and still to be played (shown as postponed)."""
        return self.postponed and not self.is_decided

    @property
    def date_to_be_fixed(self) -> bool:
        """Postponed with no new date yet: "postponed, date to be fixed" wherever it shows,
        until the organiser gives it one."""
        return self.is_postponed and self.scheduled_at is None

    @property
    def is_provisional(self) -> bool:
        """A result played out at the table that its sides have not both confirmed yet.

        Walkovers, forfeits and byes are the organiser's decision: never provisional."""
        return (
            self.status == self.Status.FINISHED
            and self.team_b_id is not None
            and self.confirmed_at is None
        )


class Postponement(models.Model):
    """A match moved to another date (and maybe venue): from, to, why, who, when."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="postponements", verbose_name=_("match")
    )
    from_at = models.DateTimeField(_("from"), null=True, blank=True)
    # Empty: postponed with its new date to be fixed (Match.date_to_be_fixed).
    to_at = models.DateTimeField(_("to"), null=True, blank=True)
    from_venue = models.CharField(_("from venue"), max_length=200, blank=True)
    to_venue = models.CharField(_("to venue"), max_length=200, blank=True)
    reason = models.TextField(_("reason"))
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        verbose_name = _("postponement")
        verbose_name_plural = _("postponements")
        ordering = ["match", "at", "pk"]

    def __str__(self) -> str:
        return f"{self.match} → {self.to_at:%Y-%m-%d %H:%M}" if self.to_at else f"{self.match} → ?"


class Game(models.Model):
    """A chico (argentine) or joc (catalan) of a match, derived from its hands."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="games", verbose_name=_("match")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    score_a = models.PositiveSmallIntegerField(_("score A"), default=0)
    score_b = models.PositiveSmallIntegerField(_("score B"), default=0)
    score_c = models.PositiveSmallIntegerField(_("score C"), default=0)  # a table of three
    winner = models.ForeignKey(
        Team,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("winner"),
    )

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_number_unique"),
        ]

    def __str__(self) -> str:
        return _("Game %(number)s") % {"number": self.number}
