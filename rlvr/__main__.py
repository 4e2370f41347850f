"""`python -m rlvr` runs the CLI."""

import sys

from rlvr.cli import main

sys.exit(main())
