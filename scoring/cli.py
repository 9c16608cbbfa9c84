"""The command line, exactly as docs/hand-record.md says (run from the project root)::

    python -m scoring hand FILE|-        score one hand record
    python -m scoring match FILE|-       score a match record (scoring.match)
    python -m scoring result FILE|-      check and score a match recorded as its result
    python -m scoring archive-check FILE|-   score a championship's archive again
    python -m scoring envido 7E 6E 1O    -> 33
    python -m scoring flor 5E 6E 7E      -> 38
    python -m scoring --help             usage, exit 0

Any bad input exits 2 and prints only ``{"error": {"code", "message", "event"}}`` on
stdout (the match command adds ``"hand"``, result ``"game"``, archive-check ``"path"``);
never a traceback.
archive-check exits 0 when the archive's results are the engine's, 1 when some differ.

>>> main(["envido", "7E", "6E", "1O"], out=_Capture())
33
0
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Sequence
from typing import IO, Any

from scoring.cards import SPANISH_40, envido_points, flor_points, parse_card
from scoring.errors import EngineError, error

__all__ = ["main"]

USAGE = (
    "python -m scoring hand|match|result|archive-check FILE|-"
    "  or  python -m scoring envido|flor CARD CARD CARD"
)
HELP = """usage: python -m scoring COMMAND ...

Score truco hands and matches (docs/hand-record.md; rules in docs/rules.md).

commands:
  hand FILE|-          score one hand record; prints the result object
  match FILE|-         score a match record; prints hands, games and the winner
  result FILE|-        check a match recorded as its result (each chico's final
                       score) against its rules; prints the winner, chicos, tantos,
                       games, places and the match's state
  archive-check FILE|- score every hand and match of a championship's archive
                       (docs/archive.md) again; prints the disagreements, exit 1 if any
  envido CARD...       the envido value of one to three cards, e.g. envido 7E 6E 1O -> 33
  flor CARD CARD CARD  the value of a flor, e.g. flor 5E 6E 7E -> 38
  --help, -h           this text

Exit 0 with the JSON result on stdout; exit 2 with only {"error": {"code", "message",
"event"}} on stdout for any bad input (match adds "hand", result "game",
archive-check "path").
Error codes: docs/scoring.md.
"""


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: IO[bytes] | None = None,
    out: IO[str] | None = None,
) -> int:
    """Run one command; returns the exit code (0 ok, 1 an archive that disagrees with the
    engine, 2 bad input)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    out = out or _stdout()
    if argv[:1] in (["--help"], ["-h"], ["help"]):
        out.write(HELP)
        return 0
    try:
        value = _run(argv, stdin)
    except EngineError as exc:
        failure: EngineError = exc
    except RecursionError:
        failure = error("bad_json", detail="it is nested too deeply")
    except Exception as exc:  # the contract: an error object on stdout, never a traceback
        failure = EngineError("internal_error", f"Unexpected input: {exc}.")
    else:
        if isinstance(value, int):
            out.write(f"{value}\n")
            return 0
        _emit(out, value)
        if argv[:1] == ["archive-check"] and not value["agree"]:
            return 1
        return 0
    payload: dict[str, Any] = failure.to_dict()
    if argv[:1] == ["match"]:
        # The match command always says which hand is at fault (null: the whole record).
        payload["hand"] = getattr(failure, "hand", None)
    if argv[:1] == ["result"]:
        # The 0-based index of the chico at fault in "games" (null: the report as a whole).
        payload["game"] = failure.params.get("index")
    if argv[:1] == ["archive-check"]:
        # Where in the archive (a JSON path), null when the file is not JSON at all.
        payload["path"] = failure.params.get("path") if isinstance(failure, EngineError) else None
    _emit(out, {"error": payload})
    return 2


def _run(argv: list[str], stdin: IO[bytes] | None) -> Any:
    if not argv:
        raise error("bad_arguments", detail=f"usage: {USAGE}")
    command, args = argv[0], argv[1:]
    if command in ("envido", "flor"):
        cards = [parse_card(a, SPANISH_40) for a in args]
        if len(set(cards)) != len(cards):
            raise error("bad_arguments", detail="a card is given twice")
        if command == "flor":
            if len(cards) != 3:
                raise error("bad_arguments", detail="a flor is three cards")
            return flor_points(cards)
        if not 1 <= len(cards) <= 3:
            raise error("bad_arguments", detail="give one to three cards")
        return envido_points(cards)
    if command not in ("hand", "match", "result", "archive-check"):
        raise error("unknown_command", command=command)
    if len(args) != 1:
        raise error("bad_arguments", detail=f"{command} takes one FILE or - for stdin")
    record = _load(args[0], stdin)
    if command == "archive-check":
        from scoring.archive import check_archive

        return check_archive(record)
    if command == "hand":
        from scoring.record import score_hand

        return score_hand(record)
    if command == "result":
        from scoring.reported import score_reported_result

        return score_reported_result(record).to_dict()
    from scoring.match import score_match

    return score_match(record)


def _load(path: str, stdin: IO[bytes] | None) -> Any:
    if path == "-":
        data = (stdin or sys.stdin.buffer).read()
    else:
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError as exc:
            raise error("bad_arguments", detail=f"cannot read {path}: {exc.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise error("bad_encoding") from None
    try:
        return json.loads(text)
    except ValueError as exc:
        raise error("bad_json", detail=str(exc)) from None


class _Utf8Stdout:
    """Text to the real stdout as UTF-8 whatever the locale (player names are not always
    ASCII); unlike a TextIOWrapper it never closes stdout when it goes away."""

    def write(self, text: str) -> int:
        buffer = getattr(sys.stdout, "buffer", None)
        if buffer is None:
            return sys.stdout.write(text)
        buffer.write(text.encode("utf-8"))
        buffer.flush()
        return len(text)


def _stdout() -> IO[str]:
    return _Utf8Stdout()  # type: ignore[return-value]


def _emit(out: IO[str], value: Any) -> None:
    text = json.dumps(value, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # A command-line argument that was not UTF-8 (Python keeps its bytes as lone
        # surrogates) echoed in a message: escape it rather than fail on output.
        text = json.dumps(value)
    out.write(text + "\n")


class _Capture(io.StringIO):
    """Echo what a command prints (for the doctests)."""

    def write(self, text: str) -> int:
        sys.stdout.write(text)
        return len(text)
