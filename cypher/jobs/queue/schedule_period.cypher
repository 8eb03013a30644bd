// Whether this process enqueues the job of schedule $schedule's period $period: true for exactly one
// caller per period, whatever the number of service processes. The Schedule node is unique by name
// (schedule_name_unique) and write-locked before its last period is read, so of two concurrent
// callers the second waits (Neo4j) or is retried (ArcadeDB) and then sees the period taken. The
// caller enqueues the job in the same transaction. A schedule seen for the first time starts from
// its next period, as cron does: a new deployment runs nothing at start-up.
// params: schedule, period
// returns: scalar
MERGE (s:Schedule {name: $schedule})
  ON CREATE SET s.last_period = datetime($period)
SET s.locking = true
REMOVE s.locking
WITH s, s.last_period AS last
WITH s, last < datetime($period) AS due
FOREACH (_ IN CASE WHEN due THEN [1] ELSE [] END | SET s.last_period = datetime($period))
RETURN due
