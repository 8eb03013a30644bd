// Workers look for queued jobs that are due, and for running ones whose lease ran out.
// returns: write
CREATE INDEX job_status_run_at IF NOT EXISTS FOR (j:Job) ON (j.status, j.run_at)
