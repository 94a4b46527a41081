"""Command line: python3 -m jsonbench.realovs {build,run} ... (--help)."""

import sys

from . import cli

sys.exit(cli.main(sys.argv[1:]))
