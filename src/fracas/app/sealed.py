"""Sealing small secrets with a key the store keeps: AES-GCM (the ``cryptography`` library).

A sealed value is unreadable and tamper-evident without the key; ``context`` binds it to where
it may be used (a conflict and a viewer for a cursor), so a value sealed for one place is
refused in another.
"""

from __future__ import annotations

import base64
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from fracas.errors import InvalidInput

NONCE_BYTES = 12


def seal(key: bytes, plain: bytes, context: str) -> str:
    """``plain`` encrypted and authenticated under ``key`` for ``context`` (URL-safe text)."""
    nonce = os.urandom(NONCE_BYTES)
    sealed = AESGCM(key).encrypt(nonce, plain, context.encode("utf-8"))
    return base64.urlsafe_b64encode(nonce + sealed).decode("ascii").rstrip("=")


def unseal(key: bytes, text: str, context: str, what: str = "value") -> bytes:
    """The bytes :func:`seal` sealed, or InvalidInput if ``text`` is not one of ours."""
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        if len(raw) <= NONCE_BYTES:
            raise ValueError("too short")
        return AESGCM(key).decrypt(raw[:NONCE_BYTES], raw[NONCE_BYTES:],
                                   context.encode("utf-8"))
    except (ValueError, InvalidTag, UnicodeEncodeError):
        raise InvalidInput(f"not a valid {what}: made for another place, by another server, "
                           "or changed") from None
