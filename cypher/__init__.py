"""Every Cypher statement Credence runs, one named query per .cypher file (see graph/queries.py).
A package only so that the files ship with any install of the service."""
