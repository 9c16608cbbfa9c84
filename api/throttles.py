"""Throttles: anonymous requests per address, authenticated writes per user, teams
entered per address.

Rates come from settings (``API_THROTTLE_ANON``, ``API_THROTTLE_USER_WRITE``; see
docs/configuration.md) and are read on each request, so tests can change them.
"""

from __future__ import annotations

from axes.helpers import get_client_ip_address
from django.conf import settings
from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, BaseThrottle, UserRateThrottle

from tournaments.entries import limits


class _SettingsRate:
    scope: str

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)


class AnonThrottle(_SettingsRate, AnonRateThrottle):
    """Anonymous requests (reads, and asking for a token), per client address."""

    scope = "anon"


class UserWriteThrottle(_SettingsRate, UserRateThrottle):
    """Writes of an authenticated user (POST, PATCH, PUT, DELETE); reads are not counted."""

    scope = "user_write"

    def allow_request(self, request, view) -> bool:
        if request.method in ("GET", "HEAD", "OPTIONS") or not request.user.is_authenticated:
            return True
        return super().allow_request(request, view)


class EntryThrottle(BaseThrottle):
    """Teams entered per address: one count with the public entry form
    (``ENTRY_FORM_LIMIT`` per ``ENTRY_FORM_WINDOW`` seconds, ``tournaments.entries.limits``)."""

    def allow_request(self, request, view) -> bool:
        return limits.entry_sending_allowed(get_client_ip_address(request))

    def wait(self) -> float:
        return float(settings.ENTRY_FORM_WINDOW)
