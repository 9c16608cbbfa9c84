"""A push service and a phone of the tests' own, for the Web Push notices.

``PushService`` listens on 127.0.0.1 (an ``http.server`` thread) and keeps each POST it
receives; ``Phone`` holds a subscription's private ECDH key and auth secret, as a browser
does, so a test decrypts what the site pushed (``http_ece``, aes128gcm) and checks the
VAPID signature (ES256) against the site's public key.
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    """One POST the push service received."""

    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class PushService:
    """A push service on 127.0.0.1 answering ``status`` to every POST (or, for a path in
    ``answers``, its own status)."""

    status: int = 201
    answers: dict[str, int] = field(default_factory=dict)
    received: list[Received] = field(default_factory=list)

    def __post_init__(self) -> None:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                service.received.append(
                    Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                )
                self.send_response(service.answers.get(self.path, service.status))
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:  # quiet
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def endpoint(self, name: str) -> str:
        return f"{self.origin}/push/{name}"

    def to(self, path: str) -> list[Received]:
        return [post for post in self.received if post.path == path]

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Phone:
    """A browser's push subscription: its endpoint at ``service`` and its keys."""

    def __init__(self, service: PushService, name: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.secret = os.urandom(16)
        self.endpoint = service.endpoint(name)
        self.path = f"/push/{name}"

    @property
    def p256dh(self) -> str:
        point = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return b64url(point)

    @property
    def auth(self) -> str:
        return b64url(self.secret)

    def form(self, kinds: list[str]) -> dict[str, Any]:
        """The team page's form, as its script posts it for this phone."""
        return {
            "action": "push_on",
            "endpoint": self.endpoint,
            "p256dh": self.p256dh,
            "auth": self.auth,
            "kinds": kinds,
        }

    def decrypt(self, body: bytes) -> bytes:
        """The plaintext of a push to this phone (RFC 8291, aes128gcm)."""
        return http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.secret, version="aes128gcm"
        )

    def read(self, body: bytes) -> dict[str, Any]:
        return json.loads(self.decrypt(body))


def vapid_claims(authorization: str, public_key: str) -> dict[str, Any]:
    """The claims of a ``vapid t=<jwt>,k=<key>`` header, once its key is the site's and its
    ES256 signature verifies with it (else AssertionError or InvalidSignature)."""
    scheme, _, rest = authorization.partition(" ")
    assert scheme == "vapid", authorization
    parts = dict(part.split("=", 1) for part in rest.split(","))
    assert parts["k"] == public_key
    head, claims, signature = parts["t"].split(".")
    assert json.loads(unb64url(head))["alg"] == "ES256"
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public_key))
    raw = unb64url(signature)
    assert len(raw) == 64
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    return json.loads(unb64url(claims))


def claims_fresh(claims: dict[str, Any], *, audience: str, subject: str) -> bool:
    """Whether VAPID ``claims`` name ``audience`` and ``subject`` and expire within a day."""
    now = time.time()
    return (
        claims["aud"] == audience
        and claims["sub"] == subject
        and now < claims["exp"] <= now + 86400
    )
