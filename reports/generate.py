#!/usr/bin/python3
"""Generate report.md and report.html (+ charts/) from a results folder.

usage: reports/generate.py RESULTS_DIR [--out DIR] [--title TEXT]

A thin wrapper: the generator is python/jsonbench/report/.  Run it with
Debian's /usr/bin/python3 (it has matplotlib)."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "python"))

from jsonbench import options  # noqa: E402
from jsonbench.report import main  # noqa: E402

options.set_caller("report", "reports/generate.py")

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
