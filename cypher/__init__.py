"""Every Cypher statement Credence runs, one named query per .cypher file (loaded and checked by graph/store/registry.py).
A package only so that the files ship with any install of the service."""
