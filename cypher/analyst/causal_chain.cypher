// The causal chain behind a memory: every chain of CAUSES edges (up to 20 links) that ends at it,
// from a first cause that nothing caused, cause to effect, longest first.
// params: agent, id
// returns: many
MATCH (m:Memory {agent: $agent, id: $id})
MATCH chain = (m)<-[:CAUSES*1..20]-(root:Memory {agent: $agent})
WHERE NOT EXISTS { MATCH (root)<-[:CAUSES]-(:Memory) }
RETURN reverse([x IN nodes(chain) | x.id]) AS ids, reverse([x IN nodes(chain) | x.text]) AS cause_to_effect,
       length(chain) AS links
ORDER BY links DESC, ids
