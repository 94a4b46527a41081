#!/usr/bin/env python3
"""Counts the distinct command-line options across the project's entry
points: every argparse parser of the Python commands (sub-commands
included), found by running each entry point's main() with parse_args
intercepted, plus the options the shell scripts under scripts/ parse
themselves (their `case` patterns).  Prints one line per entry point and
the total; with --max N exits 1 when the total is above N or when one
setting has two names (the pairs listed in SYNONYMS).

usage: count_options.py [--max N] [--list] [SOURCE_ROOT]
(run from any tree: PYTHONPATH=SOURCE_ROOT/python)"""

import argparse
import contextlib
import glob
import importlib
import io
import os
import re
import sys

# module, argv that reaches its parser (sub-commands are walked)
ENTRY_POINTS = [
    ("jsonbench.suite", []),
    ("jsonbench.reproduce", []),
    ("jsonbench.compare", []),
    ("jsonbench.gate", []),
    ("jsonbench.gateseries", []),
    ("jsonbench.report", []),
    ("jsonbench.build", []),
    ("jsonbench.realovs.cli", []),
    ("jsonbench.cli", ["join"]),
    ("jsonbench.cli", ["merge"]),
    ("jsonbench.cli", ["slurm"]),
    ("jsonbench.cli", ["parallel"]),
    ("jsonbench.cli", ["history"]),
    ("jsonbench.cli", ["find"]),
    ("jsonbench.cli", ["allocators"]),
]

# Settings known to have had two names; both present is a failure.
SYNONYMS = [("--ovs-cache-dir", "--cache-dir"), ("--ovs-installed", "--installed"),
            ("--build", "--build-dir"), ("--claims", "--ovs-claims"),
            ("--only", "--real-only"), ("--only", "--calibration-only"),
            ("--only", "--no-calibration"), ("--only", "--no-micro"),
            ("--repetitions", "--timing-runs"), ("--pair", "--ab"),
            ("--workload-opts", "--harness-args"), ("--dry-run", "--plan"),
            ("--out", "--measure-only")]


class Caught(Exception):
    pass


def parsers_of(module, argv):
    """Every parser the module's main() builds (before it parses)."""
    seen = []
    orig = argparse.ArgumentParser.parse_args
    orig_known = argparse.ArgumentParser.parse_known_args

    def grab(self, *a, **kw):
        if self.add_help:       # helpers with add_help=False pre-parse --resume
            seen.append(self)
            raise Caught()
        return orig_known(self, *a, **kw)

    argparse.ArgumentParser.parse_args = grab
    argparse.ArgumentParser.parse_known_args = grab
    try:
        mod = importlib.import_module(module)
    except ImportError:
        return None
    try:
        main = getattr(mod, "main")
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            main(list(argv))
    except (Caught, SystemExit):
        pass
    finally:
        argparse.ArgumentParser.parse_args = orig
        argparse.ArgumentParser.parse_known_args = orig_known
    return seen


def options(parser):
    out = set()
    for a in parser._actions:
        if isinstance(a, argparse._SubParsersAction):
            for sub in a.choices.values():
                out |= options(sub)
            continue
        out |= {o for o in a.option_strings if o.startswith("--") and o != "--help"}
    return out


def shell_options(root):
    out = {}
    for path in sorted(glob.glob(os.path.join(root, "scripts", "*.sh"))):
        with open(path) as f:
            text = f.read()
        found = set()
        for pat in re.findall(r"^\s*([-|a-z0-9=*\"' ]+)\)", text, re.M):
            for alt in pat.split("|"):
                alt = alt.strip().strip("\"'").split("=")[0].rstrip("*")
                if re.match(r"--[a-z]", alt) and alt != "--help":
                    found.add(alt)
        out["scripts/" + os.path.basename(path)] = found
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--max", type=int)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("root", nargs="?", default=os.path.join(os.path.dirname(
        os.path.abspath(__file__)), "..", ".."))
    args = ap.parse_args()
    per = {}
    try:    # trees where compare and report import each other: report first
        importlib.import_module("jsonbench.report")
    except ImportError:
        pass
    for module, argv in ENTRY_POINTS:
        ps = parsers_of(module, argv)
        if ps is None:
            continue
        per[" ".join([module] + argv)] = set().union(*[options(p) for p in ps]) if ps else set()
    per.update(shell_options(args.root))
    total = set().union(*per.values())
    for name, opts in per.items():
        print("%-28s %3d%s" % (name, len(opts), "  " + " ".join(sorted(opts))
                                 if args.list else ""))
    print("distinct options: %d" % len(total))
    twice = [pair for pair in SYNONYMS if all(o in total for o in pair)]
    for pair in twice:
        print("one setting, two names: %s" % " / ".join(pair))
    if args.max is not None and (len(total) > args.max or twice):
        print("FAIL: more than %d distinct options, or a setting with two names" % args.max)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
