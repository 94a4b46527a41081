#!/usr/bin/env python3
"""Patches on a real OVS git tree (realovs/patches.py), no build: a patch
made here against lib/json.c of JSONBENCH_OVS_REF (default v3.7.1)
applies in a scratch clone of the tree; one whose context is not there
fails naming the patch, lib/json.c and the hunk.  Needs an OVS git tree:
set JSONBENCH_OVS_TREE=DIR (a clone of github.com/openvswitch/ovs);
without it the test is skipped (exit 77), as in CI, which cannot fetch
OVS.

usage: test_patches_ovs.py SOURCE-ROOT
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "pylib"))
from testkit import Checks  # noqa: E402

ROOT = sys.argv[1]
sys.path.insert(0, os.path.join(ROOT, "python"))
from jsonbench.realovs import build as B  # noqa: E402
from jsonbench.realovs import patches as P  # noqa: E402

check = Checks()


def make_patch(path, subject, old, new, orig):
    """A format-patch-like mail changing 'old' to 'new' in lib/json.c
    (whose text is 'orig'), made with git diff --no-index."""
    with tempfile.TemporaryDirectory() as d:
        for side, text in (("a", orig), ("b", orig.replace(old, new, 1))):
            os.makedirs(os.path.join(d, side, "lib"))
            with open(os.path.join(d, side, "lib", "json.c"), "w") as f:
                f.write(text)
        diff = subprocess.run(["git", "diff", "--no-index", "a/lib/json.c",
                               "b/lib/json.c"], cwd=d, capture_output=True,
                              text=True).stdout
    diff = diff.replace("a/a/lib/json.c", "a/lib/json.c").replace(
        "b/b/lib/json.c", "b/lib/json.c")
    with open(path, "w") as f:
        f.write("From 0000000000000000000000000000000000000000 Mon Sep 17 "
                "00:00:00 2001\nFrom: Test <test@example.org>\nDate: Mon, 1 "
                "Jan 2024 00:00:00 +0000\nSubject: [PATCH] %s\n\nTest.\n---\n"
                % subject + diff)


def main():
    tree = os.environ.get("JSONBENCH_OVS_TREE")
    if not tree:
        print("SKIP: no OVS git tree (set JSONBENCH_OVS_TREE=DIR to a clone "
              "of github.com/openvswitch/ovs; CI cannot fetch OVS)")
        return 77
    ref = os.environ.get("JSONBENCH_OVS_REF", "v3.7.1")
    commit = B.resolve(tree, ref)
    orig = B._git(tree, "show", "%s:lib/json.c" % commit).decode()
    anchor = "json_create(enum json_type type)\n{\n"
    if anchor not in orig:
        print("SKIP: %s has no json_create() to patch" % ref)
        return 77
    with tempfile.TemporaryDirectory(prefix="realovs-ovs-patch-") as tmp:
        good = os.path.join(tmp, "0001-json-comment.patch")
        make_patch(good, "json: A comment.", anchor,
                   anchor + "    /* patched */\n", orig)
        bad = os.path.join(tmp, "0001-json-stale.patch")
        make_patch(bad, "json: Stale context.", anchor,
                   anchor + "    /* patched */\n",
                   orig.replace(anchor, anchor + "    /* not in OVS */\n"))
        scratch = os.path.join(tmp, "scratch")
        P.scratch_clone(tree, commit, scratch)
        applied = P.apply(scratch, [good])
        with open(os.path.join(scratch, "lib", "json.c")) as f:
            check("/* patched */" in f.read(), "patch applied to %s" % ref)
        check(applied[0]["subjects"] == ["[PATCH] json: A comment."],
              "subject recorded: %s" % applied)
        scratch2 = os.path.join(tmp, "scratch2")
        P.scratch_clone(tree, commit, scratch2)
        try:
            P.apply(scratch2, [bad])
            check(False, "a stale patch applied")
        except P.PatchError as exc:
            msg = str(exc)
            check("0001-json-stale.patch" in msg and "lib/json.c" in msg and
                  "patch failed: lib/json.c:" in msg,
                  "stale patch named with file and hunk:\n" + msg)
    return check.finish("ok: patches on %s of %s" % (ref, tree))


sys.exit(main())
