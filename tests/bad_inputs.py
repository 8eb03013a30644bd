"""The bad-input corpus (issue 13, "keep the probes"): what an attacker or an unlucky client sends to
a write route. Each entry is raw JSON text, so lone surrogates (`\\ud800`), `NaN` and deep nesting
reach the server as a hostile client sends them. tests/integration/test_bad_input_corpus_api.py
sends every entry to every write route it fits and expects a 4xx problem and nothing written.

`{agent}`, `{memory}` (a memory of the tenant) and `{other}` (a second one) are filled in per test;
`{{` and `}}` are literal braces."""
from __future__ import annotations


def nested(depth: int, leaf: str = "1") -> str:
    return '{{"k":' * depth + leaf + "}}" * depth


SURROGATE = '"\\ud800"'
EDGE_TIMES = ('"9999-12-31T23:59:59-14:00"', '"0001-01-01T00:00:00+14:00"')

# Bodies no JSON route accepts, whatever its fields.
ANY_BODY = [
    "",
    "not json",
    "{{",
    '{{"agent": "{agent}",',
    "[]",
    "null",
    '"a string"',
    "123",
    "NaN",
    nested(600),
    nested(3000),
    '{{"agent": "{agent}", "unexpected": 1}}',
    '{{"agent": "{agent}", "\\udfff": 1}}',
    '{{"agent": {agent_surrogate}}}'.replace("{agent_surrogate}", SURROGATE),
    '{{"agent": "{agent}", "agent": "{agent}", "x": NaN}}',
]

# Memory fields (raw JSON values) that must be refused, on create, in a batch and in a patch.
MEMORY_FIELDS = [
    ("text", '""'), ("text", '"   "'), ("text", SURROGATE), ("text", '"caf\\udce9"'), ("text", "null"), ("text", "1"),
    ("memory_type", '"gossip"'), ("memory_type", "null"),
    ("importance", "NaN"), ("importance", "Infinity"), ("importance", "-0.1"), ("importance", '"0.5"'),
    ("importance", "true"), ("importance", "1e999"),
    ("category", SURROGATE), ("category", '"' + "c" * 101 + '"'), ("category", "[]"),
    ("tags", '"tea"'), ("tags", '[""]'), ("tags", '["  "]'), ("tags", "[" + SURROGATE + "]"), ("tags", "[1]"),
    ("tags", "[" + ", ".join([f'"t{i}"' for i in range(65)]) + "]"),
    ("event_at", '"last tuesday"'), ("event_at", "1700000000"), ("event_at", '"1700000000"'),
    *[("event_at", t) for t in EDGE_TIMES],
    ("metadata", "[1, 2]"), ("metadata", '"text"'), ("metadata", nested(33)), ("metadata", nested(256)),
    ("metadata", nested(999)), ("metadata", '{{"k": ' + SURROGATE + "}}"), ("metadata", '{{"\\ud800": 1}}'),
    ("metadata", '{{"k": NaN}}'), ("metadata", '{{"k": [Infinity]}}'), ("metadata", '{{"k": -Infinity}}'),
    ("metadata", '{{"blob": "' + "y" * 17_000 + '"}}'),
]

# Only on create and in a batch: fields a patch does not take.
CREATE_ONLY_FIELDS = [
    ("agent", '""'), ("agent", '" padded "'), ("agent", SURROGATE), ("agent", '"' + "a" * 129 + '"'),
    ("claim", '{{"subject": "user", "predicate": "likes", "value": ' + SURROGATE + "}}"),
    ("claim", '{{"subject": ' + SURROGATE + ', "predicate": "likes", "value": "tea"}}'),
    ("claim", '{{"subject": "", "predicate": "likes", "value": "tea"}}'),
    ("claim", '{{"subject": "u", "predicate": "p", "value": "v", "scope": "session"}}'),
    ("claim", ('{{"subject": "u", "predicate": "p", "value": "v", "valid_from": "2024-02-01T00:00:00Z", '
               '"valid_until": "2024-01-01T00:00:00Z"}}')),
    *[("claim", '{{"subject": "u", "predicate": "p", "value": "v", "' + name + '": ' + t + "}}")
      for name in ("valid_from", "valid_until") for t in EDGE_TIMES],
    ("claim", '{{"subject": "u", "predicate": "p", "value": "v", "valid_from": 1700000000}}'),
    ("provenance", '{{"source": "rumour"}}'), ("provenance", '{{"source": "user_explicit", "ref": ' + SURROGATE + "}}"),
    ("quarantine", '{{"details": ' + SURROGATE + "}}"),
    ("on_conflict", '"ignore"'),
    ("version", "5"), ("trust", "1.0"), ("status", '"active"'), ("id", '"{memory}"'),
]

