"""The referees app: referee accounts, assignments and the tablet hand-entry flow."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RefereesConfig(AppConfig):
    name = "referees"
    verbose_name = _("Referees")
