// A thread's turns by tenant and thread id: hard delete asks whether a thread keeps any turn, and
// import finds a thread's last turn.
// returns: write
CREATE INDEX memory_agent_thread IF NOT EXISTS FOR (m:Memory) ON (m.agent, m.thread)
