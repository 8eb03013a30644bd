"""The one write path: every new memory, with or without a claim, from the API, a batch, an
import or a pipeline, is written by WriteService."""
