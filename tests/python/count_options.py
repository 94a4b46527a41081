#!/usr/bin/env python3
"""The option census: every command-line option across the project's entry
points, and one meaning per name.  Every argparse parser of the Python
commands (sub-commands included) is found by running each entry point's
main() with parse_args intercepted; the shell scripts under scripts/ add
the options they parse themselves (their `case` patterns).  Prints one line
per entry point and the total.  With --max N it exits 1 when:

- the total is above N, or one setting has two names (SYNONYMS);
- one option name has two meanings across commands: another action,
  type, nargs, choices or value (metavar) as shown by --help, another
  default, or another help text (unless listed in WORDED, whose help
  names what the option counts or holds in that command), or an absolute
  path of this tree in its help;
- an option is spelled as a subcommand with another meaning (--parallel
  next to `parallel`; AS_SUBCOMMAND lists the ones that mean the same);
- a `--help` usage line names another command than the one typed: each
  command of TYPED (scripts/jsonbench SUB, the scripts/*.sh wrappers and
  their sub-commands) is run with --help and its usage must start with it.

--self-test checks that a made-up pair of parsers with a clash of each
kind is caught, and that a clean pair is not.

usage: count_options.py [--max N] [--list] [--self-test] [SOURCE_ROOT]
(run from any tree: PYTHONPATH=SOURCE_ROOT/python)"""

import argparse
import concurrent.futures
import contextlib
import glob
import importlib
import io
import os
import re
import subprocess
import sys
import tempfile

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
            ("--out-file", "--measure-only")]

# Options whose help may be worded per command: the same setting, its value
# and default checked alike, but the help names what it counts or holds there.
WORDED = {
    "--repetitions": "what one repetition is (a process per job, per side, per commit)",
    "--resume": "what the folder lacks (jobs, runs, commits)",
    "--out": "which results folder (its default name, or a new folder for join/merge)",
    "--shards": "cut a plan (a study) or how many it was cut into (merge, engines)",
    "--ovs-tree": "what the OVS tree is used for in that command",
    "--ovs-ref": "the ref forms the command expands (tag globs and ranges in history)",
    "--build-dir": "what the build dir holds for that command",
    "--dry-run": "what the plan is (the gate prints it as JSON)",
    "--metrics": "which metric names the command knows",
    "--workloads": "which workloads the command runs",
    "--scale": "a list of scales, or one (claims)",
    "--threshold": "which metrics and which defaults the gate knows",
    "--out-file": "what the file holds (figures; figures and verdicts)",
    "--claims": "which claims files the command reads",
    "--ovs-retry-failed": "commits or targets",
}

# Clashes known and left for later: (option, what), why.
KNOWN = {}

# Options spelled as a subcommand that mean the same thing.
AS_SUBCOMMAND = {
    "--claims": "the claims files that the claims subcommand reproduces",
    "--impls": "impls as the impls subcommand lists them",
}

# The commands a user types, each run with --help: its usage must name it.
# Sub-commands of argparse sub-parsers are added from the parsers found.
TYPED = [["scripts/jsonbench", s] for s in (
    "run", "claims", "gate", "compare", "report", "join", "merge", "slurm", "parallel",
    "ovs", "history", "find", "impls")] + [
    ["scripts/jsonbench", "gate", "--series"],
    ["scripts/suite.sh"], ["scripts/reproduce.sh"], ["scripts/gate.sh"],
    ["scripts/gate.sh", "--series"], ["scripts/compare"], ["scripts/real-ovs.sh"]]
SUBCOMMANDS = {"scripts/jsonbench ovs": "jsonbench.realovs.cli",
               "scripts/real-ovs.sh": "jsonbench.realovs.cli"}


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


def commands(parser):
    """(prog, parser) of the parser and of its sub-parsers, depth first."""
    out = [(parser.prog, parser)]
    for a in parser._actions:
        if isinstance(a, argparse._SubParsersAction):
            for sub in a.choices.values():
                out += commands(sub)
    return out


def options(parser):
    out = set()
    for _, p in commands(parser):
        for a in p._actions:
            out |= {o for o in a.option_strings if o.startswith("--") and o != "--help"}
    return out


