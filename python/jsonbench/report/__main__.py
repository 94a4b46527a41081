"""python3 -m jsonbench.report: the report generator's command line."""

import sys

from . import main

sys.exit(main(sys.argv[1:]))
