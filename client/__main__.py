"""`python -m client`: the `credence` command line."""
import sys

from client.cli import main

sys.exit(main())
