// Start-up's lock across the service processes of one database: the first statement of a transaction
// kept open while this process applies migrations and schema, so that processes starting together
// take turns instead of racing (graph/store/schema.py: applying_alone). Not tenant data: one node
// per graph, like CredenceMeta.
// params: holder, now
// returns: scalar
MERGE (s:CredenceStartup {key: 'schema'})
SET s.holder = $holder, s.locked_at = datetime($now)
RETURN s.holder AS holder
