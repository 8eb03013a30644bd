"""The light client carries the consistency token when asked: the latest one a write's answer held,
on every later call; never when not asked."""
from __future__ import annotations

import asyncio
import contextlib

import httpx
from pydantic import ValidationError

from credence_client import AsyncCredence, Credence
from credence_client.config import CONSISTENCY_HEADER


def service(seen: list[str | None]):
    """Answers every call; a write's answer carries a new token, as the service does."""
    def handle(request: httpx.Request) -> httpx.Response:
        seen.append(request.headers.get(CONSISTENCY_HEADER))
        headers = {CONSISTENCY_HEADER: f"token-{len(seen)}"} if request.method == "POST" else {}
        return httpx.Response(200, json={"items": [], "count": 0, "next_cursor": None}, headers=headers)
    return httpx.MockTransport(handle)


def calls(api) -> None:
    with contextlib.suppress(ValidationError):  # the mock's answer is no stored memory: the headers matter here
        api.remember("a", "t")
    list(api.memories("a"))
    list(api.memories("a"))


def test_the_sync_client_carries_the_latest_token_when_asked():
    for asked, expected in ((True, [None, "token-1", "token-1"]), (False, [None, None, None])):
        seen: list[str | None] = []
        with Credence(http=httpx.Client(base_url="http://credence", transport=service(seen)),
                      read_your_writes=asked) as api:
            calls(api)
            assert seen == expected
            assert api.consistency_token == ("token-1" if asked else None)


def test_the_async_client_carries_the_latest_token_when_asked():
    async def run(asked: bool) -> tuple[list[str | None], str | None]:
        seen: list[str | None] = []
        http = httpx.AsyncClient(base_url="http://credence", transport=service(seen))
        async with AsyncCredence(http=http, read_your_writes=asked) as api:
            with contextlib.suppress(ValidationError):  # as above
                await api.remember("a", "t")
            api.consistency_token = "handed-over" if asked else api.consistency_token
            [m async for m in api.memories("a")]
        await http.aclose()
        return seen, api.consistency_token

    assert asyncio.run(run(True)) == ([None, "handed-over"], "handed-over")
    assert asyncio.run(run(False)) == ([None, None], None)
