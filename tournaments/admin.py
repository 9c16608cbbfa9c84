"""Admin for championships: everything registered, hands read-only (the engine derives them)."""

from django.contrib import admin

from tournaments.models import (
    Championship,
    Game,
    Group,
    Hand,
    HandRevision,
    Match,
    MatchConfirmation,
    Membership,
    Person,
    Player,
    Round,
    Stage,
    StandingsSnapshot,
    Team,
)


class StageInline(admin.TabularInline):
    model = Stage
    extra = 0
    fields = ["order", "name", "format"]
    show_change_link = True


@admin.register(Championship)
class ChampionshipAdmin(admin.ModelAdmin):
    list_display = ["name", "status", "start_date", "end_date", "venue", "team_size"]
    list_filter = ["status"]
    search_fields = ["name", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    date_hierarchy = "start_date"
    filter_horizontal = ["organisers"]
    inlines = [StageInline]


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["player"]
    fields = ["player", "order", "is_captain"]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "championship", "seed", "club"]
    list_filter = ["championship"]
    search_fields = ["name", "club", "players__name"]
    list_select_related = ["championship"]
    inlines = [MembershipInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "person"]
    search_fields = ["name", "club"]
    autocomplete_fields = ["person"]
    list_select_related = ["person"]


@admin.register(Person)
class PersonAdmin(admin.ModelAdmin):
    """People across championships; two records of one human are merged by an organiser
    on his people's page (``people.services.person_merge``), which logs it."""

    list_display = ["name", "club", "licence", "initial_only", "created_at"]
    search_fields = ["name", "name_key", "club", "licence"]
    list_filter = ["initial_only"]
    readonly_fields = ["name_key", "created_at"]


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ["number", "label"]
    show_change_link = True


class GroupInline(admin.TabularInline):
    model = Group
    extra = 0
    fields = ["name"]


@admin.register(Stage)
class StageAdmin(admin.ModelAdmin):
    list_display = ["name", "championship", "order", "format"]
    list_filter = ["format", "championship"]
    list_select_related = ["championship"]
    filter_horizontal = ["teams"]
    inlines = [GroupInline, RoundInline]


class MatchInline(admin.TabularInline):
    model = Match
    extra = 0
    fields = ["team_a", "team_b", "table", "scheduled_at", "referee", "status", "winner"]
    readonly_fields = ["team_a", "team_b", "status", "winner"]
    show_change_link = True


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["__str__", "stage", "number", "label"]
    list_filter = ["stage__championship"]
    list_select_related = ["stage"]
    inlines = [MatchInline]


class GameInline(admin.TabularInline):
    model = Game
    extra = 0
    can_delete = False
    fields = ["number", "score_a", "score_b", "winner"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class HandInline(admin.TabularInline):
    model = Hand
    extra = 0
    can_delete = False
    fields = ["number", "points_a", "points_b", "score_a", "score_b", "status", "recorded_by"]
    readonly_fields = [*fields, "record"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    """Table, time and referee are editable; results come from the hands only."""

    list_display = ["__str__", "stage", "round", "status", "winner", "table", "referee"]
    list_filter = ["status", "stage__championship"]
    list_select_related = ["stage", "round", "team_a", "team_b", "winner", "referee"]
    search_fields = ["team_a__name", "team_b__name"]
    readonly_fields = [
        "stage",
        "round",
        "group",
        "bracket_id",
        "team_a",
        "team_b",
        "status",
        "outcome",
        "winner",
        "chicos_a",
        "chicos_b",
        "tantos_a",
        "tantos_b",
        "seats",
        "finished_at",
    ]
    inlines = [GameInline, HandInline]


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["__str__", "match", "points_a", "points_b", "status", "recorded_by"]
    list_select_related = ["match__team_a", "match__team_b", "recorded_by"]
    readonly_fields = [f.name for f in Hand._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(HandRevision)
class HandRevisionAdmin(admin.ModelAdmin):
    """The history of results: read only, it is the record of what happened."""

    list_display = ["at", "match", "number", "action", "side", "by", "reason"]
    list_filter = ["action"]
    list_select_related = ["match__team_a", "match__team_b", "by"]
    readonly_fields = [f.name for f in HandRevision._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(MatchConfirmation)
class MatchConfirmationAdmin(admin.ModelAdmin):
    """The sides' answers: changed through the organiser's pages, kept in the history."""

    list_display = ["match", "side", "status", "player", "on_behalf", "by", "at"]
    list_filter = ["status"]
    list_select_related = ["match__team_a", "match__team_b", "player", "by"]
    readonly_fields = [f.name for f in MatchConfirmation._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(StandingsSnapshot)
class StandingsSnapshotAdmin(admin.ModelAdmin):
    list_display = ["__str__", "stage", "group", "computed_at"]
    readonly_fields = ["stage", "group", "rows", "computed_at"]