# Patch-only refusals.
PATCH_BODIES = [
    "{{}}",
    '{{"expected_version": 1}}',
    '{{"expected_version": 0, "text": "x"}}',
    '{{"expected_version": "1", "text": "x"}}',
    '{{"trust": 1.0}}', '{{"status": "active"}}', '{{"agent": "someone-else"}}', '{{"version": 9}}',
    '{{"embedding": [0.1]}}',
]

# Route -> bodies beside ANY_BODY (raw JSON, formatted with the placeholders above).
ROUTE_BODIES = {
    ("POST", "/v1/memories/{memory}/links"): [
        '{{"agent": "{agent}", "type": "SUPPORTS", "to": "{memory}"}}',
        '{{"agent": "{agent}", "type": "SUPERSEDES", "to": "{other}"}}',
        '{{"agent": "{agent}", "type": "SUPPORTS", "to": "not-a-uuid"}}',
        '{{"agent": "{agent}", "type": "SUPPORTS", "to": "{other}", "note": ' + SURROGATE + "}}",
        '{{"agent": "{agent}", "type": "SUPPORTS"}}',
    ],
    ("POST", "/v1/memories/{memory}/dispute?agent={agent}"): [
        '{{"reason": ' + SURROGATE + "}}", '{{"reason": "' + "r" * 2_001 + '"}}', '{{"reason": 5}}',
    ],
    ("POST", "/v1/memories/{memory}/corroborate?agent={agent}"): [
        "{{}}", '{{"source": {{"source": "rumour"}}}}',
        '{{"source": {{"source": "document", "ref": ' + SURROGATE + "}}}}",
    ],
    ("POST", "/v1/memories/{memory}/quarantine?agent={agent}"): [
        '{{"reason": "trust_insufficient"}}', '{{"details": ' + SURROGATE + "}}",
    ],
    ("POST", "/v1/quarantine/{memory}/review?agent={agent}"): [
        "{{}}", '{{"action": "approve"}}', '{{"action": "activate", "reason": ' + SURROGATE + "}}",
    ],
    ("POST", "/v1/conflicts/{memory}/resolve?agent={agent}"): [
        "{{}}", '{{"action": "merge"}}', '{{"action": "reject", "reason": ' + SURROGATE + "}}",
    ],
    ("PUT", "/v1/predicates/likes?agent={agent}"): [
        '{{"cardinality": "many"}}', '{{"normalize": "shout"}}', '{{"conflict_policy": null}}',
    ],
    ("POST", "/v1/predicates"): [
        '{{"agent": "{agent}", "predicates": []}}',
        '{{"agent": "{agent}", "predicates": [{{"predicate": ' + SURROGATE + "}}]}}",
        '{{"agent": "{agent}", "predicates": [{{"predicate": "a"}}, {{"predicate": "a"}}]}}',
        '{{"agent": "{agent}", "predicates": [{{"predicate": "   "}}]}}',
    ],
}

# Write routes that take no body: bad query and path values only.
NO_BODY_ROUTES = [
    ("DELETE", "/v1/memories/not-a-uuid?agent={agent}"),
    ("DELETE", "/v1/memories/{memory}?agent="),
    ("DELETE", "/v1/memories/{memory}"),
    ("DELETE", "/v1/memories/{memory}?agent={agent}&hard=maybe"),
    ("DELETE", "/v1/memories/{memory}/links/SUPERSEDES/{other}?agent={agent}"),
    ("DELETE", "/v1/memories/{memory}/links/SUPPORTS/not-a-uuid?agent={agent}"),
    ("POST", "/v1/memories/not-a-uuid/reinforce?agent={agent}"),
    ("POST", "/v1/memories/{memory}/reinforce?agent=bad%20agent"),
    ("POST", "/v1/memories/{memory}/reinforce"),
]
