// Stores the stems computed for one tenant's memories (graph/store/unstemmed.py: start-up and the
// stem job). Each memory is write-locked and read again first: one that got its stems meanwhile, or
// whose text changed since it was read (a patch), is left for the next read; `set` counts the rest.
// params: agent, rows
// returns: scalar
UNWIND $rows AS row
MATCH (m:Memory {agent: $agent, id: row.id})
SET m.locking = true
REMOVE m.locking
WITH m, row
WHERE m.stems IS NULL AND coalesce(m.text, '') = row.text
SET m.stems = row.stems
RETURN count(m) AS set
