"""Types shared by request models."""
from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, AwareDatetime, BaseModel, BeforeValidator, ConfigDict, StringConstraints

from graph.core.errors import InvalidInput
from graph.core.tenancy import AGENT_PATTERN, MAX_AGENT_CHARS
from graph.core.timeutil import check_instant
from graph.core.vocab import AUDIT_OPS, MEMORY_TYPES, SENSITIVITIES, STATUSES
from graph.memories.rules import MAX_TAG_CHARS

# A tenant id: what `agent` names on every node. The rules live in the domain (graph/memories/rules.py).
Agent = Annotated[str, StringConstraints(min_length=1, max_length=MAX_AGENT_CHARS, pattern=AGENT_PATTERN)]
Tag = Annotated[str, StringConstraints(min_length=1, max_length=MAX_TAG_CHARS, strip_whitespace=True, pattern=r"\S")]
MemoryType = Literal[MEMORY_TYPES]  # type: ignore[valid-type]
Status = Literal[STATUSES]  # type: ignore[valid-type]
Sensitivity = Literal[SENSITIVITIES]  # type: ignore[valid-type]
AuditOp = Literal[AUDIT_OPS]  # type: ignore[valid-type]


# A date-time is an ISO-8601 string, as the OpenAPI document says: pydantic alone would also take
# 1700000000 (or "1700000000") as seconds since 1970. The domain's range rule (years 1..9999 once in
# UTC) runs here too, so a comparison between two request times can never overflow.
_DATE_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}")


def _date_time_text(value: Any) -> Any:
    if isinstance(value, datetime):
        return value
    if not isinstance(value, str) or not _DATE_TIME.match(value):
        raise ValueError("must be an ISO-8601 date-time string, e.g. 2024-05-01T12:00:00Z")
    return value


def _in_range(value: datetime) -> datetime:
    try:
        instant = check_instant(value, "")
        assert instant is not None  # a datetime in, a datetime out
        return instant
    except InvalidInput as exc:
        raise ValueError(exc.message) from None


Instant = Annotated[datetime, BeforeValidator(_date_time_text), AfterValidator(_in_range)]
AwareInstant = Annotated[AwareDatetime, BeforeValidator(_date_time_text), AfterValidator(_in_range)]

# A page cursor: next_cursor of the previous page, unchanged (unpadded base64url).
CURSOR_PATTERN = r"^[A-Za-z0-9_-]+$"


class Request(BaseModel):
    """Request bodies reject unknown fields. Numbers use Strict* types: "0.5" is not a number."""
    model_config = ConfigDict(extra="forbid")
