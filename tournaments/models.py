"""Championship records. Writes go through ``services``, reads through ``selectors``.

The hand records (``Hand.record``) are the source of truth of every result: a match's
games, scores, status and winner are derived from them by ``scoring.match.score_match``
(see ``tournaments.results.records``) and never typed in. Walkovers and forfeits are the only
results without hands, recorded by ``services.match_walkover``.
"""

import unicodedata
import zoneinfo
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


def default_rules() -> dict:
    return {"preset": "argentine"}


def default_tiebreaks() -> list[str]:
    # tournaments.standings.tiebreaks.DEFAULT_CHAIN, copied so a migration never imports it.
    return ["points", "head_to_head", "chico_diff", "tantos_diff", "lots"]


def default_time_zone() -> str:
    return settings.TIME_ZONE


def validate_time_zone(value: str) -> None:
    """An IANA time zone name the system knows ("Europe/Madrid")."""
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, TypeError):
        raise ValidationError(
            _("%(zone)s is not a time zone: give one such as Europe/Madrid."),
            code="bad_time_zone",
            params={"zone": value},
        ) from None


# Staff holding this permission manage every championship (championships.selectors).
MANAGE_ALL_PERMISSION = "tournaments.change_championship"


def manages_every_championship(user: Any) -> bool:
    """Whether ``user`` manages every championship: active staff holding
    ``tournaments.change_championship`` (given directly or by a group; superusers hold
    every permission). Staff without it are like anyone else."""
    return bool(
        user.is_authenticated
        and user.is_active
        and user.is_staff
        and user.has_perm(MANAGE_ALL_PERMISSION)
    )


class Scorekeeping(models.TextChoices):
    """Who keeps the score at the tables of a championship (or of one of its stages)."""

    REFEREES = "referees", _("Referees, hand by hand on the tablet")
    PLAYERS = "players", _("A player of the table, hand by hand on his phone")
    RESULTS = "results", _("Results only: reported by the teams or typed at the desk")


class ChampionshipQuerySet(models.QuerySet):
    def managed_by(self, user: Any) -> "ChampionshipQuerySet":
        """The championships ``user`` may manage: every one for staff with the permission
        (:func:`manages_every_championship`), those he organises for anyone else.

        Here, below every domain package, so that the people's services (below the
        championships' in the layers) apply the same rule as the pages."""
        if not user.is_authenticated or not user.is_active:
            return self.none()
        if manages_every_championship(user):
            return self.all()
        return self.filter(organisers=user)


class Championship(models.Model):
    """A truco championship, from its first announcement to its final standings."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        REGISTRATION = "registration", _("Registration open")
        RUNNING = "running", _("In play")
        FINISHED = "finished", _("Finished")

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("short name"), max_length=100, unique=True)
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.DRAFT
    )
    start_date = models.DateField(_("start date"))
    end_date = models.DateField(_("end date"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    # Where it is played: match times are shown and exported in this zone.
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        default=default_time_zone,
        validators=[validate_time_zone],
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    rules = models.JSONField(
        _("rule set"),
        default=default_rules,
        help_text=_("A preset and its options, as in the hand records: checked by the engine."),
    )
    team_size = models.PositiveSmallIntegerField(
        _("players per team"),
        default=2,
        choices=[(1, "1"), (2, "2"), (3, "3"), (4, "4")],
    )
    tiebreaks = models.JSONField(_("tie-breaks"), default=default_tiebreaks)
    seed = models.CharField(
        _("seed of the drawing of lots"),
        max_length=100,
        blank=True,
        help_text=_("Empty: the short name is used."),
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("organisers"),
        related_name="organised_championships",
        blank=True,
    )

    class AbsentTeams(models.TextChoices):
        WALKOVER = "walkover", _("They lose by walkover")
        SIT_OUT = "sit_out", _("They sit the round out, without a result")

    # What a Swiss round does with a team not checked in (a round robin's fixed schedule
    # always gives its opponent the walkover).
    absent_teams = models.CharField(
        _("teams absent at check-in"),
        max_length=20,
        choices=AbsentTeams.choices,
        default=AbsentTeams.WALKOVER,
        help_text=_(
            "Once check-in is taken for a round, teams not checked in are left out of the"
            " pairing. In a Swiss round they lose by walkover, or sit the round out with no"
            " result; in a round robin their opponent always wins by walkover."
        ),
    )

    # Who keeps the score at the tables (docs/tournaments.md "No referee at the table"): a
    # stage may set its own (Stage.scorekeeping). Changing it touches no result recorded.
    scorekeeping = models.CharField(
        _("who keeps the score"),
        max_length=10,
        choices=Scorekeeping.choices,
        default=Scorekeeping.REFEREES,
    )
    # How long the other side has to answer a result reported by a team before the match
    # goes to the organiser's results to settle.
    confirm_within = models.PositiveIntegerField(
        _("minutes to confirm a reported result"),
        default=30,
        validators=[MinValueValidator(1), MaxValueValidator(60 * 24 * 14)],
    )
    # Until when the teams may check in themselves through their personal links (None:
    # closed); the organiser opens and closes it on the check-in page.
    self_check_in_until = models.DateTimeField(
        _("teams check in themselves until"), null=True, blank=True
    )

    objects = ChampionshipQuerySet.as_manager()

    class Meta:
        verbose_name = _("championship")
        verbose_name_plural = _("championships")
        ordering = ["-start_date", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(end_date__isnull=True) | Q(end_date__gte=F("start_date")),
                name="championship_ends_after_start",
                violation_error_message=_("A championship cannot end before it starts."),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def lots_seed(self) -> str:
        """What seeds the drawing of lots and the round-robin shuffle: reproducible."""
        return self.seed or self.slug

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        """The championship's time zone (the site's if the stored one is unknown)."""
        try:
            return zoneinfo.ZoneInfo(self.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError, TypeError):
            return zoneinfo.ZoneInfo(settings.TIME_ZONE)

    @property
    def plays_gallo(self) -> bool:
        """Single players three to a table (docs/tournaments.md "Tables of three"): the
        rules name the ``gallo`` option (the organiser chose it; a preset's default for
        three players does not count) and teams have one player."""
        return self.team_size == 1 and isinstance(self.rules, dict) and "gallo" in self.rules

    @property
    def table_size(self) -> int:
        """Players at a table: 3 for gallo, else two teams' worth."""
        return 3 if self.plays_gallo else 2 * self.team_size

    @property
    def is_catalan(self) -> bool:
        preset = self.rules if isinstance(self.rules, str) else self.rules.get("preset")
        return preset == "catalan"


