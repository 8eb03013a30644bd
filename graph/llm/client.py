"""An OpenAI-compatible chat-completions client: a plain answer, a JSON object, or a structured answer
by tool call (or, for servers without tool calling, a JSON object that follows the tool's schema).
One request per call, with the bearer key and the timeout configured; every way it can fail (the
server unreachable or slow, an HTTP error, an answer that is not the protocol's or not the JSON
asked for) is raised as `LlmError`, so a caller falls back to its rules in one place."""
from __future__ import annotations

import json
from typing import Any

import httpx

MODES = ("tools", "json")  # how a structured answer is asked for: a tool call, or response_format json_object


class LlmError(Exception):
    """The model gave no usable answer; `reason` says why in a few words (for logs and explanations)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class ChatClient:
    """`{base_url}/chat/completions` with `model`; `api_key` is sent as `Authorization: Bearer <key>`.
    A client is cheap and holds no connection between calls, so any event loop may use it."""

    def __init__(self, base_url: str, model: str, *, api_key: str | None = None, timeout: float = 30.0,
                 mode: str = "tools", transport: httpx.AsyncBaseTransport | None = None) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}")
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model, self.timeout, self.mode, self.transport = model, timeout, mode, transport
        self.headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}

    async def text(self, system: str, user: str, *, temperature: float | None = 0) -> str:
        """The model's answer as text (stripped; may be empty)."""
        message = await self._complete(self._body(system, user, temperature))
        return str(message.get("content") or "").strip()

    async def json_object(self, system: str, user: str, *, temperature: float | None = 0) -> dict[str, Any]:
        """The model's answer as a JSON object (`response_format: json_object`; a fenced answer is read too)."""
        body = self._body(system, user, temperature) | {"response_format": {"type": "json_object"}}
        return _object(str((await self._complete(body)).get("content") or ""))

    async def structured(self, system: str, user: str, tool: dict[str, Any], *,
                         temperature: float | None = None) -> dict[str, Any]:
        """The arguments of `tool` (a chat-completions function tool) as the model fills them: by a
        forced tool call, or in mode `json` by a JSON object, its schema appended to the system prompt."""
        if self.mode == "tools":
            body = self._body(system, user, temperature) | {
                "tools": [tool], "tool_choice": {"type": "function", "function": {"name": tool["function"]["name"]}}}
            message = await self._complete(body)
            try:
                arguments = message["tool_calls"][0]["function"]["arguments"]
            except (KeyError, IndexError, TypeError) as exc:
                raise LlmError("no tool call in the answer") from exc
            return _object(arguments if isinstance(arguments, str) else json.dumps(arguments))
        schema = " Answer with one JSON object matching: " + json.dumps(tool["function"]["parameters"])
        return await self.json_object(system + schema, user, temperature=temperature)

    def _body(self, system: str, user: str, temperature: float | None) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self.model, "messages": [{"role": "system", "content": system},
                                                                  {"role": "user", "content": user}]}
        if temperature is not None:
            body["temperature"] = temperature
        return body

    async def _complete(self, body: dict[str, Any]) -> dict[str, Any]:
        try:
            async with httpx.AsyncClient(timeout=self.timeout, transport=self.transport) as http:
                response = await http.post(self.url, json=body, headers=self.headers)
                response.raise_for_status()
                answer = response.json()
        except httpx.TimeoutException as exc:
            raise LlmError(f"timed out after {self.timeout:g} s") from exc
        except httpx.HTTPStatusError as exc:
            raise LlmError(f"HTTP {exc.response.status_code}") from exc
        except httpx.HTTPError as exc:
            raise LlmError(f"unreachable ({type(exc).__name__})") from exc
        except ValueError as exc:
            raise LlmError("the answer is not JSON") from exc
        try:
            message = answer["choices"][0]["message"]
        except (KeyError, IndexError, TypeError) as exc:
            raise LlmError("no choices[0].message in the answer") from exc
        if not isinstance(message, dict):
            raise LlmError("no choices[0].message in the answer")
        return message


def _object(text: str) -> dict[str, Any]:
    text = text.strip()
    if text.startswith("```"):
        text = text.strip("`").removeprefix("json").strip()
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise LlmError("the content is not JSON") from exc
    if not isinstance(value, dict):
        raise LlmError("the content is not a JSON object")
    return value
