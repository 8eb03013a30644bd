"""The belief write path for a memory that carries a claim. It runs inside the caller's
transaction, serialised per (agent, subject, predicate): normalise, dedup-corroborate, detect
conflicts in Cypher, decide by precedence, then write the memory, its claim, supersessions,
conflicts and the audit record. Whatever happens lands whole or not at all."""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from graph.beliefs.claims import slot_key
from graph.beliefs.normalize import normalize
from graph.beliefs.precedence import Contender, Verdict, decide
from graph.beliefs.predicates import schema_in
from graph.beliefs.rivalry import apply_succession, conflict_rows, gate_of, rivals, succession
from graph.beliefs.trust import compute_trust, trust_now
from graph.core.timeutil import iso, utcnow
from graph.entities.claims import claim_entities
from graph.memories import audit
from graph.memories.model import Claim, NewMemory, StoreResult
from graph.memories.records import memory_from_map
from graph.store.gateway import Tx


def claim_props(claim: Claim) -> dict[str, Any]:
    return {"subject": claim.subject, "predicate": claim.predicate, "value": claim.value,
            "normalized_value": claim.normalized_value, "exclusive": claim.exclusive, "scope": claim.scope,
            "session_id": claim.session_id, "valid_from": iso(claim.valid_from), "valid_until": iso(claim.valid_until)}


async def write_claim_memory(tx: Tx, item: NewMemory, row: dict[str, Any], actor: str) -> StoreResult:
    """`row` is the memory row MemoryService prepared (id, text, embedding, ...); status, trust and
    quarantine are decided here."""
    assert item.claim is not None
    now = utcnow()
    # One instant for the whole write, taken in this transaction (a retried one takes a new one):
    # the belief is recorded when what it supersedes leaves the present, as known_at reads them.
    row["created_at"] = iso(now)
    schema = await schema_in(tx, item.agent, item.claim.predicate)
    claim = replace(item.claim, normalized_value=normalize(schema.normalize, item.claim.value))
    await lock_claim(tx, item.agent, claim)
    gate = gate_of(item.agent, claim)

    if schema.dedup_policy == "corroborate" and item.suspicious is None:
        duplicate = await tx.optional("beliefs/find_duplicate", **gate)
        if duplicate:
            return await _corroborate(tx, item, duplicate["id"], actor, now)

    # Which active beliefs it may supersede or conflict with: the one rule set (rivalry.py).
    contenders = await rivals(tx, item.agent, claim, schema, now)
    new_trust = compute_trust(item.provenance.source).trust
    new = Contender(row["props"]["id"], item.provenance.source, new_trust, now, claim.valid_from or item.event_at,
                    claim.valid_until)
    verdict = decide(new, contenders, policy=schema.conflict_policy, on_conflict=item.on_conflict)
    details = None
    if item.suspicious is not None:
        # Flagged input never replaces anything: it waits in quarantine, with any conflicts pending.
        verdict = Verdict("quarantined", (), verdict.clashes, "pending", None, "suspicious_input")
        details = item.suspicious or None
    elif verdict.quarantine_reason:
        lost = [c for c in verdict.clashes if not c.new_wins] or list(verdict.clashes)
        details = "; ".join(f"conflicts with {c.existing.memory_id} (trust {c.existing.trust:.2f} vs "
                            f"{new_trust:.2f}, {c.rule})" for c in lost)
    # Its place in valid time: a late, older state is history, its window closed at the next state's start.
    plan = await succession(tx, item.agent, claim, schema, new, verdict, now)
    claim = replace(claim, valid_until=plan.valid_until)

    row["props"].update(status=plan.status, trust=new_trust, confidence=new_trust,
                        superseded_reason="newer_valid_time" if plan.status == "superseded" else None,
                        quarantine_reason=verdict.quarantine_reason, quarantine_details=details,
                        # Denormalised for retrieval: session visibility and session-over-global override.
                        claim_key=slot_key(item.agent, claim.subject, claim.predicate),
                        session_id=claim.session_id if claim.scope == "session" else None)
    row.update(valid_from=iso(claim.valid_from), valid_until=iso(claim.valid_until))
    [created] = await tx.many("memories/create", agent=item.agent, rows=[row])
    memory_id = row["props"]["id"]
    subject, value, relation = await claim_entities(tx, item.agent, claim)
    asserted = await tx.one("beliefs/assert_claim", agent=item.agent, memory_id=memory_id,
                              claim=claim_props(claim), subject=subject, value=value, now=iso(now))
    if relation is not None:
        await tx.one("entities/evidence", agent=item.agent, memory_id=memory_id, relation=relation, now=iso(now))
    superseded = plan.replaced()
    if plan.superseded:
        reasons = {c.existing.memory_id: c.rule for c in verdict.clashes}
        await tx.many("beliefs/supersede", agent=item.agent, new_id=memory_id, now=iso(now), superseded=[
            {"id": c.memory_id, "reason": reasons[c.memory_id], "new_trust": new_trust, "old_trust": c.trust}
            for c in plan.superseded])
    await apply_succession(tx, item.agent, memory_id, plan, now, own_window=False)
    conflicts = conflict_rows(verdict.clashes, status=verdict.conflict_status,
                              reason=verdict.quarantine_reason or verdict.resolution or "keep_active",
                              resolution=verdict.resolution, new_trust=new_trust)
    if conflicts:
        await tx.many("beliefs/record_conflicts", agent=item.agent, new_id=memory_id, conflicts=conflicts, now=iso(now))
    await audit.record(tx, item.agent, "store", actor, [memory_id, *superseded], after={
        "id": memory_id, "status": plan.status, "trust": new_trust, "claim": claim_props(claim),
        "source": item.provenance.source, "superseded": list(superseded), "asserted_valid_until":
        iso(item.claim.valid_until), "closed": {c.memory_id: iso(c.valid_until) for c in plan.closures},
        "conflicts": [c["id"] for c in conflicts], "quarantine_reason": verdict.quarantine_reason})
    if superseded:
        await audit.record(tx, item.agent, "supersede", actor, [memory_id, *superseded],
                           before={"status": dict.fromkeys(superseded, "active")},
                           after={"status": dict.fromkeys(superseded, "superseded"), "by": memory_id})
    if verdict.status == "quarantined":
        await audit.record(tx, item.agent, "quarantine", actor, [memory_id],
                           after={"reason": verdict.quarantine_reason, "details": details})
    pending = next((c["id"] for c in conflicts if c["status"] == "pending"), None)
    return StoreResult(memory=memory_from_map(created["memory"], asserted["claim"]), superseded=superseded,
                       conflicts=tuple(c["id"] for c in conflicts), pending_conflict_id=pending)