class Person(models.Model):
    """A human who plays, one record across every championship (``tournaments.people``).

    Line-ups reference him through :class:`Player`, the name the hand records use, so two
    records of the same human are merged by pointing one's players at the other: no hand
    record is rewritten. ``email`` and ``phone`` are private: never on a public page, a
    public export or the public API; ``initial_only`` shows him as "Ana R.".
    """

    name = models.CharField(_("name"), max_length=200)
    club = models.CharField(_("club or city"), max_length=200, blank=True)
    # A federation's licence number: unique where given, so it finds the person at once.
    licence = models.CharField(_("licence number"), max_length=50, blank=True)
    email = models.EmailField(_("email"), blank=True)
    phone = models.CharField(_("phone"), max_length=40, blank=True)
    initial_only = models.BooleanField(
        _("show only the first name and the surname's initial"), default=False
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # The name without case, accents or extra spaces (:func:`name_key`): the likely
    # matches are found by it in one indexed query, accents and all.
    name_key = models.CharField(_("name key"), max_length=200, editable=False, default="")

    class Meta:
        verbose_name = _("person")
        verbose_name_plural = _("people")
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["licence"],
                condition=~Q(licence=""),
                name="person_licence_unique",
                violation_error_message=_("Another person has this licence number."),
            ),
        ]
        indexes = [
            models.Index(fields=["name"], name="person_name"),
            models.Index(fields=["name_key"], name="person_name_key"),
        ]

    def __str__(self) -> str:
        return self.public_name

    def save(self, *args: Any, **kwargs: Any) -> None:
        # bulk_create skips save(): people.services.players_create sets the key itself.
        self.name_key = name_key(self.name)
        if kwargs.get("update_fields") is not None and "name" in kwargs["update_fields"]:
            kwargs["update_fields"] = {*kwargs["update_fields"], "name_key"}
        super().save(*args, **kwargs)

    @property
    def public_name(self) -> str:
        """The name shown to the public: "Ana R." for a person who asked for it."""
        return public_name(self.name, initial_only=self.initial_only)


def public_name(name: str, *, initial_only: bool) -> str:
    """``name`` as the public sees it: the first word and the last word's initial.

    >>> public_name("Ana Ruiz Soler", initial_only=True)
    'Ana S.'
    >>> public_name("Ana", initial_only=True)
    'Ana'
    """
    words = name.split()
    if not initial_only or len(words) < 2:
        return name
    return f"{words[0]} {words[-1][0]}."


def name_key(text: str) -> str:
    """``text`` without case, accents or extra spaces: two names with the same key are
    likely the same person's.

    >>> name_key("  José   María PÉREZ ")
    'jose maria perez'
    >>> name_key("Núria Ferrer") == name_key("nuria  ferrer")
    True
    """
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(bare.split())


class Player(models.Model):
    """A name in a line-up; ``p<id>`` names him inside hand records (stable, unique).

    ``person`` is the human behind it: the same person's players in every championship
    (:class:`Person`). ``name`` and ``club`` are as entered for this line-up.
    """

    name = models.CharField(_("name"), max_length=200)
    club = models.CharField(_("club or city"), max_length=200, blank=True)
    person = models.ForeignKey(
        Person, on_delete=models.PROTECT, related_name="players", verbose_name=_("person")
    )

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name

    @property
    def record_key(self) -> str:
        return f"p{self.pk}"

    @property
    def public_name(self) -> str:
        """The name as entered for this line-up, shown as his person asked ("Ana R."): read
        with ``select_related("person")``, or it costs a query."""
        return public_name(self.name, initial_only=self.person.initial_only)


# The highest seed: PostgreSQL's integer column (SQLite would store more), so a seed is
# accepted or refused the same on every database; every way in checks it (services).
SEED_MAX = 2_147_483_647


# Weekdays as Python numbers them (date.weekday()): a team's home night, a league's default.
# A choice's label has its own context: the bare names are the dates' (Django's date
# formats read them, in small letters in Spanish and Catalan: "viernes 13 de noviembre").
WEEKDAYS = [
    (0, pgettext_lazy("weekday", "Monday")),
    (1, pgettext_lazy("weekday", "Tuesday")),
    (2, pgettext_lazy("weekday", "Wednesday")),
    (3, pgettext_lazy("weekday", "Thursday")),
    (4, pgettext_lazy("weekday", "Friday")),
    (5, pgettext_lazy("weekday", "Saturday")),
    (6, pgettext_lazy("weekday", "Sunday")),
]


# A team that plays: typed in by the organiser, or entered by its players and accepted.
PLAYS = Q(entry__isnull=True) | Q(entry__status="accepted")


class TeamQuerySet(models.QuerySet):
    def playing(self) -> "TeamQuerySet":
        """The teams that play: typed in by the organiser, or entered by their players and
        accepted (not pending, waiting, refused or withdrawn)."""
        return self.filter(PLAYS)


class Team(models.Model):
    """A pair, a trio, a Catalan *colla*... or a single player, in one championship."""

    championship = models.ForeignKey(
        Championship, on_delete=models.CASCADE, related_name="teams", verbose_name=_("championship")
    )
    name = models.CharField(_("name"), max_length=200)
    seed = models.PositiveIntegerField(_("seed"), null=True, blank=True)  # 1 to SEED_MAX
    club = models.CharField(_("club or city"), max_length=200, blank=True)
    # The town it comes from, as given on a circuit qualifier's entry form (its towns are
    # restricted): public, as a club is; no person's details.
    town = models.CharField(_("town"), max_length=200, blank=True)
    players = models.ManyToManyField(
        Player, through="Membership", related_name="teams", verbose_name=_("players")
    )
    # Where it plays its home matches in a league (tournaments.stages.league), and, when
    # the club has its own night, the weekday (0 Monday … 6 Sunday) and hour of those.
    venue_name = models.CharField(_("home venue"), max_length=200, blank=True)
    venue_address = models.CharField(_("home venue's address"), max_length=300, blank=True)
    home_weekday = models.PositiveSmallIntegerField(
        _("home weekday"), null=True, blank=True, choices=WEEKDAYS
    )
    home_time = models.TimeField(_("home hour"), null=True, blank=True)

    objects = TeamQuerySet.as_manager()

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["championship", F("seed").asc(nulls_last=True), "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["championship", "name"],
                name="team_name_unique_in_championship",
                violation_error_message=_("This championship already has a team of that name."),
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A player in a team, in seating order; ``is_captain`` marks the cap de colla."""

    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("team")
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("player")
    )
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    is_captain = models.BooleanField(_("cap de colla"), default=False)

    class Meta:
        verbose_name = _("member")
        verbose_name_plural = _("members")
        ordering = ["team", "order", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["team", "player"], name="membership_unique"),
            models.UniqueConstraint(
                fields=["team"], condition=Q(is_captain=True), name="one_captain_per_team"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.team})"


class Stage(models.Model):
    """One phase of a championship, played in one format."""

    championship = models.ForeignKey(
        Championship,
        on_delete=models.CASCADE,
        related_name="stages",
        verbose_name=_("championship"),
    )
    # Empty when the organiser typed none: the stage is then called by its format's name,
    # in each reader's language (tournaments.stages.registry.stage_name), not in the one
    # its creator happened to use.
    name = models.CharField(_("name"), max_length=200, blank=True)
    order = models.PositiveSmallIntegerField(_("order"), default=1)
    # A key of tournaments.stages.registry.FORMATS: the registry, not the database, lists
    # the formats, so adding one needs no migration.
    format = models.CharField(_("format"), max_length=30)
    # Format options (see docs/tournaments.md) and, once generated, the bracket positions
    # and group schedules the formats returned.
    settings = models.JSONField(_("settings"), default=dict, blank=True)
    teams = models.ManyToManyField(Team, related_name="stages", verbose_name=_("teams"))
    # Bumped in the same transaction as every change of a decided result of the stage: a
    # standings snapshot computed at an older version is stale (see StandingsSnapshot).
    results_version = models.PositiveIntegerField(_("results version"), default=0, editable=False)
    # Who keeps the score in this stage when it differs from the championship's (empty: as
    # the championship says): ``scorekeeping_in_force``.
    scorekeeping = models.CharField(
        _("who keeps the score"), max_length=10, choices=Scorekeeping.choices, blank=True
    )

    class Meta:
        verbose_name = _("stage")
        verbose_name_plural = _("stages")
        ordering = ["championship", "order"]
        constraints = [
            models.UniqueConstraint(fields=["championship", "order"], name="stage_order_unique"),
        ]

    def __str__(self) -> str:
        # Pages name a stage through the registry (the "stage_name" filter); the admin and
        # logs make do with the format's key.
        return self.name or self.format

    # The league's format key (tournaments.stages.pair_formats.League.key): a league plays
    # dated matchdays at the clubs' venues, not rounds at tables.
    LEAGUE = "league"

    @property
    def is_league(self) -> bool:
        return self.format == self.LEAGUE

    def round_title(self, number: int) -> str:
        """The name of this stage's round ``number`` when only its number is known (a
        substitution from it, a check-in for it): "Matchday 3" in a league."""
        return round_name(number=number, label="", settings=self.settings, dated=self.is_league)

    @property
    def scorekeeping_in_force(self) -> str:
        """Who keeps the score in this stage: its own choice, else its championship's."""
        return self.scorekeeping or self.championship.scorekeeping


