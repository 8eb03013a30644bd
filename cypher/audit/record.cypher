// Audit records of belief changes: who, when, what, and the state before and after (JSON), each
// linked to the memories it touched; `job_id` names the maintenance job that made the change (null
// for a caller's change: the property is then absent). One statement for all the records of one change.
// The records arrive inside one map, `log`, so their number does not key the plan (docs/backends.md 2.23).
// params: agent, log
// returns: scalar
UNWIND $log.records AS r
CREATE (o:Operation {id: r.id, agent: $agent, op: r.op, actor: r.actor, at: datetime(r.at),
                     before: r.before, after: r.after, job_id: r.job_id})
WITH o, r
CALL (o, r) {
  UNWIND r.memory_ids AS memory_id
  MATCH (m:Memory {agent: $agent, id: memory_id})
  CREATE (o)-[:TOUCHED]->(m)
  RETURN count(*) AS touched
}
RETURN count(o) AS recorded
