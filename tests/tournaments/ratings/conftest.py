"""The ratings' and statistics' tests read their pages and commands in English: the
site's default language is Spanish, and every word here is translated."""

import pytest
from django.test import Client
from django.utils import translation


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


@pytest.fixture
def client() -> Client:
    return Client(headers={"accept-language": "en"})
