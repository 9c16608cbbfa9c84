"""Every engine error reaches a referee or organiser as a sentence in his language."""

import re

import pytest
from django.utils import translation

from scoring import CATALOGUE
from scoring.errors import error as engine_error
from tournaments.errors import ENGINE_MESSAGES, from_engine


def test_every_engine_code_has_a_translated_template():
    assert sorted(set(CATALOGUE) - set(ENGINE_MESSAGES)) == []


@pytest.mark.parametrize("code", sorted(CATALOGUE))
def test_each_template_takes_the_engines_parameters(code):
    _family, english = CATALOGUE[code]
    engine_params = set(re.findall(r"{(\w+)}", english))
    ours = set(re.findall(r"%\((\w+)\)s", str(ENGINE_MESSAGES[code])))
    assert ours <= engine_params, code


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "A penalty is more than these rules allow: at most 12 points."),
        ("es", "Una sanción supera lo que permiten estas reglas: 12 puntos como máximo."),
        ("ca", "Una sanció supera el que permeten aquestes regles: 12 punts com a màxim."),
    ],
)
def test_a_new_engine_code_is_translated(language, text):
    error = from_engine(engine_error("penalty_too_big", limit=12))
    with translation.override(language):
        assert error.text == text
