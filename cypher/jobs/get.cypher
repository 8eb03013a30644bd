// One job of the tenant.
// params: agent, id
// returns: optional
MATCH (j:Job {agent: $agent, id: $id})
// include: jobs/view
