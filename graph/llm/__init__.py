"""The one client of an OpenAI-compatible chat-completions API (`POST <base>/chat/completions`), which
the optional LLM steps share: asking's router, ingestion's extractor and decider, consolidation's
digest summariser. Each keeps its own prompt and its deterministic fallback; every failure of the
model reaches them as one exception, `LlmError`. Configured once (`CREDENCE_LLM_*`,
docs/operations.md), wired in graph/services.py."""
from graph.llm.client import MODES, ChatClient, LlmError

__all__ = ["MODES", "ChatClient", "LlmError"]
