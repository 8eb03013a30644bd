"""Memory preferences per agent (docs/preferences.md): what never to store, the sensitivity ceiling
of every read, the default context budget and per-type quotas, retention per memory type, custom
extraction instructions and whether ingestion runs by default. One node per tenant.

Public surface: `PreferenceService` (get, cached; put), the record `Preferences`, its rules
(`check_preferences`) and what a write does with them (`never_store_reason`, `retention_expiry`,
`cap_ceiling`)."""
from graph.preferences.model import DEFAULT_PREFERENCES, Preferences, check_preferences
from graph.preferences.rules import cap_ceiling, never_store_reason, retention_expiry
from graph.preferences.service import PreferenceService

__all__ = ["DEFAULT_PREFERENCES", "PreferenceService", "Preferences", "cap_ceiling", "check_preferences",
           "never_store_reason", "retention_expiry"]