class Group(models.Model):
    """A group of a groups-then-knockout stage (A, B, ...)."""

    stage = models.ForeignKey(
        Stage, on_delete=models.CASCADE, related_name="groups", verbose_name=_("stage")
    )
    name = models.CharField(_("name"), max_length=20)
    teams = models.ManyToManyField(Team, related_name="stage_groups", verbose_name=_("teams"))

    class Meta:
        verbose_name = _("group")
        verbose_name_plural = _("groups")
        ordering = ["stage", "name"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "name"], name="group_name_unique"),
        ]

    def __str__(self) -> str:
        return _("Group %(name)s") % {"name": self.name}


class Round(models.Model):
    """A round of a stage: a Swiss or round-robin round, or a round of a bracket."""

    stage = models.ForeignKey(
        Stage, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("stage")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    # Bracket rounds: "W1", "L2", "GF"...; empty for Swiss and round-robin rounds.
    label = models.CharField(_("label"), max_length=20, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # The teams (ids) absent at check-in when the round was generated: their walkovers
    # came from the check-in, not from a referee, so the round may still be removed.
    absent = models.JSONField(_("absent teams"), default=list, blank=True)
    # A league's matchday: the league's night of that week (its matches are placed in the
    # week from it); empty for the rounds of a championship played in a day.
    date = models.DateField(_("matchday date"), null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["stage", "number"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "number"], name="round_number_unique"),
            # One round per bracket label ("W2", "GF"...): bracket_sync looks it up by label.
            models.UniqueConstraint(
                fields=["stage", "label"], condition=~Q(label=""), name="round_label_unique"
            ),
        ]

    def __str__(self) -> str:
        # The stage tells a final from a first round; without it loaded (no query from a
        # __str__), a bracket round is named by its section only.
        cached = Round._meta.get_field("stage").is_cached(self)
        return round_name(
            number=self.number,
            label=self.label,
            settings=self.stage.settings if cached else None,
            dated=self.date is not None or (cached and self.stage.is_league),
        )

    def name_in(self, stage: Stage) -> str:
        """The round's name for people, ``stage`` being its stage (already loaded): a
        league's rounds are its matchdays, dated or not."""
        return round_name(
            number=self.number,
            label=self.label,
            settings=stage.settings,
            dated=self.date is not None or stage.is_league,
        )


# Knockout rounds counted from the final: the final, semi-finals, quarter-finals...
_FROM_FINAL = (
    _("Final"),
    _("Semi-finals"),
    _("Quarter-finals"),
    _("Round of 16"),
    _("Round of 32"),
)


def round_name(*, number: int, label: str, settings: dict | None, dated: bool = False) -> str:
    """A round's name for people: the one place every page, export and API label asks.

    Rounds without a label (round robin, Swiss, the groups of a groups stage) are numbered.
    Bracket rounds are named by stage from the bracket's size in the stage ``settings``
    (``bracket.positions``): final, semi-finals, quarter-finals, round of 16...; in a double
    elimination the winners' and losers' rounds are numbered, with their finals named;
    ``GF``/``GF2``/``P3`` are the grand final, its reset and the third-place match.
    ``settings`` None (stage not loaded): bracket rounds are named by section only.

    >>> str(round_name(number=2, label="", settings=None))
    'Round 2'
    >>> str(round_name(number=5, label="W2", settings={"bracket": {"positions": [1] * 8}}))
    'Semi-finals'

    A league's dated rounds (``dated``) are its matchdays:

    >>> str(round_name(number=3, label="", settings=None, dated=True))
    'Matchday 3'
    """
    if not label and dated:
        return _("Matchday %(number)s") % {"number": number}
    if not label:
        return _("Round %(number)s") % {"number": number}
    if label == "GF":
        return str(_("Grand final"))
    if label == "GF2":
        return str(_("Reset final"))
    if label == "P3":
        return str(_("Third-place match"))
    bracket = (settings or {}).get("bracket") or {}
    size = len(bracket.get("positions") or ())
    rounds = size.bit_length() - 1 if size else 0
    double = bool(bracket.get("double"))
    section, step = label[0], label[1:]
    if not step.isdigit():
        return label
    step_number = int(step)
    if section == "L":
        if rounds and step_number == 2 * (rounds - 1):
            return str(_("Losers' final"))
        return _("Losers' round %(number)s") % {"number": step_number}
    if section != "W":
        return label
    if not rounds:
        return _("Knockout round %(number)s") % {"number": step_number}
    if double:
        if step_number == rounds:
            return str(_("Winners' final"))
        return _("Winners' round %(number)s") % {"number": step_number}
    from_final = rounds - step_number
    if 0 <= from_final < len(_FROM_FINAL):
        return str(_FROM_FINAL[from_final])
    return _("Knockout round %(number)s") % {"number": step_number}


class MatchQuerySet(models.QuerySet):
    def of_team(self, team: Any) -> "MatchQuerySet":
        """The matches ``team`` (a team or its id) plays, on any side: A, B, or the third
        player's C at a table of three."""
        return self.filter(Q(team_a=team) | Q(team_b=team) | Q(team_c=team))

    def of_teams(self, teams: Any) -> "MatchQuerySet":
        """The matches any of ``teams`` (teams or ids) plays, on any side."""
        return self.filter(Q(team_a__in=teams) | Q(team_b__in=teams) | Q(team_c__in=teams))


@dataclass(frozen=True)
class MatchSide:
    """One side of a match as a list of matches names it (``Match.sides``)."""

    side: str  # "A", "B" or "C" (the third player of a table of three)
    team: "Team"
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
        self, *, winner_id: int, target: int, finished: Sequence["Game"] = ()
    ) -> list["Game"]:
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


