// Hard delete: other memories of the tenant that name a deleted one in their quarantine details,
// and audit records about other memories that name it in their payload, keep what they say with
// the id replaced ("a deleted memory"), so the id survives nowhere the API shows. One pass over the
// tenant for all the memories deleted together.
// params: agent, ids
// returns: scalar
OPTIONAL MATCH (m:Memory {agent: $agent})
WHERE NOT m.id IN $ids AND any(id IN $ids WHERE m.quarantine_details CONTAINS id)
SET m.quarantine_details = reduce(text = m.quarantine_details, id IN $ids | replace(text, id, 'a deleted memory'))
WITH count(m) AS memories
OPTIONAL MATCH (o:Operation {agent: $agent})
WHERE any(id IN $ids WHERE o.before CONTAINS id OR o.after CONTAINS id)
SET o.before = reduce(text = o.before, id IN $ids | replace(text, id, 'a deleted memory')),
    o.after = reduce(text = o.after, id IN $ids | replace(text, id, 'a deleted memory'))
WITH memories, count(o) AS operations
RETURN memories + operations AS scrubbed
