"""What the service says about itself: the Prometheus metrics (metrics.py, one registry for the
process) and the log format (logs.py: text, or one JSON object per line). Both sit at the bottom of
the package order, beside core/, so the gateway and the encoder can report where the work happens."""
