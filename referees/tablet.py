"""The offline-first tablet: the engine's files for the browser and the page's context.

The tablet page runs the rules engine itself (``static/js/tablet-client.js`` starts
``templates/referees/worker.js``, a Web Worker that loads Pyodide and this project's
``scoring`` package, and talks to :mod:`scoring.session`). The engine the browser gets is
a zip built here, in memory, from the very files the server imports, named by the hash
of its content: a new engine is a new URL, so the browser can never run an engine out of
step with the server's (and the server checks again whatever the tablet sends).

:func:`tablet_context` is what the page hands its script (``#tablet-context``,
docs/architecture.md); the service worker (``templates/referees/sw.js``) keeps the pages,
the engine and Pyodide so a reload with the network gone still works.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

import scoring
from referees.entry import ANSWER_NAMES, CALL_NAMES, SUIT_NAMES
from referees.selectors import phase_label
from scoring import Phase
from tournaments.errors import ENGINE_MESSAGES
from tournaments.results import records
from tournaments.results.story import CARD_NAMES, HAND_STATUS, hand_status

# Pyodide's files the worker loads (node_modules/pyodide, served under static/pyodide/).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)


@lru_cache(maxsize=1)
def engine_zip() -> tuple[str, bytes]:
    """The ``scoring`` package as a zip (``scoring/*.py``) and its content hash.

    Built from the files this process imports, with fixed timestamps so the same sources
    give the same bytes (and the same URL) on every server.
    """
    folder = Path(scoring.__file__).parent
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.glob("*.py")):
            info = zipfile.ZipInfo(f"scoring/{path.name}", date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    data = buffer.getvalue()
    return hashlib.sha256(data).hexdigest()[:16], data


def engine_url() -> str:
    return reverse("referees:engine", args=[engine_zip()[0]])


def pyodide_base() -> str:
    """Where Pyodide's files are served from (their plain names: Pyodide asks for them)."""
    return f"{settings.STATIC_URL.rstrip('/')}/pyodide/"


def pyodide_version() -> str:
    """The installed Pyodide's version, or "" when ``npm ci`` has not been run."""
    folder = Path(settings.BASE_DIR) / "node_modules" / "pyodide"
    try:
        return str(json.loads((folder / "package.json").read_text())["version"])
    except (OSError, ValueError, KeyError):
        return ""


def cached_urls() -> list[str]:
    """What the service worker keeps on install: the tablet's static files, Pyodide and
    the engine (the pages themselves are kept as they are opened)."""
    urls = [
        static("css/tanteo.css"),
        static("css/pages.css"),
        static("css/referee.css"),
        static("js/tablet.js"),
        static("js/tablet-client.js"),
        static("tablet/icon.svg"),
        reverse("referees:worker"),
        reverse("referees:manifest"),
        engine_url(),
    ]
    if pyodide_version():
        urls += [pyodide_base() + name for name in PYODIDE_FILES]
    return urls


def cache_name() -> str:
    """The service worker's cache, renamed whenever anything it keeps changes."""
    digest = hashlib.sha256("\n".join([pyodide_version(), *cached_urls()]).encode()).hexdigest()
    return f"tanteo-tablet-{digest[:12]}"


def labels() -> dict[str, Any]:
    """The words the tablet's script draws the entry with, in the referee's language.

    Templates use Python's ``%(name)s`` placeholders, as the server-rendered page does.
    """
    return {
        "hand": _("Hand %(number)s"),
        "mano": _("Mano: %(name)s"),
        "pica_pica": _("pica-pica"),
        "so_far": _("This hand so far"),
        "nothing_yet": _("Nothing recorded yet."),
        "points": _("Points: %(team_a)s %(a)s – %(b)s %(team_b)s"),
        "points_label": _("Points:"),
        "pair": _("Pair %(number)s: %(players)s"),
        "pair_of": _("Pair %(number)s of %(total)s"),
        "decided": _("The hand is decided. Check the summary, then save it."),
        "save": _("Save hand"),
        "pair_decided": _("This pair's sub-hand is decided."),
        "next_pair": _("Next pair"),
        "mestre": _("Rule of 11: the mestre's cap de colla decides"),
        "answer_call": _("Answer the call"),
        "who_envido": _("Who won the envido?"),
        "who_flor": _("Who won the flor?"),
        "tricks": _("Tricks"),
        "cards": _("Cards"),
        "calls": _("Calls and mazo"),
        "undo": _("Undo the last event"),
        # As the server-rendered page words them (templates/referees/sheet.html).
        "reset": _("Start the hand again"),
        "reset_question": _(
            "Start hand %(number)s again? What was entered is wiped (you can undo it right after)."
        ),
        "reset_confirm": _("Yes, start the hand again"),
        "keep": _("No, keep the hand"),
        "reset_done": _("The hand was started again."),
        "reset_undo": _("Undo the restart"),
        "mano_mark": _("mano"),
        "gallo_mark": _("gallo"),
        "at_the_mazo": _("at the mazo"),
        "team_mazo": _("%(team)s go to the mazo"),
        "to_play": _("%(player)s plays"),
        "suits": {key: str(value) for key, value in SUIT_NAMES.items()},
        "card_names": {key: str(value) for key, value in CARD_NAMES.items()},
        "cards_dealt": _("Cards dealt (optional)"),
        "cards_help": _(
            "Each player's three cards, like 1E 7O 4C (E swords, B clubs, O coins, C cups). "
            "With every player's cards the envido and the flor count by themselves; a player "
            "left empty may play any card not yet seen."
        ),
        "keep_cards": _("Keep these cards"),
        "choose_pairs": _(
            "Pica-pica: choose who faces whom. Each pair's mano first; the pairs are "
            "recorded in this order."
        ),
        "start_pairs": _("Start the pairs"),
        "pair_mano": _("Pair %(number)s: mano"),
        "pair_rival": _("Pair %(number)s: opponent"),
        "and": _("and"),
        "call": _("%(player)s calls %(call)s"),
        "answer": _("%(player)s: %(answer)s"),
        "trick": _("Trick to %(players)s"),
        "parda": _("Parda (tied trick)"),
        "mazo": _("%(player)s goes to the mazo"),
        "to_the_mazo": pgettext("a button after a player's name", "mazo"),
        "envido_winner": _("Envido to %(players)s"),
        "flor_winner": _("Flor to %(players)s"),
        "envido_points": _("Envido declared: %(values)s"),
        "flor_points": _("Flor declared: %(values)s"),
        "mestre_play": _("%(player)s: the mestre plays"),
        "mestre_pass": _("%(player)s: the mestre passes"),
        "penalty": _("Penalty of %(points)s to %(team)s: %(reason)s"),
        "void": _("Hand void: %(reason)s"),
        "play": _("%(player)s plays %(card)s"),
        "call_names": {key: str(value) for key, value in CALL_NAMES.items()},
        "answer_names": {key: str(value) for key, value in ANSWER_NAMES.items()},
        "saved_hand": _("Hand %(number)s saved: %(team_a)s %(a)s – %(b)s %(team_b)s."),
        "saved_hand_three": _(
            "Hand %(number)s saved: %(team_a)s %(a)s, %(team_b)s %(b)s, %(team_c)s %(c)s."
        ),
        "sync_saved": _("Everything saved"),
        "sync_pending_one": _("1 step waiting"),
        "sync_pending": _("%(count)s steps waiting"),
        "sync_offline_one": _("Offline: 1 step waiting"),
        "sync_offline": _("Offline: %(count)s steps waiting"),
        "sync_offline_none": _("Offline: everything saved"),
        "waiting": _("Waiting to be sent"),
        "points_column": _("Points"),
        "score_column": _("Score"),
        "status_column": _("Status"),
        "refused": _("The server refused this hand: %(message)s"),
        "engine_refused": _("The rules do not allow this step; nothing was recorded."),
        # The engine's reasons, as the server's sheet gives them (tournaments.errors).
        "engine_messages": {code: str(text) for code, text in ENGINE_MESSAGES.items()},
        "other_device": _("Another device holds this match's hand in progress."),
        # The words of the page without script: one take-over, however the page was drawn.
        "take_over": _("Take over on this device"),
        "take_over_note": _(
            "Taking over moves the hand in progress to this device; the other device can no "
            "longer save it."
        ),
        "taken_over": _("This device now enters the match: go on from here."),
        "discard": _("Discard what this tablet kept and reload"),
        "discard_confirm": _(
            "Discard the steps and hands this tablet has not sent? They will be lost."
        ),
        "match_over": _("This match is over: no more hands to record."),
        "penalty_or_void": _("Penalty or void hand"),
        "penalty_title": _("Penalty"),
        "penalty_side": _("To"),
        "penalty_points": _("Points"),
        "reason": _("Reason"),
        "award": _("Award the penalty"),
        "void_title": _("Void hand"),
        "void_hand": _("Void the hand"),
        "settle_points_envido": _("Or write the envido points each player declared:"),
        "settle_points_flor": _("Or write the flor points each player declared:"),
        "settle_by_points": _("Settle by points"),
    }


def tablet_context(sheet: Any, draft: dict[str, Any], *, plays: bool = False) -> dict[str, Any]:
    """What the tablet's script needs, as ``#tablet-context`` carries it (JSON).

    ``sheet`` is :class:`referees.selectors.Sheet`; ``draft`` the hand so far
    (``{"record": HandEntry.to_draft(), "revision": n}``).
    """
    match = sheet.match
    state = records.stored_state(match, len(sheet.hands))
    if state is None:
        # A match stored before engine states: replayed once, as the sheet itself does.
        state = records.score(match, [hand.record for hand in sheet.hands]).state
    return {
        "match": match.pk,
        "number": sheet.number,
        "next": sheet.info,
        "head": sheet.record,
        "state": state.to_dict(),
        "plays": plays,
        "draft": draft,
        "names": dict(sheet.names),
        "teams": records.side_names(match),
        "columns": _columns(match),
        "hands": len(sheet.hands),
        "urls": {
            "page": reverse("referees:sheet", args=[match.pk]),
            "draft": f"/api/v1/matches/{match.pk}/draft/",
            "hands": f"/api/v1/matches/{match.pk}/hands/",
            "worker": reverse("referees:worker"),
            "engine": engine_url(),
            "sw": reverse("referees:service_worker"),
            "scope": reverse("referees:matches"),
            "pyodide": pyodide_base() if pyodide_version() else "",
        },
        "labels": {
            **labels(),
            "hand_status": {
                status: hand_status(status, sheet.match.stage.championship)
                for status in HAND_STATUS
            },
        },
        "phase_labels": phase_labels(sheet.rules),
    }


def phase_labels(rules: Any) -> dict[str, list[str]]:
    """Every phase a side can be in under ``rules``, in words, by count (plurals are the
    language's own): ``{"malas": ["0 malas", "1 mala", ...], ...}``; the mestre's one."""
    found: dict[str, list[str]] = {}
    if rules.has_halves:
        for name in ("malas", "buenas"):
            found[name] = [phase_label(Phase(name, n)) for n in range(rules.target + 1)]
    if rules.has_mestre:
        found["mestre"] = [phase_label(Phase("mestre", 0))]
    return found


def _columns(match: Any) -> list[dict[str, str]]:
    """The hands table's columns, as the server's sheet draws them: each stored side with
    its team's name and the engine's side whose figures it shows (a fijo pair's two
    players both show the engine's ``"B"``)."""
    teams = {"A": match.team_a, "B": match.team_b, "C": match.team_c}
    sides = records.column_sides(match)
    return [
        {"column": c.upper(), "side": sides[c], "name": getattr(teams[c.upper()], "name", "")}
        for c in sides
    ]
