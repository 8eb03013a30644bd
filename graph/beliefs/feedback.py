"""Feedback on a belief (docs/beliefs.md): reinforce, dispute, corroborate. Each recomputes
trust with the trust formula (trust.py), is one transaction, and leaves an audit record."""
from __future__ import annotations

from dataclasses import dataclass

from graph import audit
from graph.beliefs.trust import DISPUTED_BELOW, trust_now
from graph.core.checks import check_choice, check_note
from graph.core.errors import NotFound
from graph.core.keys import slot_key, source_key
from graph.core.tenancy import check_agent
from graph.core.timeutil import iso, utcnow
from graph.core.vocab import ACTIVE, DISPUTED, OP_CORROBORATE, OP_DISPUTE, OP_REINFORCE, SOURCE_TYPES
from graph.memories.model import Provenance
from graph.memories.records import claim_from_map
from graph.memories.rules import MAX_REF_CHARS
from graph.store.gateway import GraphRunner, Tx


@dataclass(frozen=True)
class FeedbackResult:
    id: str
    reinforcements: int
    disputes: int
    corroboration: int
    trust: float
    confidence: float
    status: str


class FeedbackService:
    def __init__(self, runner: GraphRunner) -> None:
        self.runner = runner

    async def reinforce(self, agent: str, memory_id: str, actor: str) -> FeedbackResult:
        check_agent(agent)
        return await self.runner.write_tx(lambda tx: self._count(tx, agent, memory_id, actor, OP_REINFORCE, None))

    async def dispute(self, agent: str, memory_id: str, actor: str, reason: str | None) -> FeedbackResult:
        check_agent(agent)
        check_note(reason, "reason")
        return await self.runner.write_tx(lambda tx: self._count(tx, agent, memory_id, actor, OP_DISPUTE, reason))

    async def corroborate(self, agent: str, memory_id: str, actor: str, source: Provenance) -> FeedbackResult:
        check_agent(agent)
        check_choice(source.source, "source.source", SOURCE_TYPES)
        check_note(source.ref, "source.ref", MAX_REF_CHARS)
        async def work(tx: Tx) -> FeedbackResult:
            now = utcnow()
            before = await tx.optional("memories/get", agent=agent, id=memory_id)
            if not before:
                raise NotFound("memory", memory_id)
            claim = claim_from_map(before["claim"])
            if claim is not None:
                # A belief's sources change under its slot's lock, as the write path's dedup changes them.
                await tx.scalar("beliefs/lock_slot", agent=agent, key=slot_key(agent, claim.subject, claim.predicate),
                                subject=claim.subject, predicate=claim.predicate, now=iso(now))
            terms = await tx.one("beliefs/attach_source", agent=agent, memory_id=memory_id,
                                 source_key=source_key(agent, source.source, source.ref or ""),
                                 source_type=source.source, source_ref=source.ref or "", now=iso(now))
            trust = trust_now(terms, now)
            row = await tx.optional("beliefs/set_trust", agent=agent, memory_id=memory_id, trust=trust, status=None,
                                 now=iso(now))
            assert row is not None, "the memory was read above, in this transaction"
            old = before["memory"]
            await audit.record(tx, agent, OP_CORROBORATE, actor, [memory_id],
                               before={"corroboration": old.get("corroboration"), "trust": old.get("trust")},
                               after={"corroboration": terms["corroboration"], "trust": trust,
                                      "source": source.source, "ref": source.ref})
            m = row["memory"]
            return FeedbackResult(memory_id, m["reinforcements"], m["disputes"], m["corroboration"], trust, trust,
                                  m["status"])

        return await self.runner.write_tx(work)

    async def _count(self, tx: Tx, agent: str, memory_id: str, actor: str, op: str,
                     reason: str | None) -> FeedbackResult:
        now = utcnow()
        terms = await tx.optional("beliefs/add_feedback", agent=agent, memory_id=memory_id,
                            reinforce=int(op == OP_REINFORCE), dispute=int(op == OP_DISPUTE))
        if terms is None:
            raise NotFound("memory", memory_id)
        trust = trust_now(terms, now)
        status = DISPUTED if op == OP_DISPUTE and trust < DISPUTED_BELOW and terms["status"] == ACTIVE else None
        row = await tx.optional("beliefs/set_trust", agent=agent, memory_id=memory_id, trust=trust, status=status,
                             now=iso(now))
        assert row is not None, "the memory was read above, in this transaction"
        m = row["memory"]
        await audit.record(tx, agent, op, actor, [memory_id],
                           before={"reinforcements": terms["reinforcements_before"],
                                   "disputes": terms["disputes_before"], "trust": terms["trust_before"],
                                   "status": terms["status_before"]},
                           after={"reinforcements": m["reinforcements"], "disputes": m["disputes"], "trust": trust,
                                  "status": m["status"], **({"reason": reason} if reason else {})})
        return FeedbackResult(memory_id, m["reinforcements"], m["disputes"], m["corroboration"], trust, trust,
                              m["status"])
