"""The archive import against hostile files (docs/archive.md, "Limits"): every one is
refused with the JSON path of its problem and a short sentence in the organiser's
language, nothing written (the row count of every table the same). Through ``manage.py
import_archive`` (the API does not import archives); run on PostgreSQL too
(``DATABASE_URL``), where a number out of range or a key given twice is a database error
and not a quiet success."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from tests.tournaments.archive_hostile.conftest import LONE, MAX_MESSAGE, counts
from tournaments.io.archive_limits import MAX_BYTES, MAX_ITEMS


def _match(archive: dict, outcome: str = "played") -> dict:
    return next(m for m in archive["matches"] if m["outcome"] == outcome)


def _index(archive: dict, outcome: str = "played") -> int:
    return archive["matches"].index(_match(archive, outcome))


def spoilt(change: Callable[[dict], Any]) -> Callable[[dict], bytes]:
    """A file: the archive changed by ``change``, written as JSON."""

    def make(archive: dict) -> bytes:
        copied = copy.deepcopy(archive)
        change(copied)
        return json.dumps(copied).encode("utf-8", "surrogatepass")

    return make


def text(change: Callable[[str], str]) -> Callable[[dict], bytes]:
    """A file: the archive's JSON text changed by ``change`` (what ``json.dumps`` cannot
    write: a key twice, NaN, digits without end)."""
    return lambda archive: change(json.dumps(archive)).encode("utf-8", "surrogatepass")


def _revision(archive: dict, action: str) -> dict:
    return next(r for m in archive["matches"] for r in m["revisions"] if r["action"] == action)


def _nested(depth: int) -> Any:
    value: Any = 1
    for _level in range(depth):
        value = {"x": value}
    return value


# name -> (the file, the JSON path of the problem, words of the sentence)
HOSTILE: dict[str, tuple[Callable[[dict], bytes], str, str]] = {
    "lone-surrogate-in-a-person": (
        spoilt(lambda a: a["people"][0].update(name=f"Ana {LONE}")),
        "$.people[0].name",
        "lone surrogate",
    ),
    "lone-surrogate-in-a-team": (
        spoilt(lambda a: a["teams"][1].update(name=f"Los {LONE}")),
        "$.teams[1].name",
        "lone surrogate",
    ),
    "lone-surrogate-in-a-walkover-reason": (
        spoilt(lambda a: _match(a, "walkover").update(reason=f"No vino {LONE}")),
        "$.matches[1].reason",
        "lone surrogate",
    ),
    "lone-surrogate-in-a-revision-reason": (
        spoilt(lambda a: _revision(a, "corrected").update(reason=LONE)),
        "$.matches[0].revisions[5].reason",
        "lone surrogate",
    ),
    "lone-surrogate-in-a-comment": (
        spoilt(lambda a: _match(a)["confirmations"][1].update(comment=LONE)),
        "$.matches[0].confirmations[1].comment",
        "lone surrogate",
    ),
    "lone-surrogate-in-a-stage-name": (
        spoilt(lambda a: a["stages"][0].update(name=LONE)),
        "$.stages[0].name",
        "lone surrogate",
    ),
    "lone-surrogate-in-a-key": (
        spoilt(lambda a: a["stages"][0]["settings"].update({LONE: 1})),
        "$.stages[0].settings",
        "lone surrogate",
    ),
    "nul-in-a-person": (
        spoilt(lambda a: a["people"][0].update(name="Ana\x00")),
        "$.people[0].name",
        "control character",
    ),
    "line-break-in-a-club": (
        spoilt(lambda a: a["teams"][0].update(club="Club\nNorte")),
        "$.teams[0].club",
        "control character",
    ),
    "escape-in-a-venue": (
        spoilt(lambda a: a["championship"].update(venue="\x1b[31mRojo")),
        "$.championship.venue",
        "control character",
    ),
    "nul-in-a-reason": (
        spoilt(lambda a: _revision(a, "corrected").update(reason="a\x00b")),
        "$.matches[0].revisions[5].reason",
        "control character",
    ),
    # The rule of every text typed in (tournaments.text): a name read backwards, a line
    # separator, an escape in free text are refused as a NUL is.
    "bidi-override-in-a-person": (
        spoilt(lambda a: a["people"][0].update(name="Ana \u202eziuR")),
        "$.people[0].name",
        "control character",
    ),
    "line-separator-in-a-team": (
        spoilt(lambda a: a["teams"][0].update(name="Los\u2028Anchos")),
        "$.teams[0].name",
        "control character",
    ),
    "escape-in-a-comment": (
        spoilt(lambda a: _match(a)["confirmations"][1].update(comment="Mal\x1b[2J")),
        "$.matches[0].confirmations[1].comment",
        "control character",
    ),
    "entry-position-2**63": (
        spoilt(lambda a: a["teams"][0]["entry"].update(position=2**63 + 1)),
        "$.teams[0].entry.position",
        "from -2147483647 to 2147483647",
    ),
    "entry-position-2**31": (
        spoilt(lambda a: a["teams"][0]["entry"].update(position=2**31)),
        "$.teams[0].entry.position",
        "from -2147483647 to 2147483647",
    ),
    "entry-position-twice": (
        spoilt(
            lambda a: a["teams"][1]["entry"].update(position=a["teams"][0]["entry"]["position"])
        ),
        "$.teams[1].entry.position",
        "given twice",
    ),
    "entry-position-negative": (
        spoilt(lambda a: a["teams"][0]["entry"].update(position=-1)),
        "$.teams[0].entry.position",
        "at least 1",
    ),
    "revision-number-2**63": (
        spoilt(lambda a: _revision(a, "corrected").update(number=2**63)),
        "$.matches[0].revisions[5].number",
        "from -2147483647 to 2147483647",
    ),
    "revision-number-2**31": (
        spoilt(lambda a: _revision(a, "corrected").update(number=2**31)),
        "$.matches[0].revisions[5].number",
        "from -2147483647 to 2147483647",
    ),
    "walkover-chico-number-40000": (
        spoilt(lambda a: _match(a, "walkover")["games"][0].update(number=40_000)),
        "$.matches[1].games[0].number",
        "numbered 1, 2, 3",
    ),
    "tantos-2**40": (
        spoilt(lambda a: _match(a, "walkover")["tantos"].update(A=2**40)),
        "$.matches[1].tantos.A",
        "from -2147483647 to 2147483647",
    ),
    "a-number-of-5000-digits": (
        text(lambda t: t.replace('"position": 1', '"position": ' + "9" * 5000, 1)),
        "$.teams[0].entry.position",
        "from -2147483647 to 2147483647",
    ),
    "a-number-1e400": (
        text(lambda t: t.replace('"position": 1', '"position": 1e400', 1)),
        "$.teams[0].entry.position",
        "finite",
    ),
    "nan": (
        text(lambda t: t.replace('"position": 1', '"position": NaN', 1)),
        "$.teams[0].entry.position",
        "finite",
    ),
    "minus-infinity": (
        text(lambda t: t.replace('"seed": 1', '"seed": -Infinity', 1)),
        "$.teams[0].seed",
        "finite",
    ),
    "a-key-twice": (
        text(lambda t: t.replace('"venue": ', '"venue": "Uno", "venue": ', 1)),
        "$.championship",
        "given twice",
    ),
    "nested-100000-levels": (
        lambda a: b"[" * 100_000 + b"]" * 100_000,
        "$",
        "nested more than 32 levels",
    ),
    "nested-40-levels-in-settings": (
        spoilt(lambda a: a["stages"][0]["settings"].update(x=_nested(40))),
        "$.stages[0].settings.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x",
        "nested more than 32 levels",
    ),
    "a-list-of-20001-items": (
        spoilt(lambda a: a["stages"][0]["rounds"][0].update(absent=[1] * (MAX_ITEMS + 1))),
        "$.stages[0].rounds[0].absent",
        "more than 20000 items",
    ),
    "10001-people": (
        spoilt(
            lambda a: a["people"].extend(
                {"id": 100 + n, "name": f"Persona {n}"} for n in range(10_001)
            )
        ),
        "$.people",
        "more than 10000 items",
    ),
    "501-hands": (
        spoilt(
            lambda a: _match(a)["hands"].extend(
                {**_match(a)["hands"][0], "number": n} for n in range(7, 502)
            )
        ),
        "$.matches[0].hands",
        "more than 500 items",
    ),
    "a-person-nobody-plays-as": (
        spoilt(lambda a: a["people"].append({"id": 999, "name": "Nadie"})),
        "$.people[9]",
        "nobody",
    ),
    "a-player-nobody-names": (
        spoilt(lambda a: a["players"].append({"key": "p99", "name": "Nadie", "person": 1})),
        "$.players[9]",
        "no line-up",
    ),
    "a-venue-of-5-mb": (
        spoilt(lambda a: a["championship"].update(venue="v" * 5_000_000)),
        "$.championship.venue",
        "too long (1000 characters at most)",
    ),
    "a-venue-of-201-characters": (
        spoilt(lambda a: a["championship"].update(venue="v" * 201)),
        "$.championship.venue",
        "too long (200 characters at most)",
    ),
    "a-key-of-41-characters": (
        spoilt(lambda a: a["stages"][0]["settings"].update({"k" * 41: 1})),
        "$.stages[0].settings",
        "too long (40 characters at most)",
    ),
    "an-unknown-field": (
        spoilt(lambda a: a["people"][0].update(email="ana@example.org")),
        "$.people[0]",
        "“email” is not a field",
    ),
    "a-date-in-year-1": (
        spoilt(lambda a: a["championship"].update(start_date="0001-01-01")),
        "$.championship.start_date",
        "year is from 1900 to 2199",
    ),
    "a-time-in-year-9999": (
        spoilt(lambda a: _match(a).update(finished_at="9999-12-31T23:59:59-05:00")),
        "$.matches[0].finished_at",
        "year is from 1900 to 2199",
    ),
    "a-time-in-year-1-ahead-of-utc": (
        spoilt(lambda a: _match(a)["hands"][0].update(recorded_at="0001-01-01T00:00:00+05:00")),
        "$.matches[0].hands[0].recorded_at",
        "year is from 1900 to 2199",
    ),
    "a-time-without-offset": (
        spoilt(lambda a: _revision(a, "walkover").update(at="2026-11-27T10:00:00")),
        "$.matches[1].revisions[0].at",
        "not a time with its offset",
    ),
    "february-30": (
        spoilt(lambda a: a["championship"].update(end_date="2026-02-30")),
        "$.championship.end_date",
        "not a date",
    ),
    "an-absent-team-unknown": (
        spoilt(lambda a: a["stages"][0]["rounds"][0].update(absent=[99])),
        "$.stages[0].rounds[0].absent[0]",
        "not one of the archive's teams",
    ),
    "a-settings-team-unknown": (
        spoilt(lambda a: a["stages"][0]["settings"].update(teams=[1, 2, 3, 99])),
        "$.stages[0].settings.teams[3]",
        "not one of the archive's teams",
    ),
    "a-setting-of-another-format": (
        spoilt(lambda a: a["stages"][0]["settings"].update(bracket=[1, 2])),
        "$.stages[0].settings.bracket",
        "not a valid value",
    ),
    "a-billion-cycles": (
        spoilt(lambda a: a["stages"][0]["settings"].update(cycles=10**9)),
        "$.stages[0].settings.cycles",
        "not a valid value",
    ),
    "a-substitution-in-an-unknown-stage": (
        spoilt(lambda a: a["substitutions"][0].update(stage=7)),
        "$.substitutions[0].stage",
        "not one of the archive's stages",
    ),
    "an-unknown-captain": (
        spoilt(lambda a: _match(a)["lineup"].update(captains={"A": "p77"})),
        "$.matches[0].lineup.captains.A",
        "not one of the archive's players",
    ),
    "a-negative-team": (
        spoilt(lambda a: _match(a).update(team_b=-5)),
        "$.matches[0].team_b",
        "not one of the archive's teams",
    ),
    "a-negative-round": (
        spoilt(lambda a: _match(a).update(round=-3)),
        "$.matches[0].round",
        "not one of the archive's rounds",
    ),
    "a-bracket-slot-twice": (
        spoilt(lambda a: [m.update(bracket_id="W1-1") for m in a["matches"]]),
        "$.matches[1].bracket_id",
        "given twice",
    ),
    "a-round-label-twice": (
        spoilt(
            lambda a: a["stages"][0]["rounds"].extend(
                [
                    {**a["stages"][0]["rounds"][0], "number": 8, "label": "X"},
                    {**a["stages"][0]["rounds"][0], "number": 9, "label": "X"},
                ]
            )
        ),
        "$.stages[0].rounds[2].label",
        "given twice",
    ),
    "a-member-twice": (
        spoilt(
            lambda a: a["teams"][0]["players"].append(
                {"player": a["teams"][0]["players"][0]["player"]}
            )
        ),
        "$.teams[0].players[2].player",
        "given twice",
    ),
    "a-change-showing-points-as-text": (
        spoilt(lambda a: _revision(a, "corrected")["before"].update(points="1-0")),
        "$.matches[0].revisions[5].before.points",
        "not a valid value",
    ),
    "a-change-of-unknown-shape": (
        spoilt(lambda a: _revision(a, "walkover").update(after={"hacked": True})),
        "$.matches[1].revisions[0].after.hacked",
        "not a valid value",
    ),
    "too-many-chicos": (
        spoilt(
            lambda a: _match(a, "walkover")["games"].extend(
                {"number": n, "score": {"A": 0, "B": 0}, "winner": None} for n in range(3, 6)
            )
        ),
        "$.matches[1].games",
        "at most 3 chicos",
    ),
    "not-utf-8": (lambda a: b'{"format": "tanteo-archive", "x": "\xff\xfe"}', "$", "not UTF-8"),
    "not-json": (lambda a: b'{"format": tanteo', "$", "not JSON (line 1, column 12)"),
    "a-list-at-the-top": (lambda a: b"[]", "$", "must be an object"),
    "larger-than-the-limit": (
        lambda a: json.dumps(a).encode() + b" " * MAX_BYTES,
        "$",
        "larger than 20 MB",
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_file_is_refused_with_its_path_and_a_sentence(archive, name, tmp_path):
    make, path, words = HOSTILE[name]
    file = tmp_path / "hostile.json"
    file.write_bytes(make(archive))
    before = counts()
    with pytest.raises(CommandError) as refused:
        call_command("import_archive", str(file))
    message = str(refused.value)
    assert message.startswith(f"Archive refused: {path}: "), message
    assert words in message, message
    assert len(message) <= MAX_MESSAGE
    assert counts() == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    "language, words",
    [
        ("es", "carácter roto"),
        ("ca", "caràcter trencat"),
        ("en", "broken character"),
    ],
)
def test_the_refusal_speaks_the_organisers_language(archive, tmp_path, language, words):
    file = tmp_path / "hostile.json"
    file.write_bytes(HOSTILE["lone-surrogate-in-a-person"][0](archive))
    with translation.override(language), pytest.raises(CommandError) as refused:
        call_command("import_archive", str(file))
    assert words in str(refused.value) and "$.people[0].name" in str(refused.value)
