// Audit records of belief changes: who, when, what, and the state before and after (JSON), each
// linked to the memories it touched. One statement for all the records of one change.
// params: agent, records
// returns: scalar
UNWIND $records AS r
CREATE (o:Operation {id: r.id, agent: $agent, op: r.op, actor: r.actor, at: datetime(r.at),
                     before: r.before, after: r.after})
WITH o, r
CALL (o, r) {
  UNWIND r.memory_ids AS memory_id
  MATCH (m:Memory {agent: $agent, id: memory_id})
  CREATE (o)-[:TOUCHED]->(m)
  RETURN count(*) AS touched
}
RETURN count(o) AS recorded
