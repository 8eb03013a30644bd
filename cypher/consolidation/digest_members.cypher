// Before digests are written: each cluster's members, write-locked, and those still active and not
// covered by a digest; and whether the digest already exists. A cluster whose members changed is left
// for the next run.
// params: agent, clusters
// returns: many
UNWIND $clusters AS cl
CALL (cl) {
  UNWIND cl.members AS mid
  MATCH (m:Memory {agent: $agent, id: mid})
  SET m.locking = true
  REMOVE m.locking
  WITH m
  WHERE m.status = 'active' AND NOT EXISTS { (m)<-[:DIGEST_OF]-(:Memory {agent: $agent}) }
  RETURN count(m) AS ready
}
RETURN cl.id AS id, ready, EXISTS { MATCH (:Memory {agent: $agent, id: cl.id}) } AS exists