async def _corroborate(tx: Tx, item: NewMemory, existing_id: str, actor: str, now: datetime) -> StoreResult:
    """The same belief again: add the new source to the existing memory instead of a new node."""
    terms = await tx.one("beliefs/attach_source", agent=item.agent, memory_id=existing_id,
                           source_type=item.provenance.source, source_ref=item.provenance.ref or "", now=iso(now))
    trust = trust_now(terms, now)
    updated = await tx.optional("beliefs/set_trust", agent=item.agent, memory_id=existing_id, trust=trust, status=None,
                             now=iso(now))
    assert updated is not None, "attach_source above found the memory, in this transaction"
    await audit.record(tx, item.agent, "dedup-corroborate", actor, [existing_id],
                       after={"source": item.provenance.source, "ref": item.provenance.ref,
                              "corroboration": terms["corroboration"], "trust": trust})
    return StoreResult(memory=memory_from_map(updated["memory"], updated["claim"]), deduplicated=True)


async def lock_claim(tx: Tx, agent: str, claim: Claim) -> None:
    """Serialise on the claim's (agent, subject, predicate) for the rest of the transaction."""
    await tx.scalar("beliefs/lock_slot", agent=agent, key=slot_key(agent, claim.subject, claim.predicate),
                 subject=claim.subject, predicate=claim.predicate, now=iso(utcnow()))


async def supersede_all(tx: Tx, agent: str, memory: dict[str, Any], beaten: list[Contender], reason: str,
                        now: datetime) -> tuple[str, ...]:
    if not beaten:
        return ()
    trust = trust_now(memory, now)
    await tx.many("beliefs/supersede", agent=agent, new_id=memory["id"], now=iso(now), superseded=[
        {"id": c.memory_id, "reason": reason, "new_trust": trust, "old_trust": c.trust} for c in beaten])
    return tuple(c.memory_id for c in beaten)
