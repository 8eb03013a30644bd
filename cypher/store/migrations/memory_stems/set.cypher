// Stores the stems start-up computed for one tenant's memories; `set` counts those it reached.
// params: agent, rows
// returns: scalar
UNWIND $rows AS row
MATCH (m:Memory {agent: $agent, id: row.id})
SET m.stems = row.stems
RETURN count(m) AS set
