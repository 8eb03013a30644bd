// Hard delete: other memories of the tenant that name the deleted one in their quarantine details,
// and audit records about other memories that name it in their payload, keep what they say with
// the id replaced ("a deleted memory"), so the id survives nowhere the API shows.
// params: agent, id
// returns: scalar
OPTIONAL MATCH (m:Memory {agent: $agent})
WHERE m.id <> $id AND m.quarantine_details CONTAINS $id
SET m.quarantine_details = replace(m.quarantine_details, $id, 'a deleted memory')
WITH count(m) AS memories
OPTIONAL MATCH (o:Operation {agent: $agent})
WHERE o.before CONTAINS $id OR o.after CONTAINS $id
SET o.before = replace(o.before, $id, 'a deleted memory'), o.after = replace(o.after, $id, 'a deleted memory')
WITH memories, count(o) AS operations
RETURN memories + operations AS scrubbed
