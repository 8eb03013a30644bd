// Conflict and duplicate detection look claims up by (agent, subject, predicate).
// returns: write
CREATE INDEX claim_agent_subject_predicate IF NOT EXISTS FOR (c:Claim) ON (c.agent, c.subject, c.predicate)
