"""One error root for the domain; the API maps each subclass to an HTTP problem."""
from __future__ import annotations

from typing import Any


class CredenceError(Exception):
    """Root of every error Credence raises on purpose."""


class NotFound(CredenceError):
    def __init__(self, kind: str, ident: str) -> None:
        super().__init__(f"{kind} {ident} not found")
        self.kind, self.ident = kind, ident


class InvalidInput(CredenceError):
    """Input that passed the schema but breaks a domain rule; `field` names what to fix."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field, self.message = field, message


class SecretInInput(InvalidInput):
    """What would be stored holds a secret. `findings` name each one by field, kind and character
    span (start, end) in what was sent, never by value, so neither the answer nor a log of it
    repeats the secret."""

    def __init__(self, field: str, message: str, findings: tuple[dict[str, Any], ...]) -> None:
        super().__init__(field, message)
        self.findings = findings


class VersionConflict(CredenceError):
    def __init__(self, ident: str, expected: int, actual: int) -> None:
        super().__init__(f"memory {ident} is at version {actual}, not {expected}")
        self.ident, self.expected, self.actual = ident, expected, actual


class BackendUnavailable(CredenceError):
    """The graph database cannot be reached now; retrying later may work. `public` is a detail safe
    to show the caller (driver messages, which name addresses, are not)."""

    slug, title = "backend-unavailable", "Graph backend unavailable"

    def __init__(self, message: str, public: str | None = None) -> None:
        super().__init__(message)
        self.public = public


class Contention(BackendUnavailable):
    """The database is up, but this transaction kept colliding with concurrent writes to the same
    data until the driver's retry time ran out: busy, not down. Retrying later may work."""
    slug, title = "write-contention", "Concurrent writes collided"


class StartupError(CredenceError):
    """The service cannot start; the message says what to change."""


class SchemaMismatch(StartupError):
    """The stored graph was built with a different embedding model or dimension."""


class StateConflict(CredenceError):
    """The request is valid but the thing is not in a state that allows it (e.g. resolved twice)."""
