// Tenants with memories without stems (graph/language/stems.py), at most $limit of them: those stored
// before memories carried their stems (start-up gives them theirs), or since by a process from before
// stems (the stem job's fan-out, graph/maintenance/stemming.py). No row once every memory has them.
// params: limit
// returns: many
MATCH (m:Memory)
WHERE m.stems IS NULL AND m.agent IS NOT NULL
RETURN DISTINCT m.agent AS agent
LIMIT $limit
