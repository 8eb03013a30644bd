"""Public conversational-memory datasets with labelled evidence, for bench/conversation_quality.py.

The data never enters git: each dataset's `fetch_<name>.py` copies it into `bench/data/<name>/`
(git-ignored), or `CREDENCE_BENCH_DATA` points to a directory holding `<name>/`."""
