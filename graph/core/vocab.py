"""The fixed vocabularies: memory types, statuses, claim scopes, sources, predicate schemas,
conflict choices, search modes. Each is defined here once; api/schemas builds its literals from them."""
from __future__ import annotations

MEMORY_TYPES = ("fact", "preference", "goal", "event", "decision", "procedure", "entity", "action", "other")

# How sensitive a memory is (seed 004): health, finances, death or loss are sensitive; what the user
# asks to keep to themselves is private. Search and context show memories up to a ceiling.
SENSITIVITIES = ("normal", "sensitive", "private")
DEFAULT_SENSITIVITY = "normal"
DEFAULT_SENSITIVITY_CEILING = "sensitive"  # private memories show only when a request asks for them


def sensitivities_up_to(ceiling: str) -> tuple[str, ...]:
    """The sensitivities a request with this ceiling may see, least sensitive first."""
    return SENSITIVITIES[:SENSITIVITIES.index(ceiling) + 1]
STATUSES = ("active", "superseded", "disputed", "quarantined", "archived")
ACTIVE, SUPERSEDED, DISPUTED, QUARANTINED, ARCHIVED = STATUSES
DEFAULT_STATUSES = (ACTIVE,)


def visible_statuses(statuses=None, *, include_superseded: bool = False, include_disputed: bool = False,
                     include_quarantined: bool = False, include_all: bool = False) -> tuple[str, ...]:
    """Default visibility: active only. Flags add hidden statuses; include_all opens every one."""
    if include_all:
        return STATUSES
    chosen = list(statuses or DEFAULT_STATUSES)
    for flag, status in ((include_superseded, SUPERSEDED), (include_disputed, DISPUTED),
                         (include_quarantined, QUARANTINED)):
        if flag:
            chosen.append(status)
    return tuple(dict.fromkeys(chosen))


SCOPES = ("global", "session", "temporal")
ON_CONFLICT = ("quarantine", "keep_active")

SEARCH_MODES = ("hybrid", "vector", "keyword")

# Where a belief came from, most trusted first (graph/beliefs/trust.py weighs each one).
SOURCE_TYPES = ("user_explicit", "system", "tool_output", "user_implicit", "document", "inference")
DEFAULT_SOURCE = "inference"
USER_SOURCES = ("user_explicit", "user_implicit")

# A predicate's schema (graph/beliefs/predicates.py): each tuple's first value is the default a
# predicate without a registered schema takes.
CARDINALITIES = ("single", "multi")
CONFLICT_POLICIES = ("supersede", "require_review", "keep_both")
DEDUP_POLICIES = ("corroborate", "store")
NORMALIZER_NAMES = ("none", "trim", "lowercase", "lowercase_trim", "currency")

# What a person may do with a quarantined memory, a pending conflict, and why a memory is quarantined by hand.
REVIEW_ACTIONS = ("activate", "reject")
RESOLUTION_ACTIONS = ("supersede", "reject", "keep_both")
MANUAL_QUARANTINE_REASONS = ("manual", "suspicious_input")

# Edges between one tenant's memories. Users assert USER_KINDS over the API and remove them again;
# the engine writes ENGINE_KINDS (SUPERSEDES and CONTRADICTS on the belief write path, DIGEST_OF and
# DUPLICATE_OF from consolidation, NEXT on the write path), read-only over the API so the belief
# history cannot be rewritten by hand.
USER_KINDS = ("CAUSES", "SUPPORTS", "PROMOTED_FROM", "OUTCOME_OF", "PROGRESS_ON")
ENGINE_KINDS = ("SUPERSEDES", "CONTRADICTS", "DIGEST_OF", "DUPLICATE_OF", "NEXT")
EDGE_KINDS = ("CAUSES", "SUPERSEDES", "CONTRADICTS", "SUPPORTS", "PROMOTED_FROM", "DIGEST_OF", "OUTCOME_OF",
              "PROGRESS_ON", "DUPLICATE_OF", "NEXT")
# (outcome)-[:OUTCOME_OF]->(decision): what came of a decision; (note)-[:PROGRESS_ON]->(goal): progress
# recorded on a goal. Users write both through the links API; the asking handlers read them.
# NEXT joins a conversation turn to the turn given after it in its thread (graph/memories/threads.py),
# written by the write path in the order the turns arrive.
NEXT = "NEXT"

# A conflict waits for a person (pending) or was decided, by the engine or a person (resolved).
CONFLICT_STATUSES = ("pending", "resolved")

# Secrets a memory must never hold (graph/memories/secrets.py finds them), by kind, and what a write
# does when it meets one: refuse it (the default), or store it with each secret replaced by
# "[REDACTED:<kind>]".
SECRET_KINDS = ("private_key", "aws_access_key", "aws_secret_key", "github_token", "slack_token", "stripe_key",
                "credence_key", "anthropic_key", "openai_key", "google_api_key", "jwt", "generic_secret", "password",
                "card_number", "us_ssn", "iban")
