"""Catalan: days and months in small letters, "de" (or "d'") before the month (the
project's "alt. month" names carry it: ``config/months.py``) and "de" before the year."""

# A weekday with its date: "divendres 13 de novembre", "dilluns 2 d'octubre".
WEEKDAY_DATE_FORMAT = r"l j E"
WEEKDAY_DATE_YEAR_FORMAT = r"l j E \d\e Y"
WEEKDAY_DATETIME_FORMAT = r"l j E, H:i"
# Short, for lists: "dv. 13 nov." (the month's abbreviation in small letters: "b").
SHORT_WEEKDAY_DATE_FORMAT = r"D j b"
SHORT_WEEKDAY_DATETIME_FORMAT = r"D j b H:i"
SHORT_DATE_TIME_FORMAT = r"j b Y H:i"
NUMERIC_WEEKDAY_DATE_FORMAT = r"D j/n"
