"""The node a new memory becomes. Pure."""
from __future__ import annotations

import uuid
from typing import Any

from graph.beliefs.trust import compute_trust
from graph.core.keys import source_key
from graph.core.tenant_token import tenant_token
from graph.core.timeutil import iso
from graph.core.vocab import ACTIVE, QUARANTINED
from graph.language import stems
from graph.memories.model import Claim, NewMemory
from graph.memories.sentiment import sentiment_of


def memory_row(item: NewMemory, checked: dict[str, Any], now: str) -> dict[str, Any]:
    """memories/create's row for a new memory, from the item and its checked values
    (rules.check_new); the belief engine still decides a claimed memory's status and trust, and
    the write path adds the embedding once it exists."""
    trust = compute_trust(item.provenance.source).trust
    suspicious = item.suspicious is not None
    ref = item.provenance.ref or ""
    return {
        "props": {
            "id": str(uuid.uuid4()), "text": item.text, "tenant_token": tenant_token(item.agent),
            "stems": stems.stored(item.text),  # what keyword search matches (graph/language/stems.py)
            "memory_type": item.memory_type, "category": item.category, "importance": checked["importance"],
            "tags": checked["tags"], "version": 1, "metadata": checked["metadata"],
            "embedding": None, "source_type": item.provenance.source, "corroboration": 1,
            "reinforcements": 0, "disputes": 0, "trust": trust, "confidence": trust,
            "status": QUARANTINED if suspicious else ACTIVE,
            "quarantine_reason": "suspicious_input" if suspicious else None,
            "quarantine_details": (item.suspicious or None) if suspicious else None,
            "sensitivity": item.sensitivity, "recurrence": item.recurrence, "historical": item.historical,
            "sentiment": sentiment_of(item.text), "thread": item.thread,
        },
        "source_key": source_key(item.agent, item.provenance.source, ref), "source_ref": ref,
        "created_at": now, "event_at": iso(item.event_at), "effective_from": iso(item.effective_from),
        "expires_at": iso(item.expires_at), "valid_from": None, "valid_until": None, "claim": None,
    }


def source_of(item: NewMemory) -> dict[str, str]:
    """The item's provenance source as a keyed row."""
    ref = item.provenance.ref or ""
    return {"key": source_key(item.agent, item.provenance.source, ref), "type": item.provenance.source, "ref": ref}


def claim_props(claim: Claim) -> dict[str, Any]:
    """A claim's properties as stored (and as the audit trail records them)."""
    return {"subject": claim.subject, "predicate": claim.predicate, "value": claim.value,
            "normalized_value": claim.normalized_value, "exclusive": claim.exclusive, "scope": claim.scope,
            "session_id": claim.session_id, "valid_from": iso(claim.valid_from), "valid_until": iso(claim.valid_until)}
