"""python3 -m jsonbench SUBCOMMAND ... (scripts/jsonbench)."""
import sys

from .cli import main

sys.exit(main(sys.argv[1:]))
