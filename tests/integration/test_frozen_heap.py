"""What the service holds once started lives as long as the process: Services.start freezes it out of
Python's collector generations, so a full collection no longer walks it in the middle of a search
(about one search in a hundred paused ~10 ms for it; docs/benchmarks.md, "What causes the tail")."""
from __future__ import annotations

import gc


def test_the_objects_alive_after_start_are_frozen_out_of_the_collector(services):
    # The modules, the model's session, the driver and the services: tens of thousands of objects.
    assert gc.get_freeze_count() > 10_000
