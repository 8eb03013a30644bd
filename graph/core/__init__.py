"""What every package shares: errors, time, cursors and the vocabularies."""
