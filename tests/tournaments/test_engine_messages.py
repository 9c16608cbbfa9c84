"""Every engine error reaches a referee or organiser as a sentence in his language."""

import re

import pytest
from django.utils import translation

from scoring import CATALOGUE, EngineError, score_reported_result
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


@pytest.mark.parametrize("language", ["es", "ca"])
def test_every_engine_template_reads_in_the_language(language):
    with translation.override("en"):
        english = {code: str(template) for code, template in ENGINE_MESSAGES.items()}
    with translation.override(language):
        untranslated = [c for c, t in ENGINE_MESSAGES.items() if str(t) == english[c]]
    assert untranslated == []


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "Both Los Anchos and Las Flores reached 30 in chico 1: only one side wins a chico."),
        ("es", "Los Anchos y Las Flores llegaron los dos a 30 en el chico 1: un chico lo gana un "
               "solo bando."),
        ("ca", "Los Anchos i Las Flores van arribar tots dos a 30 al chico 1: un chico el guanya "
               "un sol bàndol."),
    ],
)  # fmt: skip
def test_an_impossible_reported_result_is_told_with_the_teams_names(language, text):
    with pytest.raises(EngineError) as refused:
        score_reported_result({"rules": "argentine", "games": [{"score": {"A": 30, "B": 30}}]})
    error = from_engine(refused.value, names={"A": "Los Anchos", "B": "Las Flores"})
    with translation.override(language):
        assert error.text == text
