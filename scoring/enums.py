"""The engine's vocabulary as string enums: suits, calls, answers, hand status and kind.

Each member *is* its string (``StrEnum``), so it compares equal to the plain strings the
hand record uses and serialises to the same JSON: the public format does not change
whether a caller passes ``Call("ana", CallName.TRUCO)`` or ``Call("ana", "truco")``.

>>> CallName.VALE_CUATRO == "vale_cuatro"
True
>>> import json; json.dumps({"status": HandStatus.GAME_OVER})
'{"status": "game_over"}'
>>> Suit("E").name
'ESPADAS'
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["AnswerName", "CallName", "Family", "HandKind", "HandStatus", "Suit"]


class Suit(StrEnum):
    """The four suits, written as in card names (``7E``)."""

    ESPADAS = "E"
    BASTOS = "B"
    OROS = "O"
    COPAS = "C"


class CallName(StrEnum):
    """Every call of a ``{"by": P, "call": C}`` event."""

    TRUCO = "truco"
    RETRUCO = "retruco"
    VALE_CUATRO = "vale_cuatro"
    ENVIDO = "envido"
    REAL_ENVIDO = "real_envido"
    FALTA_ENVIDO = "falta_envido"
    FLOR = "flor"
    CONTRAFLOR = "contraflor"
    CONTRAFLOR_AL_RESTO = "contraflor_al_resto"
    TRUC = "truc"
    TRES = "tres"


class AnswerName(StrEnum):
    """Every answer of a ``{"by": P, "answer": A}`` event (a raise is a call)."""

    QUIERO = "quiero"
    NO_QUIERO = "no_quiero"
    CON_FLOR_ME_ACHICO = "con_flor_me_achico"
    CON_FLOR_QUIERO = "con_flor_quiero"


class HandStatus(StrEnum):
    """How a hand ended (``status`` of a result)."""

    COMPLETE = "complete"
    GAME_OVER = "game_over"
    VOID = "void"
    REDEAL = "redeal"


class HandKind(StrEnum):
    """A hand of a six or eight player chico: everyone (redondo) or in pairs (pica-pica)."""

    REDONDO = "redondo"
    PICA_PICA = "pica_pica"


class Family(StrEnum):
    """Rule-set families: argentine (argentine, argentine_flor, trucardo) and catalan."""

    ARGENTINE = "argentine"
    CATALAN = "catalan"
