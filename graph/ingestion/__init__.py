"""Remembering from what people say (docs/ingestion.md): rule extraction (extractor.py and its
modules), the ADD / UPDATE / DELETE / NOOP decision (decide.py), the optional LLM steps (llm.py)
and the service that applies decisions through the write path in one transaction (service.py)."""
