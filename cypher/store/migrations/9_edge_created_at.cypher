// Edges between memories written before every edge said when and by whom it was made: SUPPORTS
// and CAUSES move their time from `at` to `created_at` (by an unknown actor); SUPERSEDES keeps `at`
// (the export format's key) and gains created_at and created_by (the engine). No-op once done.
// returns: write
MATCH (:Memory)-[r:SUPPORTS|CAUSES|SUPERSEDES]->(:Memory)
WHERE r.created_at IS NULL
SET r.created_at = r.at,
    r.created_by = CASE WHEN type(r) = 'SUPERSEDES' THEN 'engine' ELSE 'unknown' END,
    r.at = CASE WHEN type(r) = 'SUPERSEDES' THEN r.at END
