// A tenant's jobs, newest first, a page at a time, filtered by status and kind (any of each; null:
// no filter). The keyset (created_at, id) of the last job served is ($cursor_at, $cursor_id), both
// null on the first page; the caller asks for one more than the page.
// params: agent, statuses, kinds, cursor_at, cursor_id, limit
// returns: many
MATCH (j:Job {agent: $agent})
WHERE ($statuses IS NULL OR j.status IN $statuses)
  AND ($kinds IS NULL OR j.kind IN $kinds)
  AND ($cursor_at IS NULL
       OR j.created_at < datetime($cursor_at)
       OR (j.created_at = datetime($cursor_at) AND j.id < $cursor_id))
WITH j
ORDER BY j.created_at DESC, j.id DESC
LIMIT $limit
// include: jobs/view
