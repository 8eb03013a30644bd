"""credence-client: the Python client, the `credence` command line and the `credence-mcp` server for
a Credence memory service, over its HTTP API. Needs only httpx and pydantic (and `mcp` for the MCP
server: `pip install "credence-client[mcp]"`); none of the service's own packages."""
from credence_client.aio import AsyncCredence
from credence_client.errors import (
    Conflict,
    CredenceAPIError,
    CredenceError,
    Forbidden,
    InvalidInput,
    JobTimeout,
    NotFound,
    ServerError,
    ServiceUnreachable,
    Unauthorized,
    Unavailable,
    UnknownEntity,
)
from credence_client.retry import NO_RETRY, Retry
from credence_client.sync import Credence

__all__ = ["NO_RETRY", "AsyncCredence", "Conflict", "Credence", "CredenceAPIError", "CredenceError", "Forbidden",
           "InvalidInput", "JobTimeout", "NotFound", "Retry", "ServerError", "ServiceUnreachable", "Unauthorized",
           "Unavailable", "UnknownEntity"]
