"""Consolidating one tenant (docs/consolidation.md): plan every change with its reason; a dry run
answers the plan, a forced run computes it the same way and applies exactly it. Called inline by the
API, or as a job through `job.handler` with the job's id and progress."""
from __future__ import annotations

import logging
import time
from dataclasses import replace
from datetime import timedelta

from graph import audit
from graph.audit import DEFAULT_ACTOR, MAX_ACTOR_CHARS
from graph.consolidation import planner, snapshot
from graph.consolidation.apply import Applier
from graph.consolidation.model import Change, Checked, Counts, Defaults, Report, Request, check_request
from graph.consolidation.summarise import Extractive, Summariser
from graph.core.checks import check_short_text
from graph.core.timeutil import utcnow
from graph.core.vocab import OP_CONSOLIDATE
from graph.entities.service import EntityService
from graph.retrieval.cosine_scale import CosineScale
from graph.store.gateway import GraphRunner
from graph.writes.service import WriteService

log = logging.getLogger(__name__)


class ConsolidationService:
    def __init__(self, runner: GraphRunner, writes: WriteService, entities: EntityService, scale: CosineScale, *,
                 defaults: Defaults | None = None, summariser: Summariser | None = None,
                 vector_max_k: int = 10_000) -> None:
        self.runner, self.writes, self.entities, self.scale = runner, writes, entities, scale
        self.defaults = defaults or Defaults()  # thresholds, whether pruning is allowed, the batch size (settings)
        self.summariser: Summariser = summariser or Extractive()
        self.vector_max_k = vector_max_k

    async def consolidate(self, request: Request, actor: str = DEFAULT_ACTOR, job_id: str | None = None,
                          progress: planner.Progress | None = None) -> Report:
        """`job_id`: the job running it, recorded on every audit record; `progress(done, total)`:
        called after each planned step (dry run) or each applied batch."""
        checked = check_request(request, self.defaults, job_id)
        check_short_text(actor, "actor", MAX_ACTOR_CHARS)
        started, now = time.perf_counter(), utcnow()
        plan = await planner.plan(self.runner, checked, now, summariser=self.summariser,
                                  vector_max_k=self.vector_max_k, exact_pairs_max=self.defaults.exact_pairs_max,
                                  scale=self.scale,
                                  progress=progress if checked.dry_run else None)
        timings = dict(plan.timings)
        if checked.dry_run:
            changes, skipped = plan.changes(), 0
            after = _projected(plan)
        else:
            applier = Applier(self.runner, self.writes, self.entities, checked.agent, actor, checked.job_id,
                              self.defaults.batch, progress=progress,
                              prune_cutoff=now - timedelta(days=checked.thresholds.retention_days))
            outcome = await applier.apply(plan)
            changes, skipped = outcome.applied, outcome.skipped
            timings.update(outcome.timings)
            after = Counts(*await snapshot.counts(self.runner, checked.agent))
        report = replace(_report(checked, plan, changes, skipped, after, started),
                         timings=tuple((k, round(v, 3)) for k, v in timings.items()))
        log.info("consolidated %s%s: %d change(s), %d skipped, %d ms (%s)", checked.agent,
                 " (dry run)" if checked.dry_run else "", len(changes), skipped, report.duration_ms,
                 ", ".join(f"{k} {v:.2f}s" for k, v in report.timings))
        if not checked.dry_run and changes:
            await self.runner.write_tx(lambda tx: audit.record(
                tx, checked.agent, OP_CONSOLIDATE, actor, [], after=_summary(report), job_id=checked.job_id))
        return report


def _projected(plan: planner.Plan) -> Counts:
    """The counts a forced run of this plan would leave, with nothing else changing meanwhile."""
    archived = sum(len(m.change.others) for m in plan.merges)
    pruned = len(plan.prunes)
    pruned_active = sum(1 for p in plan.prunes if p.found.status == "active")
    return Counts(plan.before.total - pruned + len(plan.digests),
                  plan.before.active - archived - pruned_active + len(plan.digests))


def _report(checked: Checked, plan: planner.Plan, changes: list[Change], skipped: int, after: Counts,
            started: float) -> Report:
    def of(kind: str) -> list[Change]:
        return [c for c in changes if c.kind == kind]

    prunes = {p.change.target: p.found.reason for p in plan.prunes}
    pruned = [prunes[c.target] for c in of("prune")]
    return Report(
        agent=checked.agent, dry_run=checked.dry_run, job_id=checked.job_id, steps=checked.steps.on(),
        thresholds=checked.thresholds, deduplicated=sum(len(c.others) for c in of("merge")),
        contradictions_pending=len(of("contradiction")), corroborated=len(of("corroborate")),
        digests=len(of("digest")), digested_memories=sum(len(c.others) for c in of("digest")),
        entities_merged=len(of("entity_merge")), pruned_archived=pruned.count("archived"),
        pruned_expired=pruned.count("expired"), before=plan.before, after=after,
        duration_ms=int((time.perf_counter() - started) * 1000), skipped=skipped, changes=tuple(changes))


def _summary(report: Report) -> dict:
    """The run's own audit record: its counts, not its changes (each has its own record)."""
    r = report
    return {"steps": list(r.steps), "deduplicated": r.deduplicated, "contradictions_pending": r.contradictions_pending,
            "corroborated": r.corroborated, "digests": r.digests, "entities_merged": r.entities_merged,
            "pruned": r.pruned_archived + r.pruned_expired, "skipped": r.skipped,
            "before": {"total": r.before.total, "active": r.before.active},
            "after": {"total": r.after.total, "active": r.after.active}}
