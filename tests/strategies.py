"""Hypothesis strategies the fuzz tests share: hand-record-like JSON, hostile text included."""

from __future__ import annotations

import json

from hypothesis import strategies as st

# Any text, lone surrogates and NUL included (the JSON escapes reach them too).
TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=30)
KEYS = st.sampled_from(
    ["events", "pica_pica", "current", "order", "by", "call", "answer", "trick", "mazo",
     "penalty", "points", "to", "reason", "void", "envido", "flor", "envido_winner", "play"]
)  # fmt: skip
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**20), max_value=10**20)
    | st.floats()
    | TEXT
    | st.sampled_from(["A", "B", "p1", "p2", "p3", "p4", "truco", "quiero", "envido"])
)
JSONISH = st.recursive(
    SCALARS,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(KEYS | TEXT, children, max_size=4)
    ),
    max_leaves=20,
)


def encoded(value) -> str:
    # allow_nan: NaN and Infinity are what a tampered page may send, too.
    return json.dumps(value, ensure_ascii=True)