def shown_default(value, root):
    """A default as a user reads it: paths in this tree relative to it,
    numbers and strings alike (0.01 and '0.01' are one default)."""
    if isinstance(value, str) and os.path.isabs(value) and \
            os.path.realpath(value).startswith(os.path.realpath(root) + os.sep):
        value = os.path.relpath(os.path.realpath(value), os.path.realpath(root))
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, (int, float)):
        return "%g" % value
    if isinstance(value, (list, tuple)):
        return "[%s]" % ",".join(shown_default(v, root) for v in value)
    return str(value)


def meanings(parsers, root):
    """{option: {command: (meaning, default, help)}} over every command."""
    fmt = argparse.HelpFormatter("x")
    out = {}
    for parser in parsers:
        for prog, p in commands(parser):
            for a in p._actions:
                if isinstance(a, (argparse._SubParsersAction, argparse._HelpAction)):
                    continue
                shown = fmt._format_args(a, a.dest.upper()) if a.nargs != 0 else ""
                kind = (type(a).__name__.strip("_"), getattr(a.type, "__name__", a.type),
                        a.nargs, shown, tuple(a.choices) if a.choices else None,
                        a.const if a.nargs == 0 else None)
                for o in a.option_strings:
                    if o.startswith("--"):
                        out.setdefault(o, {})[prog] = (kind, shown_default(a.default, root),
                                                       a.help or "")
    return out


def clashes(table, root, subcommands=()):
    """Human-readable lines, one per option with two meanings."""
    lines = []
    for opt in sorted(table):
        per = table[opt]
        for i, what in enumerate(("meaning", "default", "help")):
            if what == "help" and opt in WORDED or (opt, what) in KNOWN:
                continue
            seen = {}
            for prog, row in per.items():
                seen.setdefault(row[i], []).append(prog)
            if len(seen) > 1:
                lines.append("%s has %d %ss: %s" % (opt, len(seen), what, "; ".join(
                    "%s in %s" % (k if what != "meaning" else
                                  "%s %s nargs=%s %r choices=%s" % k[:5],
                                  ", ".join(sorted(v))) for k, v in seen.items())))
        for prog, row in per.items():
            if os.path.realpath(root) in row[2] or (root in row[2] and root != "."):
                lines.append("%s shows a path of this tree in %s's help: %s" % (opt, prog, row[2]))
        if opt[2:] in subcommands and opt not in AS_SUBCOMMAND:
            lines.append("%s is spelled as the subcommand %s" % (opt, opt[2:]))
    return lines


def usage_errors(root, typed):
    """Commands whose --help usage line does not start with what was typed."""
    env = dict(os.environ)
    env.pop("JSONBENCH_PROG", None)

    def check(argv):
        r = subprocess.run(argv + ["--help"], cwd=root, env=env, capture_output=True,
                           text=True, timeout=240)
        want = " ".join(argv)
        first = (r.stdout or r.stderr).lstrip().split("\n", 1)[0]
        if r.returncode != 0 or not (first + " ").startswith("usage: %s " % want):
            return ("%s --help: usage names another command (exit %d): %s"
                    % (want, r.returncode, first[:100]))
        return None

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        return [e for e in pool.map(check, typed) if e]


def typed_commands(per_module):
    """TYPED plus the argparse sub-commands of the commands that have them."""
    out = list(TYPED)
    for prefix, module in SUBCOMMANDS.items():
        for parser in per_module.get(module) or []:
            for prog, _ in commands(parser)[1:]:
                out.append(prefix.split() + prog.split()[-1:])
    return out


