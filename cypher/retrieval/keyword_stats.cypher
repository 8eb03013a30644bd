// What keyword search scores a large tenant's memories against (retrieval/keyword_postings): how
// many memories the tenant has and how many words they hold, counted as keyword scoring counts
// them (split on spaces), over every memory of the tenant whatever its status, as the full-text
// index's postings are. Read at query time and kept a short while per process
// (graph/retrieval/keyword_stats.py), so no write keeps a counter of its own.
// params: agent
// returns: one
MATCH (m:Memory {agent: $agent})
RETURN count(m) AS memories, coalesce(sum(size(split(m.text, ' '))), 0) AS words
