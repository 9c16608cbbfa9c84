"""The project's date formats per language (``FORMAT_MODULE_PATH``), read before Django's.

Django's own formats (``DATE_FORMAT`` and the others) stay Django's; these modules add the
day formats the pages use, by name (``tournaments.templatetags.dates``): a weekday with
its date as each language writes it ("viernes 13 de noviembre", "divendres 13 de
novembre", "Friday 13 November"), and short ones with the month in small letters in
Spanish and Catalan ("vie 13 nov", "dv. 13 nov."). Each name is in every language's module.
"""
