"""Small helpers the Python test scripts share: counted checks, named
checks run in a scratch folder (and the command line of a script of
them), and git in a throw-away tree.

A script finds this folder with
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "pylib"))
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile


class Checks:
    """check(cond, what) records a failure and goes on, so one run shows
    every broken expectation; finish() turns them into the exit status."""

    def __init__(self, stream=None):
        self.failures = []
        self.stream = stream

    def __call__(self, cond, what):
        if not cond:
            self.failures.append(what)
            print("FAIL: " + what, file=self.stream or sys.stdout)
        return bool(cond)

    def finish(self, ok_line):
        """Exit status for main(): 1 after any failure, else 0 and ok_line."""
        if self.failures:
            print("%d failure(s)" % len(self.failures),
                  file=self.stream or sys.stdout)
            return 1
        print(ok_line)
        return 0


class Failure(Exception):
    """Raised by require(): the first broken expectation ends the check."""


def require(cond, msg):
    if not cond:
        raise Failure(msg)


def named_check_parser(checks, *options):
    """The command line of a script of named checks: the one to run (a
    name in 'checks'), and each of 'options' as a required option."""
    ap = argparse.ArgumentParser()
    ap.add_argument("check", choices=sorted(checks))
    for option in options:
        ap.add_argument(option, required=True)
    return ap


def run_named_check(name, body, prefix):
    """Run body(tmp) in a fresh scratch folder; on Failure print it, keep
    the folder for a look and return 1; on success remove it, return 0.
    A check that exits (skipped, or re-run elsewhere) leaves nothing."""
    tmp = tempfile.mkdtemp(prefix=prefix)
    try:
        body(tmp)
    except SystemExit:
        shutil.rmtree(tmp)
        raise
    except Failure as e:
        print("FAIL %s: %s" % (name, e))
        print("(files kept in %s)" % tmp)
        return 1
    shutil.rmtree(tmp)
    print("ok %s" % name)
    return 0


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def git(tree, *args):
    """git in a test tree, with an identity so commits work anywhere."""
    subprocess.run(["git", "-C", tree, "-c", "user.name=t",
                    "-c", "user.email=t@t", *args], check=True,
                   capture_output=True)


def generate_tiny_nb(gen, root, path, scale="0.002"):
    """A tiny NB database from the built-in profile, for runs that only
    need some valid OVSDB file."""
    subprocess.run([gen, "-q", "--schema", "/usr/share/ovn/ovn-nb.ovsschema",
                    "--profile", os.path.join(root, "datasets/profiles/nb.profile"),
                    "--scale", scale, "-o", path], check=True)
