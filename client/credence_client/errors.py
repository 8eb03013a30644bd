"""What a call raises: the service's problem+json answers (RFC 9457) as typed exceptions, one class
per status a caller handles differently, and a service that cannot be reached."""
from __future__ import annotations

from typing import Any

import httpx

from credence_client.retry import retry_after_seconds


class CredenceError(Exception):
    """Anything the client raises on purpose."""


class ServiceUnreachable(CredenceError):
    """No answer: the connection failed or timed out (the httpx error is the `__cause__`)."""

    def __init__(self, url: str, cause: Exception) -> None:
        super().__init__(f"cannot reach the service at {url}: {cause or type(cause).__name__}")
        self.url = url


class JobTimeout(CredenceError):
    """A job waited for had not finished within the time given (it goes on in the service)."""

    def __init__(self, job_id: str, timeout: float) -> None:
        super().__init__(f"job {job_id} has not finished after {timeout:g}s; it goes on in the service")
        self.job_id = job_id


class CredenceAPIError(CredenceError):
    """A problem+json answer: `status`, `title`, `detail`, and `errors` (one {field, message} per bad
    field, on 422). `body` is the whole problem, `type` its URN (urn:credence:problem:...)."""

    def __init__(self, status: int, title: str, detail: str, errors: list[dict[str, Any]] | None = None,
                 body: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} {title}: {detail}")
        self.status, self.title, self.detail = status, title, detail
        self.errors, self.body = errors or [], body or {}
        self.type: str | None = self.body.get("type")
        self.headers: dict[str, str] = {}  # the answer's headers (Retry-After...), set by `of`

    @classmethod
    def of(cls, response: httpx.Response) -> CredenceAPIError:
        """The exception for a 4xx/5xx answer, of the class its status maps to."""
        try:
            body = response.json()
        except ValueError:  # not JSON: a proxy's or a crashed server's page
            body = {}
        if not isinstance(body, dict):
            body = {}
        kind = _BY_STATUS.get(response.status_code, cls if response.status_code < 500 else ServerError)
        error = kind(response.status_code, str(body.get("title") or response.reason_phrase),
                     str(body.get("detail") or response.text[:500]), body.get("errors"), body)
        error.headers = dict(response.headers)
        return error


class InvalidInput(CredenceAPIError):
    """422 (or 400): the request says something the service refuses; `errors` names each field."""


class Unauthorized(CredenceAPIError):
    """401: a missing or wrong API key."""


class Forbidden(CredenceAPIError):
    """403: the key is valid but not for this call (admin routes)."""


class NotFound(CredenceAPIError):
    """404: no such memory, conflict or predicate for this agent (another tenant's ids look missing too)."""


class UnknownEntity(NotFound):
    """No entity of the agent goes by this name or alias: the service's name lookup
    (GET /v1/entities?name=) answered an empty list, which the client reports as a 404."""

    def __init__(self, name: str) -> None:
        super().__init__(404, "Not found", f"no entity named {name!r} (names and aliases match ignoring case "
                                           "and spaces; entities come from the claims of memories)")
        self.name = name


class Conflict(CredenceAPIError):
    """409: a version conflict (`current_version` says the version to retry with) or a state that does
    not allow the call (resolving a resolved conflict, reviewing a memory not in quarantine)."""

    @property
    def current_version(self) -> int | None:
        return self.body.get("current_version")


class ServerError(CredenceAPIError):
    """5xx: the service failed; the detail says no more than the service chose to."""


class Unavailable(ServerError):
    """503: the graph backend is unreachable right now; raised once the retries are spent.
    `retry_after` is the service's hint in seconds, when it gave one."""

    @property
    def retry_after(self) -> float | None:
        return retry_after_seconds(self.headers.get("retry-after"))


_BY_STATUS: dict[int, type[CredenceAPIError]] = {
    400: InvalidInput, 401: Unauthorized, 403: Forbidden, 404: NotFound, 409: Conflict, 422: InvalidInput,
    503: Unavailable,
}
