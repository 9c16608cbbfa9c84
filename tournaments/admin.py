"""Admin for championships."""

from django.contrib import admin

from tournaments.models import Championship


@admin.register(Championship)
class ChampionshipAdmin(admin.ModelAdmin):
    list_display = ["name", "status", "start_date", "end_date", "venue"]
    list_filter = ["status"]
    search_fields = ["name", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    date_hierarchy = "start_date"
