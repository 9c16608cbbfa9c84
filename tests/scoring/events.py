"""Builders of hand-record events (docs/hand-record.md), shared by the engine tests."""

from __future__ import annotations

from typing import Any


def call(by: str, name: str) -> dict[str, Any]:
    """``by`` calls ``name`` (truco, envido, flor, truc...)."""
    return {"by": by, "call": name}


def answer(by: str, name: str) -> dict[str, Any]:
    """``by`` answers the open call (quiero, no_quiero, con_flor_...)."""
    return {"by": by, "answer": name}


def mazo(by: str) -> dict[str, Any]:
    """``by`` goes to the mazo."""
    return {"by": by, "mazo": True}


def tricks(*sides: str) -> list[dict[str, Any]]:
    """Quick entry: the winners of the next tricks, in order (a side or ``"parda"``)."""
    return [{"trick": s} for s in sides]
