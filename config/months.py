"""The months as a long date names them after its day, for Django's date format ``E``.

Catalan writes "22 de novembre de 2026" and "22 d'octubre de 2026"; Django's own Catalan
catalog gives the bare month ("22 novembre de 2026"). The project's catalogs, read before
Django's, translate these (context "alt. month") with the "de" or "d'" a Catalan date
needs; listing them here keeps them in the catalogs when ``make messages`` runs again.
"""

from django.utils.translation import pgettext_lazy

ALT_MONTHS = [
    pgettext_lazy("alt. month", "January"),
    pgettext_lazy("alt. month", "February"),
    pgettext_lazy("alt. month", "March"),
    pgettext_lazy("alt. month", "April"),
    pgettext_lazy("alt. month", "May"),
    pgettext_lazy("alt. month", "June"),
    pgettext_lazy("alt. month", "July"),
    pgettext_lazy("alt. month", "August"),
    pgettext_lazy("alt. month", "September"),
    pgettext_lazy("alt. month", "October"),
    pgettext_lazy("alt. month", "November"),
    pgettext_lazy("alt. month", "December"),
]