class Hand(models.Model):
    """One hand as the referee recorded it: its entry of the match record (docs/hand-record.md).

    ``record`` holds ``cards``/``events`` (and ``gallo`` or ``pica_pica``); the match
    context (rules, teams, order, score) is rebuilt from the match. The other fields are
    derived by the engine.
    """

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="hands", verbose_name=_("match")
    )
    game = models.ForeignKey(
        Game,
        on_delete=models.SET_NULL,
        related_name="hands",
        null=True,
        blank=True,
        verbose_name=_("game"),
    )
    number = models.PositiveIntegerField(_("number"))
    record = models.JSONField(_("hand record"))
    # Mano first, as the engine dealt it, and the game's score before the hand.
    order = models.JSONField(_("order"), default=list)
    score_before_a = models.PositiveSmallIntegerField(_("score before A"), default=0)
    score_before_b = models.PositiveSmallIntegerField(_("score before B"), default=0)
    points_a = models.PositiveSmallIntegerField(_("points A"), default=0)
    points_b = models.PositiveSmallIntegerField(_("points B"), default=0)
    score_a = models.PositiveSmallIntegerField(_("score A"), default=0)
    score_b = models.PositiveSmallIntegerField(_("score B"), default=0)
    # The third side of a table of three (0 for two-sided matches).
    score_before_c = models.PositiveSmallIntegerField(_("score before C"), default=0)
    points_c = models.PositiveSmallIntegerField(_("points C"), default=0)
    score_c = models.PositiveSmallIntegerField(_("score C"), default=0)
    status = models.CharField(_("status"), max_length=20)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    recorded_at = models.DateTimeField(_("recorded at"), auto_now_add=True)
    corrected_at = models.DateTimeField(_("corrected at"), null=True, blank=True)

    class Meta:
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="hand_number_unique"),
        ]

    def __str__(self) -> str:
        return _("Hand %(number)s") % {"number": self.number}

    @property
    def points_text(self) -> str:
        """The points the hand gave, side A first: "2 – 0", at a table of three "2 – 2 – 0"."""
        points = [self.points_a, self.points_b]
        if self.match.team_c_id is not None:
            points.append(self.points_c)
        return " – ".join(str(p) for p in points)

    @property
    def score_text(self) -> str:
        """The chico's score after the hand, side A first: "12 – 9" ("12 – 9 – 3")."""
        scores = [self.score_a, self.score_b]
        if self.match.team_c_id is not None:
            scores.append(self.score_c)
        return " – ".join(str(score) for score in scores)


class HandDraft(models.Model):
    """The hand in progress at a match's table, as the tablet last synced it.

    One row per match, kept across hands: ``device`` is the tablet that holds the match
    (another device must take over explicitly), ``number`` the hand number the draft will
    be saved as, and ``record`` the hand so far in the hand-record format (``events``, and
    ``cards``/``gallo``/``pica_pica`` where used). Saving the hand empties the record and
    moves ``number`` on; ``revision`` grows with every change so a stale tablet is told.
    """

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, related_name="draft", verbose_name=_("match")
    )
    number = models.PositiveIntegerField(_("hand number"))
    record = models.JSONField(_("hand so far"), default=dict, blank=True)
    device = models.CharField(_("device"), max_length=64, blank=True)
    # When ``device`` took the match (a second device is told "since hh:mm").
    held_since = models.DateTimeField(_("held since"), null=True, blank=True)
    revision = models.PositiveIntegerField(_("revision"), default=0)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("updated by"),
    )
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("hand in progress")
        verbose_name_plural = _("hands in progress")

    def __str__(self) -> str:
        return _("Hand %(number)s in progress") % {"number": self.number}


class HandRevision(models.Model):
    """One change of a match's result, for its history and the championship's audit log.

    Written by the results services themselves (``tournaments.results.services``), whoever
    calls them: the tablet, the API, the organiser's pages. A hand's change keeps the hand
    before and after (``{"record", "points", "score"}``, None for a hand that did not or no
    longer exists); a walkover its decision; a confirmation or a dispute the side and who.
    """

    class Action(models.TextChoices):
        RECORDED = "recorded", _("Hand recorded")
        CORRECTED = "corrected", _("Hand corrected")
        REMOVED = "removed", _("Hand removed")
        WALKOVER = "walkover", _("Walkover")
        CONFIRMED = "confirmed", _("Result confirmed")
        DISPUTED = "disputed", _("Result disputed")
        RESULT = "result", _("Result recorded")
        RESULT_CORRECTED = "result_corrected", _("Result corrected")
        CONVERTED = "converted", _("Way of recording changed")

    HAND_ACTIONS = (Action.RECORDED, Action.CORRECTED, Action.REMOVED)

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="revisions", verbose_name=_("match")
    )
    # The hand's number when the change was made (empty for a change of the whole match).
    number = models.PositiveIntegerField(_("hand number"), null=True, blank=True)
    action = models.CharField(_("action"), max_length=20, choices=Action.choices)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    # "A" or "B" for a confirmation or a dispute.
    side = models.CharField(_("side"), max_length=1, blank=True)
    reason = models.TextField(_("reason"), blank=True)
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
        verbose_name = _("result change")
        verbose_name_plural = _("result changes")
        ordering = ["match", "pk"]
        indexes = [models.Index(fields=["match", "number"], name="revision_match_hand")]

    def __str__(self) -> str:
        return f"{self.get_action_display()} #{self.number or ''}"


