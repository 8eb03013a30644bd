// Memories past their retention: archived at or before $cutoff, or expired at or before it. With
// $ids, only those (checked again in the transaction that deletes them). Superseded memories are
// belief history and are never pruned.
// params: agent, cutoff, ids
// returns: many
MATCH (m:Memory {agent: $agent})
WHERE ($ids IS NULL OR m.id IN $ids)
  AND ((m.status = 'archived' AND coalesce(m.archived_at, m.updated_at) <= datetime($cutoff))
       OR (m.status <> 'superseded' AND m.expires_at IS NOT NULL AND m.expires_at <= datetime($cutoff)))
RETURN m.id AS id, m.status AS status,
       CASE WHEN m.status = 'archived' THEN 'archived' ELSE 'expired' END AS reason,
       coalesce(CASE WHEN m.status = 'archived' THEN coalesce(m.archived_at, m.updated_at) END, m.expires_at) AS since
ORDER BY m.id
