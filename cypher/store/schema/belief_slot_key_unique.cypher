// One lock node per (agent, subject, predicate): writers of that belief serialise on it.
// returns: write
CREATE CONSTRAINT belief_slot_key_unique IF NOT EXISTS FOR (s:BeliefSlot) REQUIRE s.key IS UNIQUE
