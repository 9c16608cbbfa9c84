"""A match's result as the players say it: the final score of each chico (catalan: each
joc; a table of three: its three scores), typed by a team on its phone, by the organiser
on the match's page or at the desk. The form only shapes what is typed: whether the
result is possible is the engine's answer (``results.services.result_check``), shown
beside the form.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournaments.championships.words import words
from tournaments.models import Match
from tournaments.results import records
from tournaments.results.services import result_sides

# Points of a side in one chico: the engine refuses anything past the target; this only
# keeps what is typed a small whole number.
MAX_POINTS = 99


def chico_slots(match: Match) -> int:
    """How many chicos a result of ``match`` may have: its best of, and one more at a table
    of three (A, B and C win one each before a second decides it)."""
    return match.best_of + (1 if len(result_sides(match)) == 3 and match.best_of > 1 else 0)


class ResultForm(forms.Form):
    """Each chico's score by side (``c1_A``, ``c1_B``...), the chico's winner where two
    sides of a table of three reach the target together (``c1_winner``), a reason when
    the organiser corrects a result (``with_reason``), and who won the match when a team
    reports it (``with_winner``: the engine checks it against the chicos, so that scores
    typed in each other's column are caught)."""

    def __init__(
        self,
        *args: Any,
        match: Match,
        with_reason: bool = False,
        with_winner: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.match = match
        self.sides = result_sides(match)
        names = records.side_names(match)
        self.names = {side: names.get(side, side) for side in self.sides}
        self.word = words(match.stage.championship)
        self.slots = chico_slots(match)
        for number in range(1, self.slots + 1):
            for side in self.sides:
                self.fields[f"c{number}_{side}"] = forms.IntegerField(
                    label=self.names[side],
                    min_value=0,
                    max_value=MAX_POINTS,
                    required=False,
                    widget=forms.NumberInput(
                        attrs={"inputmode": "numeric", "class": "score-input", "size": 3}
                    ),
                )
            if len(self.sides) == 3:
                self.fields[f"c{number}_winner"] = forms.ChoiceField(
                    label=_("Winner, if two reached the target"),
                    choices=[("", "—"), *((side, self.names[side]) for side in self.sides)],
                    required=False,
                )
        if with_winner:
            self.fields["winner"] = forms.ChoiceField(
                label=_("Who won the match?"),
                choices=[(side, self.names[side]) for side in self.sides],
                widget=forms.RadioSelect,
                error_messages={"required": _("Say who won the match.")},
            )
        if with_reason:
            self.fields["reason"] = forms.CharField(
                label=_("Reason"),
                max_length=500,
                widget=forms.Textarea(attrs={"rows": 2}),
                help_text=_("Kept in the match's history with your name."),
            )

    # The chico the engine found at fault (its number), marked on its row.
    fault: int | None = None

    def add_result_error(self, error: ValidationError) -> None:
        """Show the engine's refusal of the result above the form, and mark the chico it
        names (``params["index"]``, 0-based) so the eye goes to the row to fix."""
        params = getattr(error, "params", None) or {}
        index = params.get("index") if isinstance(params, dict) else None
        if isinstance(index, int) and 0 <= index < self.slots:
            self.fault = index + 1
            for side in self.sides:
                self.fields[f"c{self.fault}_{side}"].widget.attrs["aria-invalid"] = "true"
        self.add_error(None, error.messages)

    def chico_rows(self) -> list[dict[str, Any]]:
        """The fields chico by chico, for the template: its number, a field per side, its
        winner's field at a table of three, and whether the engine found it at fault."""
        return [
            {
                "number": number,
                "scores": [self[f"c{number}_{side}"] for side in self.sides],
                "winner": self[f"c{number}_winner"] if len(self.sides) == 3 else None,
                "fault": number == self.fault,
            }
            for number in range(1, self.slots + 1)
        ]

    def extra_fields(self) -> list[Any]:
        """The fields beside the chicos (the reason of a correction)."""
        return [self[name] for name in ("reason",) if name in self.fields]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        games: list[dict[str, Any]] = []
        for number in range(1, self.slots + 1):
            scores = {side: data.get(f"c{number}_{side}") for side in self.sides}
            typed = [value for value in scores.values() if value is not None]
            if not typed:
                continue
            if len(typed) != len(scores):
                raise ValidationError(
                    _("Give every side's score of %(word)s %(number)s."),
                    code="score_missing",
                    params={"word": self.word.game, "number": number},
                )
            if len(games) != number - 1:
                raise ValidationError(
                    _("Fill the %(words)s in order, from the first."),
                    code="score_gap",
                    params={"words": self.word.games},
                )
            game: dict[str, Any] = {"score": scores}
            winner = data.get(f"c{number}_winner")
            if winner:
                game["winner"] = winner
            games.append(game)
        if not games:
            raise ValidationError(
                _("Type the score of each %(word)s played."),
                code="score_empty",
                params={"word": self.word.game},
            )
        data["games"] = games
        data["winner"] = data.get("winner") or None
        return data

    @classmethod
    def initial_from(cls, match: Match) -> dict[str, Any]:
        """The stored result of ``match`` as the form's initial values (to correct it)."""
        initial: dict[str, Any] = {}
        columns = records.column_sides(match)
        for game in match.games.order_by("number"):
            for column, side in columns.items():
                if side in result_sides(match):
                    initial[f"c{game.number}_{side}"] = getattr(game, f"score_{column}")
        return initial
