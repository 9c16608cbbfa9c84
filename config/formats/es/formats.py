"""Spanish: days and months in small letters, "de" before the month and the year."""

# A weekday with its date: "viernes 13 de noviembre".
WEEKDAY_DATE_FORMAT = r"l j \d\e F"
# ... with its year: "viernes 13 de noviembre de 2026".
WEEKDAY_DATE_YEAR_FORMAT = r"l j \d\e F \d\e Y"
# ... and its time: "viernes 13 de noviembre, 21:30".
WEEKDAY_DATETIME_FORMAT = r"l j \d\e F, H:i"
# Short, for lists: "vie 13 nov" (the month's abbreviation in small letters: "b").
SHORT_WEEKDAY_DATE_FORMAT = r"D j b"
SHORT_WEEKDAY_DATETIME_FORMAT = r"D j b H:i"
# A moment in a log: "13 nov 2026 21:30".
SHORT_DATE_TIME_FORMAT = r"j b Y H:i"
# A printed fixture list's column: "vie 13/11".
NUMERIC_WEEKDAY_DATE_FORMAT = r"D j/n"