class MatchConfirmation(models.Model):
    """One side's answer to its match's result: confirmed or disputed.

    ``player`` is who answered at the table (the cap de colla, or any player of the side),
    ``by`` the account that recorded it (the referee holding the tablet, or the organiser
    confirming for the side, ``on_behalf``). Removed when a hand of the match changes.
    """

    class Status(models.TextChoices):
        CONFIRMED = "confirmed", _("Confirmed")
        DISPUTED = "disputed", _("Disputed")

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="confirmations", verbose_name=_("match")
    )
    side = models.CharField(_("side"), max_length=1, choices=[("A", "A"), ("B", "B"), ("C", "C")])
    status = models.CharField(_("status"), max_length=20, choices=Status.choices)
    player = models.ForeignKey(
        Player,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("player"),
    )
    on_behalf = models.BooleanField(_("confirmed by the organiser"), default=False)
    comment = models.TextField(_("comment"), blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    at = models.DateTimeField(_("at"), auto_now=True)

    class Meta:
        verbose_name = _("confirmation")
        verbose_name_plural = _("confirmations")
        ordering = ["match", "side"]
        constraints = [
            models.UniqueConstraint(fields=["match", "side"], name="confirmation_side_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id} {self.side}: {self.get_status_display()}"

    @property
    def team(self) -> Any:
        """The team of the side that answered (the third player's at a table of three)."""
        return self.match.teams_by_side().get(self.side)


class StandingsSnapshot(models.Model):
    """Standings of a stage (or one of its groups) as last computed, for fast pages."""

    stage = models.ForeignKey(
        Stage, on_delete=models.CASCADE, related_name="snapshots", verbose_name=_("stage")
    )
    group = models.ForeignKey(
        Group,
        on_delete=models.CASCADE,
        related_name="snapshots",
        null=True,
        blank=True,
        verbose_name=_("group"),
    )
    rows = models.JSONField(_("rows"), default=list)
    # The stage's results_version read before the rows were computed: the rows reflect at
    # least those results. Served only while it equals the stage's current version.
    version = models.PositiveIntegerField(_("results version"), default=0, editable=False)
    computed_at = models.DateTimeField(_("computed at"), auto_now=True)

    class Meta:
        verbose_name = _("standings snapshot")
        verbose_name_plural = _("standings snapshots")
        constraints = [
            models.UniqueConstraint(
                fields=["stage"], condition=Q(group__isnull=True), name="snapshot_stage_unique"
            ),
            models.UniqueConstraint(
                fields=["stage", "group"],
                condition=Q(group__isnull=False),
                name="snapshot_group_unique",
            ),
        ]

    def __str__(self) -> str:
        return str(self.group or self.stage)


class PlacementSnapshot(models.Model):
    """A championship's placements as last computed (``standings.placements``): every
    playing team's place, for the person's and team's pages of many championships at once."""

    championship = models.OneToOneField(
        Championship,
        on_delete=models.CASCADE,
        related_name="placement_snapshot",
        verbose_name=_("championship"),
    )
    # Best first: {"team", "place", "tied", "of", "stage", "group"} (Placement.to_row).
    rows = models.JSONField(_("rows"), default=list)
    # Each stage's results_version read before the rows were computed ({"<stage id>": n}):
    # served only while every stage of the championship still has that version.
    versions = models.JSONField(_("results versions"), default=dict)
    computed_at = models.DateTimeField(_("computed at"), auto_now=True)

    class Meta:
        verbose_name = _("placements snapshot")
        verbose_name_plural = _("placements snapshots")

    def __str__(self) -> str:
        return str(self.championship)


class ChampionshipReferee(models.Model):
    """A user who referees in one championship: on its list of referees."""

    championship = models.ForeignKey(
        Championship,
        on_delete=models.CASCADE,
        related_name="referee_entries",
        verbose_name=_("championship"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="referee_entries",
        verbose_name=_("user"),
    )
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("added by"),
    )
    added_at = models.DateTimeField(_("added at"), auto_now_add=True)

    class Meta:
        verbose_name = _("championship referee")
        verbose_name_plural = _("championship referees")
        constraints = [
            models.UniqueConstraint(
                fields=["championship", "user"], name="championship_referee_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.championship})"


class RefereeInvitation(models.Model):
    """A one-time link that lets someone make his own referee account for a championship.

    Only the SHA-256 of the token is stored: the link is shown (or mailed) once.
    """

    championship = models.ForeignKey(
        Championship,
        on_delete=models.CASCADE,
        related_name="referee_invitations",
        verbose_name=_("championship"),
    )
    token_hash = models.CharField(_("token hash"), max_length=64, unique=True, editable=False)
    name = models.CharField(_("name"), max_length=150, blank=True)
    email = models.EmailField(_("email"), blank=True)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("invited by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires at"))
    used_at = models.DateTimeField(_("used at"), null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("used by"),
    )
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        verbose_name = _("referee invitation")
        verbose_name_plural = _("referee invitations")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name or self.email or str(self.pk)


class CheckIn(models.Model):
    """A team's presence before a round of a stage (the round not generated yet).

    No row for any team of the round: check-in was not taken and every team plays. Once
    one exists, only the teams marked present are paired.
    """

    stage = models.ForeignKey(
        Stage, on_delete=models.CASCADE, related_name="check_ins", verbose_name=_("stage")
    )
    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="check_ins", verbose_name=_("team")
    )
    round_number = models.PositiveSmallIntegerField(_("round"))
    present = models.BooleanField(_("present"), default=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("checked by"),
    )
    at = models.DateTimeField(_("checked at"), auto_now=True)

    class Meta:
        verbose_name = _("check-in")
        verbose_name_plural = _("check-ins")
        constraints = [
            models.UniqueConstraint(
                fields=["stage", "team", "round_number"], name="check_in_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team} ({self.round_number})"


class Substitution(models.Model):
    """A player replaced in a team from a round of a stage on (earlier matches keep him)."""

    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="substitutions", verbose_name=_("team")
    )
    player_out = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("player out")
    )
    player_in = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("player in")
    )
    stage = models.ForeignKey(
        Stage,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("stage"),
    )
    from_round = models.PositiveSmallIntegerField(_("from round"), default=1)
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
        verbose_name = _("substitution")
        verbose_name_plural = _("substitutions")
        ordering = ["team", "at"]

    def __str__(self) -> str:
        return f"{self.player_out} → {self.player_in} ({self.team})"

    @property
    def from_round_name(self) -> str:
        """The round he comes in from, as its stage names it ("Quarter-finals", "Round
        3"): a round not made yet by its number. One query (its stage loaded)."""
        if self.stage_id is None:
            return round_name(number=self.from_round, label="", settings=None)
        found = Round.objects.filter(stage_id=self.stage_id, number=self.from_round).first()
        if found is None:  # not made yet: by its number, as its stage names a round
            return self.stage.round_title(self.from_round)
        return found.name_in(self.stage)


class EntryPolicy(models.Model):
    """How a championship takes entries from the players (``tournaments.entries``).

    Open while ``is_open`` and before ``closes_at``; ``capacity`` teams are entered, the
    next wait in arrival order. ``asks`` lists the optional questions of the form (the
    players' names always, their number from the rules).
    """

    QUESTIONS = ("club", "licence", "email", "phone")

    championship = models.OneToOneField(
        Championship,
        on_delete=models.CASCADE,
        related_name="entry_policy",
        verbose_name=_("championship"),
    )
    is_open = models.BooleanField(_("entries open"), default=False)
    capacity = models.PositiveIntegerField(_("capacity (teams)"), null=True, blank=True)
    closes_at = models.DateTimeField(_("entries close"), null=True, blank=True)
    asks = models.JSONField(_("questions asked"), default=list, blank=True)
    fee = models.DecimalField(_("entry fee"), max_digits=8, decimal_places=2, null=True, blank=True)
    # The fee's ISO 4217 code (``entries.money.CURRENCIES`` lists the choices).
    currency = models.CharField(_("currency"), max_length=3, default="EUR")
    fee_instructions = models.TextField(_("how to pay"), blank=True)

    class Meta:
        verbose_name = _("entry policy")
        verbose_name_plural = _("entry policies")

    def __str__(self) -> str:
        return str(self.championship)


class Entry(models.Model):
    """A team's entry by its players, with its place: entered (pending the organiser's
    acceptance), accepted, on the waiting list (``position`` keeps the arrival order),
    refused or withdrawn. A team typed in by the organiser has no entry and plays."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Entered")
        ACCEPTED = "accepted", _("Accepted")
        WAITING = "waiting", _("Waiting list")
        REFUSED = "refused", _("Refused")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    # The entries that hold a place (the capacity counts them).
    HOLDING = (Status.PENDING, Status.ACCEPTED)
    # A team that is out: never paired, never in a new stage.
    OUT = (Status.WAITING, Status.REFUSED, Status.WITHDRAWN)
    # A team gone for good: a fee it paid is to be refunded.
    GONE = (Status.REFUSED, Status.WITHDRAWN)

    championship = models.ForeignKey(
        Championship,
        on_delete=models.CASCADE,
        related_name="entries",
        verbose_name=_("championship"),
    )
    team = models.OneToOneField(
        Team, on_delete=models.CASCADE, related_name="entry", verbose_name=_("team")
    )
    status = models.CharField(_("status"), max_length=20, choices=Status.choices)
    # Arrival order in the championship, 1, 2, 3...: the waiting list's order.
    position = models.PositiveIntegerField(_("arrival"))
    paid = models.BooleanField(_("paid"), default=False)
    paid_at = models.DateTimeField(_("paid at"), null=True, blank=True)
    # When the organiser gave the fee back to a team gone (``to_refund`` until then).
    refunded_at = models.DateTimeField(_("refunded at"), null=True, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    # Private: where the team's link was sent.
    email = models.EmailField(_("email"), blank=True)
    # The form's one-time key: the same form posted twice enters one team.
    form_key = models.CharField(_("form key"), max_length=64, blank=True, editable=False)
    # Who sent it and what (a keyed hash of the address and every field, nothing readable):
    # the key answers the first entry again only to that sending (entries.services).
    form_fingerprint = models.CharField(
        _("form fingerprint"), max_length=64, blank=True, editable=False
    )
    created_at = models.DateTimeField(_("entered at"), auto_now_add=True)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["championship", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["championship", "position"], name="entry_position_unique"
            ),
            models.UniqueConstraint(
                fields=["championship", "form_key"],
                condition=~Q(form_key=""),
                name="entry_form_key_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team} ({self.get_status_display()})"

    @property
    def to_refund(self) -> bool:
        """It paid and is gone (refused or withdrawn), and the fee is not refunded yet."""
        return self.paid and self.status in self.GONE and self.refunded_at is None


class TeamLink(models.Model):
    """A team's personal link: the signed token names this row; revoked, it opens nothing.

    A team has at most one live link: issuing a new one revokes the others.
    """

    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="links", verbose_name=_("team")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )

    class Meta:
        verbose_name = _("team link")
        verbose_name_plural = _("team links")
        ordering = ["team", "-created_at"]

    def __str__(self) -> str:
        return str(self.team)


class TeamAct(models.Model):
    """One act on a team's place in a championship, for the audit log: its entry and what
    happened to it, its personal link, and every act done through that link."""

    class Action(models.TextChoices):
        ENTERED = "entered", _("Entered")
        WAITING = "waiting", _("Put on the waiting list")
        PROMOTED = "promoted", _("Promoted from the waiting list")
        ACCEPTED = "accepted", _("Entry accepted")
        REFUSED = "refused", _("Entry refused")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        PAID = "paid", _("Marked paid")
        UNPAID = "unpaid", _("Marked unpaid")
        REFUNDED = "refunded", _("Fee refunded")
        LINK_ISSUED = "link_issued", _("Personal link issued")
        LINK_REVOKED = "link_revoked", _("Personal link revoked")
        CHECKED_IN = "checked_in", _("Checked in")
        CONFIRMED = "confirmed", _("Result confirmed")
        DISPUTED = "disputed", _("Result disputed")
        REPORTED = "reported", _("Result reported")
        MOVED = "moved", _("Moved")
        PERSON_MERGED = "person_merged", _("Two records of a player merged")
        PERSON_EDITED = "person_edited", _("A player's details changed")
        QUALIFIED = "qualified", _("Entered as qualified for the final")
        REPLACEMENT = "replacement", _("Entered in place of a qualified team that withdrew")

    class Via(models.TextChoices):
        FORM = "form", _("entry form")
        LINK = "link", _("personal link")
        ORGANISER = "organiser", _("organiser")
        API = "api", _("API")
        CIRCUIT = "circuit", _("circuit")

    championship = models.ForeignKey(
        Championship,
        on_delete=models.CASCADE,
        related_name="team_acts",
        verbose_name=_("championship"),
    )
    team = models.ForeignKey(
        Team,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="acts",
        verbose_name=_("team"),
    )
    # The team's name when it acted: kept if the team is removed.
    team_name = models.CharField(_("team"), max_length=200)
    match = models.ForeignKey(
        Match,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("match"),
    )
    action = models.CharField(_("action"), max_length=20, choices=Action.choices)
    via = models.CharField(_("through"), max_length=20, choices=Via.choices)
    detail = models.TextField(_("detail"), blank=True)
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
        verbose_name = _("team act")
        verbose_name_plural = _("team acts")
        ordering = ["championship", "pk"]

    def __str__(self) -> str:
        return f"{self.team_name}: {self.get_action_display()}"


def _count(verbose_name: Any) -> models.PositiveIntegerField:
    return models.PositiveIntegerField(verbose_name, default=0)


class HandSideStat(models.Model):
    """What one side did in one hand (the engine's ``scoring.SideFacts``), kept for the
    statistics (``tournaments.ratings.statistics``): written with the hand, in the same
    transaction, whenever a hand is recorded, corrected or removed, and summed by SQL.

    ``comeback``: this hand won the chico for the side, which had been in the malas while
    the other side was in the buenas (``trailing``) in one of the chico's hands.
    """

    hand = models.ForeignKey(
        Hand, on_delete=models.CASCADE, related_name="side_stats", verbose_name=_("hand")
    )
    # Kept with the row so that a championship's or a team's sums read one table.
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="+", verbose_name=_("match")
    )
    championship = models.ForeignKey(
        Championship, on_delete=models.CASCADE, related_name="+", verbose_name=_("championship")
    )
    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="+", verbose_name=_("team")
    )
    side = models.CharField(_("side"), max_length=1)
    points = _count(_("points"))
    envido_points = _count(_("envido points"))
    flor_points = _count(_("flor points"))
    # Truco points by the level the hand was played at: no step accepted, then each step.
    truco_points_0 = _count(_("truco points, no call accepted"))
    truco_points_1 = _count(_("truco points, first step"))
    truco_points_2 = _count(_("truco points, second step"))
    truco_points_3 = _count(_("truco points, third step"))
    mazo_points = _count(_("mazo points"))
    penalty_points = _count(_("penalty points"))
    mestre_points = _count(_("mestre points"))
    envido_called = _count(_("envido called"))
    envido_accepted = _count(_("envido accepted"))
    envido_refused = _count(_("envido refused"))
    envido_played = _count(_("envido played"))
    envido_won = _count(_("envido won"))
    truco_calls = _count(_("truco calls"))
    truco_accepted = _count(_("truco calls accepted"))
    truco_refused = _count(_("truco calls refused"))
    truco_raised = _count(_("truco calls raised"))
    truco_answers = _count(_("truco answers"))
    flor_sung = _count(_("flores sung"))
    mazos = _count(_("hands conceded at the mazo"))
    penalties = _count(_("penalties"))
    trailing = models.BooleanField(_("in the malas against the buenas"), default=False)
    chico_won = models.BooleanField(_("chico won"), default=False)
    comeback = models.BooleanField(_("chico won from the malas"), default=False)
    # At a table of three a pair's side is both its players': the second player's row (a
    # gallo por turno hand's, or a fixed gallo's pair's third column) repeats the pair's
    # facts for his own sums and is left out of sums that count each hand's events once.
    shared = models.BooleanField(_("repeats the pair's side"), default=False)

    class Meta:
        verbose_name = _("hand statistics of a side")
        verbose_name_plural = _("hand statistics of sides")
        constraints = [
            models.UniqueConstraint(fields=["hand", "side"], name="hand_side_stat_unique"),
        ]
        indexes = [
            models.Index(fields=["championship", "team"], name="side_stat_championship"),
            # The biggest hand of a championship: its first row by points.
            models.Index(fields=["championship", "-points"], name="side_stat_points"),
        ]

    def __str__(self) -> str:
        return f"{self.hand_id} {self.side}"


class HandPlayerStat(models.Model):
    """What one player did in one hand (``scoring.PlayerFacts``): a row for every player
    who took part, so that a person's hands are counted; his side's row beside it."""

    hand = models.ForeignKey(
        Hand, on_delete=models.CASCADE, related_name="player_stats", verbose_name=_("hand")
    )
    side_stat = models.ForeignKey(
        HandSideStat, on_delete=models.CASCADE, related_name="players", verbose_name=_("side")
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="hand_stats", verbose_name=_("player")
    )
    championship = models.ForeignKey(
        Championship, on_delete=models.CASCADE, related_name="+", verbose_name=_("championship")
    )
    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="+", verbose_name=_("team")
    )
    envido_calls = _count(_("envido calls"))
    envido_accepted = _count(_("envido accepted"))
    envido_refused = _count(_("envido refused"))
    truco_calls = _count(_("truco calls"))
    truco_accepted = _count(_("truco calls accepted"))
    truco_refused = _count(_("truco calls refused"))
    truco_raised = _count(_("truco calls raised"))
    truco_answers = _count(_("truco answers"))
    flor_sung = _count(_("flores sung"))
    mazo = _count(_("went to the mazo"))

    class Meta:
        verbose_name = _("hand statistics of a player")
        verbose_name_plural = _("hand statistics of players")
        constraints = [
            models.UniqueConstraint(fields=["hand", "player"], name="hand_player_stat_unique"),
        ]
        indexes = [
            models.Index(fields=["championship", "player"], name="player_stat_championship"),
        ]

    def __str__(self) -> str:
        return f"{self.hand_id} {self.player_id}"


class RatingFamily(models.TextChoices):
    """The rules families a person is rated in: one rating each (``tournaments.ratings``).

    A championship's preset decides (``Championship.is_catalan``): argentine,
    argentine_flor and trucardo are the Argentine family, catalan its own."""

    ARGENTINE = "argentine", _("Argentine truco")
    CATALAN = "catalan", _("Catalan truc")


class Rating(models.Model):
    """A person's current rating in one family: OpenSkill's ``mu`` and ``sigma`` after his
    last rated match (``tournaments.ratings``; docs/tournaments.md, "Ratings").

    ``ordinal`` (mu − 3 sigma) is kept beside them so that the leaderboard is one ordered
    query; ``matches`` counts his rated matches, ``last_at`` the decision time of the last.
    """

    person = models.ForeignKey(
        Person, on_delete=models.CASCADE, related_name="ratings", verbose_name=_("person")
    )
    family = models.CharField(_("rules family"), max_length=20, choices=RatingFamily.choices)
    mu = models.FloatField("mu")
    sigma = models.FloatField("sigma")
    ordinal = models.FloatField(_("ordinal"))
    matches = models.PositiveIntegerField(_("rated matches"), default=0)
    last_match = models.ForeignKey(
        Match,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("last match"),
    )
    last_at = models.DateTimeField(_("last rated match"), null=True, blank=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=["person", "family"], name="rating_person_family"),
        ]
        indexes = [models.Index(fields=["family", "-ordinal"], name="rating_family_ordinal")]

    def __str__(self) -> str:
        return f"{self.person_id} {self.family}: {self.ordinal:.2f}"


class RatingChange(models.Model):
    """One person's rating before and after one rated match: the history, and where a
    replay starts from (``tournaments.ratings.services``).

    Matches are rated in the order of their key ``(decided_at, match_id)``: the match's
    decision time (``Match.finished_at``) then its pk. ``place`` and ``decided_at`` are
    what the match was rated with: a match whose result, players or time changed since is
    rated again, and every later match of the family with it. ``place`` is 1 (won) or 2
    (lost) in a two-sided match, the person's place at a table of three (1 to 3, shared
    places repeat); ``won`` is a first place."""

    person = models.ForeignKey(
        Person, on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("person")
    )
    family = models.CharField(_("rules family"), max_length=20, choices=RatingFamily.choices)
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("match")
    )
    decided_at = models.DateTimeField(_("decided at"))
    won = models.BooleanField(_("won"))
    place = models.PositiveSmallIntegerField(_("place"))
    number = models.PositiveIntegerField(_("rated match number"))
    mu_before = models.FloatField("mu before")
    sigma_before = models.FloatField("sigma before")
    mu_after = models.FloatField("mu after")
    sigma_after = models.FloatField("sigma after")

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["decided_at", "match_id", "person_id"]
        constraints = [
            models.UniqueConstraint(fields=["person", "match"], name="rating_change_person_match"),
        ]
        indexes = [
            models.Index(fields=["family", "decided_at", "match"], name="rating_change_order"),
            models.Index(fields=["person", "family", "decided_at"], name="rating_change_person"),
        ]

    def __str__(self) -> str:
        return f"{self.person_id} {self.match_id}: {self.mu_before:.2f} → {self.mu_after:.2f}"


def default_circuit_points() -> list[int]:
    # Points for 1st, 2nd, 3rd...; a place past the end of the table scores nothing.
    return [100, 70, 50, 40, 30, 25, 20, 15, 10, 5]


class Circuit(models.Model):
    """A season or a series of championships with one ranking (``tournaments.circuits``):
    qualifying events that feed a final, or a federation's ranking events.

    Its rules are set once: ``points`` per placement (1st, 2nd...), each event's points
    multiplied by its ``weight``; ``best_of`` the number of results that count for each
    person or team (None: all); the first ``qualify_per_event`` teams of each qualifier and
    the best ``qualify_by_points`` others by circuit points enter the final.
    """

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("short name"), max_length=100, unique=True)
    # The rules family of its events (their presets): one ranking compares like with like.
    family = models.CharField(
        _("rules family"),
        max_length=20,
        choices=RatingFamily.choices,
        default=RatingFamily.ARGENTINE,
    )
    start_date = models.DateField(_("start date"))
    end_date = models.DateField(_("end date"))
    description = models.TextField(_("description"), blank=True)
    points = models.JSONField(_("points per placement"), default=default_circuit_points)
    best_of = models.PositiveSmallIntegerField(
        _("results that count (best N)"),
        null=True,
        blank=True,
        help_text=_("Empty: every result counts."),
    )
    qualify_per_event = models.PositiveSmallIntegerField(
        _("teams qualified by each qualifier"), default=1
    )
    qualify_by_points = models.PositiveSmallIntegerField(
        _("other teams qualified by circuit points"), default=0
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("organisers"),
        related_name="organised_circuits",
        blank=True,
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("circuit")
        verbose_name_plural = _("circuits")
        ordering = ["-start_date", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(end_date__gte=F("start_date")),
                name="circuit_ends_after_start",
                violation_error_message=_("A circuit cannot end before it starts."),
            ),
        ]

    def __str__(self) -> str:
        return self.name


class CircuitEvent(models.Model):
    """A championship of a circuit: a qualifier, the final, or an event that only counts
    for the ranking. A championship belongs to one circuit at most."""

    class Kind(models.TextChoices):
        QUALIFIER = "qualifier", _("Qualifier")
        FINAL = "final", _("Final")
        RANKING = "ranking", _("Ranking event")

    circuit = models.ForeignKey(
        Circuit, on_delete=models.CASCADE, related_name="events", verbose_name=_("circuit")
    )
    championship = models.OneToOneField(
        Championship,
        on_delete=models.CASCADE,
        related_name="circuit_event",
        verbose_name=_("championship"),
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices, default=Kind.QUALIFIER)
    # Its points are the table's times this (a major event 2, a minor one 0.5).
    weight = models.DecimalField(_("weight"), max_digits=5, decimal_places=2, default=1)
    # The town or region the event is for, as the public reads it ("Inca", "Llevant").
    place = models.CharField(_("town or region"), max_length=200, blank=True)
    # When not empty, only players from these towns may enter (the entry form asks).
    towns = models.JSONField(_("towns admitted"), default=list, blank=True)

    class Meta:
        verbose_name = _("circuit event")
        verbose_name_plural = _("circuit events")
        ordering = ["circuit", "championship__start_date", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["circuit"],
                condition=Q(kind="final"),
                name="circuit_one_final",
                violation_error_message=_("This circuit already has a final."),
            ),
            models.CheckConstraint(
                condition=Q(weight__gt=0),
                name="circuit_event_weight_positive",
                violation_error_message=_("An event's weight must be above zero."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.circuit}: {self.championship}"


class CircuitQualification(models.Model):
    """A team's place in its circuit's final: won at a qualifier (``event``, ``place``) or
    by circuit points (``event`` empty), and the team entered in the final for it.

    ``people_key`` (the team's person ids, sorted, joined by "-") is the team across
    championships: a team qualifies once, however many qualifiers it wins. A qualified
    team that withdraws keeps its row (``withdrawn``), so it is never entered again, and
    the next in line gets a row that ``replaces`` it.
    """

    class Status(models.TextChoices):
        ENTERED = "entered", _("Entered in the final")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    circuit = models.ForeignKey(
        Circuit,
        on_delete=models.CASCADE,
        related_name="qualifications",
        verbose_name=_("circuit"),
    )
    people_key = models.CharField(_("team's people"), max_length=200)
    event = models.ForeignKey(
        CircuitEvent,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="qualifications",
        verbose_name=_("qualified at"),
    )
    place = models.PositiveSmallIntegerField(_("placement"))
    source_team = models.ForeignKey(
        Team,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("qualifying team"),
    )
    final_team = models.OneToOneField(
        Team,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="qualification",
        verbose_name=_("team in the final"),
    )
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.ENTERED
    )
    replaces = models.OneToOneField(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="replaced_by",
        verbose_name=_("replaces"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("qualification")
        verbose_name_plural = _("qualifications")
        ordering = ["circuit", "created_at", "pk"]
        constraints = [
            # The last guard against two qualifiers finishing at once entering a team twice.
            models.UniqueConstraint(
                fields=["circuit", "people_key"], name="qualification_once_per_team"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.circuit}: {self.people_key}"


class CircuitPlacement(models.Model):
    """A team's placement in an event of a circuit, as the ranking reads it.

    Written by ``circuits.qualification.placements_store`` from the championship's stages
    (``standings.placements``) whenever its results change, all the event's rows at once:
    the ranking is then one query and sums, however many events and people.
    """

    event = models.ForeignKey(
        CircuitEvent,
        on_delete=models.CASCADE,
        related_name="placements",
        verbose_name=_("event"),
    )
    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="+", verbose_name=_("team")
    )
    people_key = models.CharField(_("team's people"), max_length=200)
    place = models.PositiveSmallIntegerField(_("placement"))
    tied = models.BooleanField(_("tied"), default=False)

    class Meta:
        verbose_name = _("circuit placement")
        verbose_name_plural = _("circuit placements")
        ordering = ["event", "place", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["event", "team"], name="circuit_placement_once"),
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.people_key} {self.place}"


class PersonMergeRequest(models.Model):
    """Two records likely of one human that no one organiser may merge alone: the
    organisers who said "one person" (``agreed``), until every championship of the two
    is managed by one of them and the merge is made (``people.services.merges``).

    Written when a typed licence number is another record's that the one typing may not
    see (``reason`` licence: nobody agreed yet), or when an organiser asks (name).
    ``first`` is the record with the lower id: one request per pair.
    """

    class Reason(models.TextChoices):
        LICENCE = "licence", _("The same licence number was typed")
        NAME = "name", _("The same name")

    first = models.ForeignKey(
        Person, on_delete=models.CASCADE, related_name="+", verbose_name=_("first record")
    )
    second = models.ForeignKey(
        Person, on_delete=models.CASCADE, related_name="+", verbose_name=_("second record")
    )
    reason = models.CharField(_("reason"), max_length=10, choices=Reason.choices)
    agreed = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="+", verbose_name=_("agreed by")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("merge request")
        verbose_name_plural = _("merge requests")
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["first", "second"], name="merge_request_once"),
            models.CheckConstraint(
                condition=Q(first__lt=F("second")), name="merge_request_ordered"
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.first_id} = #{self.second_id}?"


class PersonMerged(models.Model):
    """Where a merged-away person went: his old id's pages redirect to the person kept
    (``person_id`` follows later merges too)."""

    old_id = models.PositiveIntegerField(_("old record"), primary_key=True)
    person = models.ForeignKey(
        Person, on_delete=models.CASCADE, related_name="+", verbose_name=_("merged into")
    )
    merged_at = models.DateTimeField(_("merged at"), auto_now_add=True)

    class Meta:
        verbose_name = _("merged record")
        verbose_name_plural = _("merged records")

    def __str__(self) -> str:
        return f"#{self.old_id} → #{self.person_id}"
