"""What the sheet gives its script (``#tablet-context``, docs/api.md "The tablet page"):
the labels of every button and the match's head, so the tablet draws what the server
draws when the network is gone.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _

from referees import selectors, tablet
from referees.entry import ANSWER_NAMES, CALL_NAMES, SUIT_NAMES, Entry
from referees.scorers import Scorer
from referees.views.device import _device
from tournaments.models import Match
from tournaments.results import selectors as result_selectors
from tournaments.web.shared.answer import AnswerForm


def _labels() -> dict[str, Any]:
    """The translated words the tablet's script renders its buttons with."""
    return {
        "calls": {key: str(value) for key, value in CALL_NAMES.items()},
        "answers": {key: str(value) for key, value in ANSWER_NAMES.items()},
        "suits": {key: str(value) for key, value in SUIT_NAMES.items()},
        "trick_to": _("Trick to %(players)s"),
        "parda": _("Parda (tied trick)"),
        "mazo": _("%(player)s goes to the mazo"),
        "team_mazo": _("%(team)s go to the mazo"),
        "save": _("Save hand"),
        "undo": _("Undo the last event"),
        "reset": _("Start the hand again"),
        "reset_confirm": _("Yes, start the hand again"),
        "reset_question": _("Start hand %(number)s again? What was entered is wiped."),
        "reset_undo": _("Undo the restart"),
        "keep": _("No, keep the hand"),
        "mano": _("mano"),
        "to_play": _("%(player)s plays"),
        "sync": {
            "saved": _("Saved on the server"),
            "pending": _("Not yet on the server"),
            "offline": _("Offline: kept on this tablet"),
        },
    }


def _tablet_context(
    request: HttpRequest,
    scorer: Scorer,
    sheet: selectors.Sheet,
    entry: Entry | None,
    draft: result_selectors.DraftView,
) -> dict[str, Any]:
    """What the tablet's script needs (docs/api.md, "The tablet page"), as JSON data: the
    offline-first client's context (``referees.tablet``) with this device, the draft as the
    server keeps it and the hand so far as the page shows it."""
    match = sheet.match
    shown = draft.to_dict()
    if entry is not None:
        shown["record"] = entry.to_draft()
    context = tablet.tablet_context(sheet, shown, plays=match.entry == Match.Entry.CARDS)
    sheet_url = scorer.url("sheet", match)
    context["urls"].update(page=sheet_url, sheet=sheet_url, matches=scorer.back[0])
    context.update(
        # How the script speaks to the API as this scorer: a team through its link's
        # token in a header (api.teamlink); a referee through his session ("").
        auth=scorer.api_auth,
        entry=match.entry,
        # The page and its script speak to the server as one device.
        device=_device(request),
        next_hand=sheet.info,
        pairs=entry.default_pairs() if entry is not None and entry.choosing_pairs else None,
        players={key: name for key, name in sheet.names.items() if key not in ("A", "B")},
        sides={
            "A": list(sheet.record.get("teams", {}).get("A", [])),
            "B": list(sheet.record.get("teams", {}).get("B", [])),
            # A table of three with the gallo por turno: a player a side.
            **(
                {"C": list(sheet.record["teams"]["C"])}
                if "C" in sheet.record.get("teams", {})
                else {}
            ),
        },
        # The script's own words win where both name one.
        labels={**_labels(), **context["labels"], **scorer.words()},
    )
    return context


def _confirm_context(match: Any, user: Any, forms: dict[str, Any]) -> dict[str, Any] | None:
    """The sides' answers to a finished result, and a form for each side still to answer:
    the referee hands the tablet to the side, whose player confirms or disputes."""
    if match.is_bye or match.status != Match.Status.FINISHED:
        return None
    answers = result_selectors.match_confirmations(match=match)
    sides = []
    teams = [("A", match.team_a), ("B", match.team_b)]
    if match.team_c_id is not None:
        teams.append(("C", match.team_c))  # every player of a table of three answers
    for side, team in teams:
        answer = answers.get(side)
        form = None
        if answer is None:
            form = forms.get(f"answer{side}") or AnswerForm(match=match, side=side)
        sides.append({"side": side, "team": team, "answer": answer, "form": form})
    return {"sides": sides, "confirmed": match.confirmed_at is not None}
