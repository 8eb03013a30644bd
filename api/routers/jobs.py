"""/v1/jobs: a tenant's durable jobs (enqueue, list, get, cancel, retry); /v1/admin/jobs: the
scheduler's system jobs, behind the administrator key; and the restore of an archived memory
(docs/maintenance.md)."""
from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Query, Response, status

from api.deps import ActorDep, AgentQuery, GuardDep, ServicesDep
from api.schemas.common import CURSOR_PATTERN
from api.schemas.jobs import KIND_PATTERN, JobCreate, JobOut, JobPageOut, JobStatus, RestoreRequest, SystemJobCreate
from api.schemas.memories import MemoryOut
from graph.jobs import DEFAULT_JOB_PAGE, MAX_JOB_PAGE, SYSTEM_AGENT, Enqueued, JobPage

router = APIRouter(prefix="/v1", tags=["jobs"])
admin = APIRouter(prefix="/v1/admin", tags=["admin"])

StatusFilter = Annotated[list[JobStatus] | None, Query(alias="status", description="Repeatable: jobs of any of these.")]
KindFilter = Annotated[list[Annotated[str, Query(pattern=KIND_PATTERN)]] | None,
                       Query(alias="kind", description="Repeatable: jobs of any of these kinds.")]
Limit = Annotated[int, Query(ge=1, le=MAX_JOB_PAGE)]
Cursor = Annotated[str | None, Query(max_length=512, pattern=CURSOR_PATTERN, description=
                                     "next_cursor of the previous page, unchanged.")]
CREATED: dict[int | str, dict[str, Any]] = {
    200: {"model": JobOut, "description": "The key named a job already: that job, unchanged."}}


def _page(page: JobPage) -> JobPageOut:
    return JobPageOut(count=len(page.items), items=[JobOut.of(j) for j in page.items], next_cursor=page.next_cursor)


def _enqueued(enqueued: Enqueued, response: Response) -> JobOut:
    if not enqueued.created:
        response.status_code = status.HTTP_200_OK
    return JobOut.of(enqueued.job)


@router.post("/jobs", status_code=status.HTTP_201_CREATED, response_model=JobOut, responses=CREATED,
             summary="Enqueue a job for a tenant (200 with the existing job when its key was seen)")
async def enqueue_job(body: JobCreate, services: ServicesDep, actor: ActorDep, guard: GuardDep,
                      response: Response) -> JobOut:
    await guard.write(body.agent)
    return _enqueued(await services.maintenance.enqueue(body.to_domain(body.agent), actor), response)


@router.get("/jobs", response_model=JobPageOut, summary="A tenant's jobs, newest first, by status and kind")
async def list_jobs(agent: AgentQuery, services: ServicesDep, status_: StatusFilter = None, kind: KindFilter = None,
                    limit: Limit = DEFAULT_JOB_PAGE, cursor: Cursor = None) -> JobPageOut:
    return _page(await services.maintenance.queue.list_jobs(agent, statuses=status_, kinds=kind, limit=limit,
                                                            cursor=cursor))


@router.get("/jobs/{job_id}", response_model=JobOut, summary="One job: its status, progress, result or last error")
async def get_job(job_id: UUID, agent: AgentQuery, services: ServicesDep) -> JobOut:
    return JobOut.of(await services.maintenance.queue.get(agent, str(job_id)))


@router.post("/jobs/{job_id}/cancel", response_model=JobOut,
             summary="Cancel a job: a queued one at once, a running one at its next checkpoint (409 once finished)")
async def cancel_job(job_id: UUID, agent: AgentQuery, services: ServicesDep) -> JobOut:
    return JobOut.of(await services.maintenance.queue.cancel(agent, str(job_id)))


@router.post("/jobs/{job_id}/retry", response_model=JobOut,
             summary="Queue a dead or cancelled job again, with fresh attempts (409 otherwise)")
async def retry_job(job_id: UUID, agent: AgentQuery, services: ServicesDep) -> JobOut:
    job = await services.maintenance.queue.retry(agent, str(job_id))
    services.maintenance.worker.wake()
    return JobOut.of(job)


@router.post("/memories/{memory_id}/restore", response_model=MemoryOut, tags=["memories"],
             summary="Restore an archived memory (an archive, an expiry, a decay) to the status it had")
async def restore_memory(memory_id: UUID, agent: AgentQuery, services: ServicesDep, actor: ActorDep,
                         body: RestoreRequest | None = None) -> MemoryOut:
    memory = await services.maintenance.restore.restore(agent, str(memory_id), actor, body.reason if body else None)
    return MemoryOut.of(memory)


@admin.post("/jobs", status_code=status.HTTP_201_CREATED, response_model=JobOut, responses=CREATED,
            summary="Enqueue a system job: expire, decay or stem across every tenant, now")
async def enqueue_system_job(body: SystemJobCreate, services: ServicesDep, actor: ActorDep,
                             response: Response) -> JobOut:
    return _enqueued(await services.maintenance.enqueue(body.to_domain(SYSTEM_AGENT), actor), response)


@admin.get("/jobs", response_model=JobPageOut,
           summary="System jobs (the scheduler's fan-outs), newest first; a tenant's jobs are at /v1/jobs")
async def list_system_jobs(services: ServicesDep, status_: StatusFilter = None, kind: KindFilter = None,
                           limit: Limit = DEFAULT_JOB_PAGE, cursor: Cursor = None) -> JobPageOut:
    return _page(await services.maintenance.queue.list_jobs(SYSTEM_AGENT, statuses=status_, kinds=kind, limit=limit,
                                                            cursor=cursor))


@admin.get("/jobs/{job_id}", response_model=JobOut, summary="One system job")
async def get_system_job(job_id: UUID, services: ServicesDep) -> JobOut:
    return JobOut.of(await services.maintenance.queue.get(SYSTEM_AGENT, str(job_id)))


@admin.post("/jobs/{job_id}/cancel", response_model=JobOut, summary="Cancel a system job")
async def cancel_system_job(job_id: UUID, services: ServicesDep) -> JobOut:
    return JobOut.of(await services.maintenance.queue.cancel(SYSTEM_AGENT, str(job_id)))


@admin.post("/jobs/{job_id}/retry", response_model=JobOut, summary="Queue a dead or cancelled system job again")
async def retry_system_job(job_id: UUID, services: ServicesDep) -> JobOut:
    job = await services.maintenance.queue.retry(SYSTEM_AGENT, str(job_id))
    services.maintenance.worker.wake()
    return JobOut.of(job)
