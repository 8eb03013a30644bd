"""`python -m credence_client`: the `credence` command line."""
import sys

from credence_client.cli import main

sys.exit(main())