def self_test():
    """A made-up pair of commands with each kind of clash must be caught."""
    def pair(a_kw, b_kw, name="--thing"):
        a = argparse.ArgumentParser(prog="one")
        b = argparse.ArgumentParser(prog="two")
        a.add_argument(name, **a_kw)
        b.add_argument(name, **b_kw)
        return clashes(meanings([a, b], "/nonexistent"), "/nonexistent", {"parallel"})

    def kinds(lines):
        return sorted({re.sub(r"^--\w+ (has \d+ |shows a )?(\w+).*", r"\2", x, flags=re.S)
                       for x in lines})

    same = dict(metavar="N", type=int, default=3, help="how many")
    cases = {
        "clean": (same, same, []),
        "type": (same, dict(same, type=float), ["meanings"]),
        "metavar": (same, dict(same, metavar="GOOD..BAD"), ["meanings"]),
        "nargs": (same, dict(same, nargs="+"), ["meanings"]),
        "action": (dict(help="x", action="store_true"), dict(help="x", action="append"),
                   ["defaults", "meanings"]),
        "default": (same, dict(same, default=5), ["defaults"]),
        "help": (same, dict(same, help="how few"), ["helps"]),
        "abs path": (dict(same, default="build"), dict(same, default="/nonexistent/build",
                                                       help="how many (default /nonexistent/build)"),
                     ["helps", "path"]),
    }
    bad = []
    for what, (a, b, want) in cases.items():
        got = pair(a, b)
        if kinds(got) != want:
            bad.append("%s: found %s, expected %s: %s" % (what, kinds(got), want, got))
    if len(pair(dict(action="store_true"), dict(action="store_true"), "--parallel")) != 1:
        bad.append("--parallel next to the subcommand parallel not caught")
    # 0.01 and "0.01", build and ROOT/build: one default as shown.
    if pair(dict(default=0.01), dict(default="0.01")):
        bad.append("0.01 and '0.01' taken for two defaults")
    # A usage line naming another command than the one typed.
    with tempfile.TemporaryDirectory() as tmp:
        for name, prog in (("right", "sh right"), ("wrong", "scripts/other.sh")):
            with open(os.path.join(tmp, name), "w") as f:
                f.write("echo 'usage: %s [-h]'\n" % prog)
        got = usage_errors(tmp, [["sh", "right"], ["sh", "wrong"]])
        if [x.split(" --help")[0] for x in got] != ["sh wrong"]:
            bad.append("usage naming another command: found %s, expected sh wrong" % got)
    for line in bad:
        print("self-test FAILED: " + line)
    print("self-test: %d cases, %s" % (len(cases) + 3, "FAILED" if bad else "ok"))
    return 1 if bad else 0


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
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("root", nargs="?", default=os.path.join(os.path.dirname(
        os.path.abspath(__file__)), "..", ".."))
    args = ap.parse_args()
    status = self_test() if args.self_test else 0
    root = os.path.abspath(args.root)
    per, per_module, parsers = {}, {}, []
    try:    # trees where compare and report import each other: report first
        importlib.import_module("jsonbench.report")
    except ImportError:
        pass
    for module, argv in ENTRY_POINTS:
        ps = parsers_of(module, argv)
        if ps is None:
            continue
        per_module[module] = ps
        parsers += ps
        per[" ".join([module] + argv)] = set().union(*[options(p) for p in ps]) if ps else set()
    per.update(shell_options(root))
    total = set().union(*per.values())
    for name, opts in per.items():
        print("%-28s %3d%s" % (name, len(opts), "  " + " ".join(sorted(opts))
                                 if args.list else ""))
    print("distinct options: %d" % len(total))
    twice = [pair for pair in SYNONYMS if all(o in total for o in pair)]
    for pair in twice:
        print("one setting, two names: %s" % " / ".join(pair))
    subs = {t[1] for t in TYPED if t[0] == "scripts/jsonbench"}
    two = clashes(meanings(parsers, root), root, subs)
    two += ["%s is spelled as the subcommand %s in %s" % (o, o[2:], name)
            for name, opts in per.items() if name.startswith("scripts/")
            for o in sorted(opts) if o[2:] in subs and o not in AS_SUBCOMMAND]
    for (opt, what), why in KNOWN.items():
        print("known, left for later: %s has two %ss: %s" % (opt, what, why))
    for line in two:
        print("two meanings: " + line)
    usage = usage_errors(root, typed_commands(per_module)) if args.max is not None else []
    for line in usage:
        print("usage: " + line)
    print("options with two meanings: %d; usage lines naming another command: %d"
          % (len(two), len(usage)))
    if args.max is not None and (len(total) > args.max or twice or two or usage):
        print("FAIL: more than %d distinct options, a setting with two names, a name "
              "with two meanings or a usage naming another command" % args.max)
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