SECRET_MODES = ("refuse", "redact")
DEFAULT_SECRET_MODE = "refuse"

# What an audit record (graph/audit) says happened. Every writer names its op from here; the audit
# query (GET /v1/audit?op=) filters on these, and an import refuses any other. `import` is mem0's
# (graph/transfer/mem0.py): one record per memory it loaded.
AUDIT_OPS: tuple[str, ...] = (
             "store", "update", "archive", "hard_delete", "supersede", "quarantine", "review", "resolve",
             "reinforce", "dispute", "corroborate", "dedup-corroborate", "link", "unlink", "entity_update",
             "entity_merge", "import", "preferences", "ingest")
(OP_STORE, OP_UPDATE, OP_ARCHIVE, OP_HARD_DELETE, OP_SUPERSEDE, OP_QUARANTINE, OP_REVIEW, OP_RESOLVE,
 OP_REINFORCE, OP_DISPUTE, OP_CORROBORATE, OP_DEDUP_CORROBORATE, OP_LINK, OP_UNLINK, OP_ENTITY_UPDATE,
 OP_ENTITY_MERGE, OP_IMPORT, OP_PREFERENCES, OP_INGEST) = AUDIT_OPS

# Asking (graph/asking): what a question asks for. The order is the precedence when a question asks
# two things (the more selective handler first; docs/asking.md); `search` is the fallback.
ASK_INTENTS = ("negation", "decision", "goal", "sentiment", "historical", "relationship", "temporal", "entity",
               "about_me", "search")
ASK_ROUTERS = ("rules", "llm")  # the deterministic router (default) and the optional model behind the same interface
# Who a question is about: the user, someone or something else, or nobody (a document, a recipe).
ASK_SUBJECTS = ("user", "entity")
# Where a feeling is heading, from the stored sentiment of the memories about one thing.
SENTIMENT_TRENDS = ("improving", "declining", "stable", "unknown")

# Durable jobs (graph/jobs, docs/maintenance.md). A job waits `queued` (until its run_at, and until
# the jobs it depends on succeeded), runs under a worker's lease, and ends `succeeded`, `cancelled`
# or `dead` (out of attempts: it keeps its last error until an operator retries it).
JOB_STATUSES = ("queued", "running", "succeeded", "cancelled", "dead")
JOB_QUEUED, JOB_RUNNING, JOB_SUCCEEDED, JOB_CANCELLED, JOB_DEAD = JOB_STATUSES
JOB_FINISHED = (JOB_SUCCEEDED, JOB_CANCELLED, JOB_DEAD)
# The built-in kinds (graph/maintenance): `expire` archives a tenant's expired memories, `decay` those
# whose importance decayed below the floor, `stem` gives stems to memories a process from before stems
# stored. Scheduled on the system tenant, each fans out to one job per tenant. `consolidate` is
# reserved for consolidation.
JOB_KINDS = ("expire", "decay", "consolidate", "stem")
KIND_EXPIRE, KIND_DECAY, KIND_CONSOLIDATE, KIND_STEM = JOB_KINDS

# Audit ops of maintenance: a memory archived because it expired or decayed, and an operator's restore
# of an archived memory. The same one vocabulary as the ops above.
MAINTENANCE_OPS = ("expire", "decay", "restore")
OP_EXPIRE, OP_DECAY, OP_RESTORE = MAINTENANCE_OPS
AUDIT_OPS = (*AUDIT_OPS, *MAINTENANCE_OPS)

# Consolidation (graph/consolidation, docs/consolidation.md): the steps one run may take, in the order
# it takes them, and the audit ops of its changes: a near-duplicate merged into the memory that stays
# (DUPLICATE_OF), a contradiction among stored beliefs made a pending conflict, a digest written, a
# memory pruned past its retention, and one record per applied run with its report. A corroboration is
# `corroborate` and an entity merge `entity_merge`, as when a person makes them.
CONSOLIDATION_STEPS = ("duplicates", "contradictions", "corroboration", "digests", "entities", "prune")
CONSOLIDATION_CHANGES = ("merge", "contradiction", "corroborate", "digest", "entity_merge", "prune")
CONSOLIDATION_OPS = ("merge", "contradiction", "digest", "prune", "consolidate")
OP_MERGE, OP_CONTRADICTION, OP_DIGEST, OP_PRUNE, OP_CONSOLIDATE = CONSOLIDATION_OPS
AUDIT_OPS = (*AUDIT_OPS, *CONSOLIDATION_OPS)

# Ingestion (graph/ingestion): what remembering from messages may do with a candidate, and the
# source what a user's message yields is recorded from by default (what the user said in passing,
# read by rules: less than a claim the user stated through the API).
INGEST_OPERATIONS = ("ADD", "UPDATE", "DELETE", "NOOP")
INGEST_MODES = ("supersede", "replace", "append", "soft", "hard")
INGEST_ROLES = ("user", "assistant")
DEFAULT_INGEST_SOURCE = "user_implicit"
