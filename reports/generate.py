#!/usr/bin/python3
"""Generate report.md and report.html (+ charts/) from a results folder.

usage: reports/generate.py RESULTS_DIR [--out DIR] [--title TEXT]

Run it with Debian's /usr/bin/python3 (it has matplotlib)."""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from jsonbench_report import generate  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", help="results folder (results/<stamp>-<commit>/) or a JSON file")
    ap.add_argument("--out", help="output folder (default: the results folder)")
    ap.add_argument("--title")
    args = ap.parse_args()
    path = generate(args.results, args.out, args.title)
    print("report: %s" % path)
    print("report: %s" % os.path.join(os.path.dirname(path), "report.md"))


if __name__ == "__main__":
    main()
