"""The API's root, ``/api/v1/``: JSON with the addresses of its resources, each of which
answers."""

from __future__ import annotations

from tests.api.conftest import V1, client_for


def test_the_root_lists_the_resources_and_each_answers(db):
    response = client_for().get(f"{V1}/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["championships"] == "http://testserver/api/v1/championships/"
    assert body["ratings"] == {
        "argentine": "http://testserver/api/v1/ratings/argentine/",
        "catalan": "http://testserver/api/v1/ratings/catalan/",
    }
    assert body["schema"] == "http://testserver/api/schema/"
    for name in ("championships", "persons", "circuits"):
        assert client_for().get(body[name]).status_code == 200, name
    for address in body["ratings"].values():
        assert client_for().get(address).status_code == 200, address


def test_the_root_is_in_the_schema(client, db):
    schema = client.get("/api/schema/?format=json").json()
    root = schema["paths"]["/api/v1/"]
    assert set(root) == {"get"}
    assert root["get"]["security"] == []
    properties = schema["components"]["schemas"]["Root"]["properties"]
    assert {"championships", "persons", "circuits", "ratings", "token", "schema"} <= set(properties)
