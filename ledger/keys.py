"""The deployment's keys (issue 9): one key file shared by every server of a deployment, kept
apart from the database.

- The seed key (AES-256-GCM) seals each match's secret seed at rest, so that reading the
  database is not enough to predict the draws of a live match.
- The signing key (Ed25519) signs receipts: ``{match_id, version, head, signed_at}``, the head
  being the hash of the match's event at that version, in the manner of Certificate
  Transparency's signed tree heads. A receipt kept outside the database (by a seat's device, a
  judge, a results sheet, an export) later proves that the match had that event at that
  version: a store that lost events after it (truncation) or holds another event there (a
  rewrite) no longer matches it, even if whoever changed the database rebuilt the hash chain.

The key file is JSON, created on first use with mode 0600; where it lives is
``KIROKU_KEY_FILE``, by default beside an SQLite database (``kiroku.db.keys``) or
``./kiroku.keys`` for PostgreSQL. An in-memory database gets keys that live as long as it does.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import Any
from uuid import UUID

from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from ledger.errors import LedgerError

RECEIPT_FORMAT = "kiroku-receipt/1"


class KeyfileError(LedgerError):
    """The key file cannot be used, or a sealed seed does not open with it."""

    code = "key_mismatch"


def _public_hex(key: Ed25519PublicKey) -> str:
    # the raw form without importing cryptography's serialization package (20 ms of
    # every command's start, issue 43)
    return key.public_bytes_raw().hex()


def key_id(public_key_hex: str) -> str:
    """A short name for a public key: the start of its SHA-256."""
    return hashlib.sha256(bytes.fromhex(public_key_hex)).hexdigest()[:16]


def receipt_message(receipt: dict[str, Any]) -> bytes:
    """The bytes a receipt's signature covers."""
    return "\n".join([RECEIPT_FORMAT, str(receipt["match_id"]), str(receipt["version"]),
                      str(receipt["head"]), str(receipt["signed_at"])]).encode()


def verify_receipt(receipt: dict[str, Any], public_key_hex: str) -> bool:
    """Whether ``receipt`` carries a valid signature by ``public_key_hex``."""
    try:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key_hex))
        key.verify(bytes.fromhex(str(receipt["signature"])), receipt_message(receipt))
    except (InvalidSignature, ValueError, KeyError, TypeError):
        return False
    return receipt.get("key_id") == key_id(public_key_hex)


@dataclass(frozen=True)
class Keyring:
    """The seed key and the signing key of one deployment."""

    seed_key: bytes
    signing_key: Ed25519PrivateKey

    @classmethod
    def ephemeral(cls) -> Keyring:
        """Keys that live only as long as this object (an in-memory database)."""
        return cls(secrets.token_bytes(32), Ed25519PrivateKey.generate())

    @classmethod
    def at(cls, path: str | Path) -> Keyring:
        """The keys in ``path``, created there (mode 0600) if the file does not exist yet;
        servers starting together all end up with the one file."""
        path = Path(path)
        if path.exists():
            return cls._read(path)
        fresh = cls.ephemeral()
        draft = path.with_name(f".{path.name}.{secrets.token_hex(8)}")
        try:
            fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as out:
                json.dump({"format": "kiroku-keys/1", "seed_key": fresh.seed_key.hex(),
                           "signing_key": fresh.signing_key.private_bytes_raw().hex()}, out)
            os.link(draft, path)  # whole or not at all; the first server to get here wins
        except FileExistsError:
            return cls._read(path)
        except OSError as exc:
            raise KeyfileError(f"Cannot create the key file {path}: {exc.strerror}.") from None
        finally:
            draft.unlink(missing_ok=True)
        return fresh

    @classmethod
    def _read(cls, path: Path) -> Keyring:
        try:
            data = json.loads(path.read_text("utf-8"))
            return cls(bytes.fromhex(data["seed_key"]),
                       Ed25519PrivateKey.from_private_bytes(bytes.fromhex(data["signing_key"])))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise KeyfileError(f"The key file {path} cannot be read ({type(exc).__name__}); "
                            "every server of a deployment needs the same one.") from None

    @cached_property
    def public_key(self) -> str:
        """The signing key's public half, hex (derived once: every receipt names it)."""
        return _public_hex(self.signing_key.public_key())

    @cached_property
    def key_id(self) -> str:
        """The id of the signing key that receipts carry."""
        return key_id(self.public_key)

    def seal(self, seed: bytes, match_id: UUID) -> str:
        """``seed`` encrypted for the store (bound to its match), hex."""
        nonce = secrets.token_bytes(12)
        return (nonce + AESGCM(self.seed_key).encrypt(nonce, seed, match_id.bytes)).hex()

    def unseal(self, sealed: str, match_id: UUID) -> bytes:
        """The seed sealed by ``seal``; KeyfileError if this is not the key that sealed it."""
        raw = bytes.fromhex(sealed)
        try:
            return AESGCM(self.seed_key).decrypt(raw[:12], raw[12:], match_id.bytes)
        except InvalidTag:
            raise KeyfileError("This match's seed was sealed with another key file: every server "
                            "of a deployment needs the same KIROKU_KEY_FILE.") from None

    def receipt(self, match_id: UUID, version: int, head: str) -> dict[str, Any]:
        """A signed receipt for the event ``head`` at ``version`` of ``match_id``."""
        receipt: dict[str, Any] = {
            "format": RECEIPT_FORMAT, "match_id": str(match_id), "version": version,
            "head": head, "signed_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "key_id": self.key_id}
        receipt["signature"] = self.signing_key.sign(receipt_message(receipt)).hex()
        return receipt


def key_file(database: str, explicit: str | None = None) -> str | None:
    """Where a store's key file is: ``explicit``, else KIROKU_KEY_FILE, else beside an SQLite
    file or ``./kiroku.keys``; None for an in-memory database (ephemeral keys)."""
    chosen = explicit or os.environ.get("KIROKU_KEY_FILE")
    if chosen:
        return chosen
    if database.startswith("sqlite:///"):
        path = database.removeprefix("sqlite:///")
        return None if path == ":memory:" else f"{path}.keys"
    return "kiroku.keys"
