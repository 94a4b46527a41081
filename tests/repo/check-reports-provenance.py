#!/usr/bin/env python3
"""Every published report (a .md under reports/ other than reports/README.md)
names the one command that made it and the commit, and no folder a reader
cannot make: a `results/<name>` path must be one that a command the
report documents creates (its --out or --resume folder), or the runners'
placeholder results/<...>; no "(not in git)", no word of a decision taken
before a run.  Checked against samples first, so that a broken pattern
fails instead of passing everything.

Reports whose results folders are not in git and cannot be re-rendered
(STALE, with the reason) are checked as well: their problems are printed
and must still be there, so the list shrinks when they are regenerated.

usage: check-reports-provenance.py SOURCE_ROOT"""

import glob
import os
import re
import sys

STALE = {
    "reports/reference/report.md": "rendered from a join of five reproductions whose "
                                   "folders are not kept",
    "reports/reference/seed3/report.md": "its results folder is not kept",
}

# A command in backquotes, as the reports quote them.
COMMAND = re.compile(r"`([^`]*(?:scripts/|reports/generate\.py)[^`]*)`")
COMMIT = re.compile(r"\bcommit `?[0-9a-f]{7,40}`?")
RESULTS = re.compile(r"(?<![\w./-])results/([A-Za-z0-9][A-Za-z0-9_.+-]*)")
INTERNAL = [re.compile(p, re.I) for p in (r"\(not in git\)", r"decided before (it|they) ran",
                                          r"before (either|any) result was seen")]


def problems(text):
    out = []
    commands = COMMAND.findall(text)
    made = [c for c in commands if "scripts/" in c]
    if not (made and COMMIT.search(text)):
        out.append("no command + commit line (a quoted `scripts/...` command and "
                   "'commit <hash>')")
    created = set()
    for c in commands:
        for m in re.finditer(r"--(?:out|resume)[ =](\S+)", c):
            created.add(m.group(1).rstrip("/"))
    # A folder named with a shell variable or a placeholder ($i, <run>)
    # stands for every folder it names.
    made = [re.compile(re.escape(re.split(r"[$<]", c)[0]) + (r".*" if re.search(r"[$<]", c)
                                                             else r"(/.*)?") + "$")
            for c in created]
    for m in RESULTS.finditer(text):
        path = "results/" + m.group(1).rstrip(".")
        if not any(p.match(path) for p in made):
            out.append("internal folder %s (no documented command creates it)" % path)
    for p in INTERNAL:
        for m in p.finditer(text):
            out.append("internal history: %r" % m.group(0))
    return out


def selftest():
    good = ("Made by `scripts/suite.sh --out results/x` at commit `abc1234`; this "
            "report: `reports/generate.py results/x`.  See results/<run> and "
            "`for i in a b; do scripts/suite.sh --out results/p-$i; done`: results/p-a.")
    bad = [("Made by `scripts/suite.sh` at commit `abc1234`, from results/s10-s2c-1.",
            "internal folder"),
           ("Generated from `results/s12-ref (not in git)`.", "no command"),
           ("Made by `scripts/suite.sh` at commit `abc1234`; it was decided before it "
            "ran that this run would be published.", "internal history"),
           ("Made by `scripts/suite.sh --out results/a`.", "no command + commit")]
    ok = not problems(good)
    if not ok:
        print("FAIL: the sample of a good report is refused: %s" % problems(good))
    for text, want in bad:
        got = problems(text)
        if not any(want in g for g in got):
            print("FAIL: %r not caught (%s): %s" % (text, want, got))
            ok = False
    return ok


def main():
    root = os.path.abspath(sys.argv[1])
    if not selftest():
        return 1
    failed = 0
    reports = sorted(glob.glob(os.path.join(root, "reports", "**", "*.md"), recursive=True))
    reports = [r for r in reports if os.path.relpath(r, root) != "reports/README.md"]
    if len(reports) < 4:
        print("FAIL: the published reports are not found under %s/reports" % root)
        return 1
    for path in reports:
        rel = os.path.relpath(path, root)
        with open(path) as f:
            got = problems(f.read())
        if rel in STALE:
            for g in got:
                print("known (stale: %s): %s: %s" % (STALE[rel], rel, g))
            if not got:
                print("FAIL: %s is listed as stale but passes: take it off STALE" % rel)
                failed += 1
            continue
        for g in got:
            print("FAIL: %s: %s" % (rel, g))
            failed += 1
    if failed:
        return 1
    print("ok: %d published reports name their command and commit, no internal folder"
          % len(reports))
    return 0


sys.exit(main())
