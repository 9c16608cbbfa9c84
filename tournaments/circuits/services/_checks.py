"""What every write of a circuit checks first: who acts, and the refusal's shape."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from tournaments.circuits.access import can_manage_circuit
from tournaments.errors import TournamentError
from tournaments.models import (
    Circuit,
)


def refuse(message: Any, code: str, field: str | None = None, **params: Any) -> TournamentError:
    return TournamentError(
        message, code=code, params={**params, **({"field": field} if field else {})}
    )


def check_may_manage(by: Any, circuit: Circuit) -> None:
    if not can_manage_circuit(by, circuit):
        raise refuse(
            _("Only the organisers of %(circuit)s may change it."),
            "circuit_not_yours",
            circuit=circuit.name,
        )
