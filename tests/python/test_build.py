#!/usr/bin/env python3
"""jsonbench.build, which every runner goes through: the impls come from
the build, generated datasets follow one staleness rule, one harness
command line (stdlib only).

usage: test_build.py BUILD_ROOT IMPL...   (IMPL...: impl_names, from meson)"""

import os
import shutil
import sys
import tempfile

from jsonbench import build

SKIP = 77
failures = []


def check(ok, what):
    print("%s: %s" % ("ok" if ok else "FAIL", what))
    if not ok:
        failures.append(what)


def test_impls(build_root, names):
    for kind, subdir, prefix in (("harness", "harness", "jsonbench-"),
                                 ("micro", "bench", "jsonbench-micro-")):
        found = build.impls(build_root, kind)
        check(list(found) == names, "%s impls %s == impl_names %s" % (kind, list(found), names))
        want = {i: os.path.join(build_root, subdir, prefix + i) for i in names}
        check(all(os.path.samefile(found[i], want[i]) for i in names if i in found
                  and os.path.exists(found[i])),
              "%s executables are %s/%s<impl>" % (kind, subdir, prefix))
    # tests/gate links jsonbench-ovs-regressed into this very build.
    check("ovs-regressed" not in build.impls(build_root), "a test-only executable is no impl")
    try:
        build.impls(tempfile.gettempdir())
        check(False, "a folder that is no build dir raises BuildError")
    except build.BuildError as exc:
        check("meson" in str(exc), "no build dir: %s" % exc)


def test_stale(tmp):
    made, older, newer = (os.path.join(tmp, n) for n in ("made", "older", "newer"))
    for p, t in ((older, 1000), (made, 2000), (newer, 3000)):
        open(p, "w").close()
        os.utime(p, (t, t))
    check(not build.is_stale(made, [older]), "older inputs: reused")
    check(build.is_stale(made, [older, newer]), "one newer input: stale")
    check(build.is_stale(os.path.join(tmp, "missing"), [older]), "missing file: stale")
    check(not build.is_stale(made, [os.path.join(tmp, "gone")]), "a vanished input is no reason")


def test_datasets(build_root, tmp):
    profile = os.path.join(tmp, "nb.profile")
    shutil.copy(os.path.join(build.PROFILES_DIR, "nb.profile"), profile)
    said = []
    out = os.path.join(tmp, "data")

    def make(**kw):
        del said[:]
        return build.ensure_dataset(build_root, "nb", 0.0005, "snapshot", seed=3, out_dir=out,
                                    profile=profile, say=said.append, **kw)
    # Every input older than anything made here, as in a real tree.
    past = os.path.getmtime(os.path.join(build_root, "datasets", "ovsdb-gen")) - 1000
    os.utime(profile, (past, past))
    path = make()
    check(os.path.basename(path) == "nb-s0.0005-snapshot-seed3.ovsdb", "name: %s" % path)
    check(os.path.getsize(path) > 0 and "generating" in said[0], "generated: %s" % said)
    check(make() == path and "reusing" in said[0], "up to date: reused (%s)" % said)
    os.utime(path, (past + 10, past + 10))
    os.utime(profile, (past + 20, past + 20))
    make()
    check("generating" in said[0], "profile newer: regenerated (%s)" % said)
    make()
    check("reusing" in said[0], "then reused again (%s)" % said)
    make(regenerate=True)
    check("generating" in said[0], "regenerate=True: generated (%s)" % said)
    check(os.listdir(out) == [os.path.basename(path)], "nothing else left: %s" % os.listdir(out))
    log_path = build.ensure_dataset(build_root, "nb", 0.0005, "log", 3, out, txns=5,
                                    profile=profile, say=said.append)
    check(log_path.endswith("nb-s0.0005-log-seed3-txns5.ovsdb"), "txns in the name: %s" % log_path)

    try:
        build.ensure_dataset(build_root, "nb", 0.0005, "snapshot", 3, out,
                             profile=os.path.join(tmp, "no.profile"), say=said.append)
        check(False, "a missing profile raises DatasetError")
    except build.DatasetError as exc:
        check("no.profile" in str(exc), "missing profile named: %s" % exc)
    bad = os.path.join(tmp, "bad.ovsschema")
    with open(bad, "w") as f:
        f.write("{not json")
    try:
        build.ensure_dataset(build_root, "nb", 0.0005, "snapshot", 4, out, profile=profile,
                             schema=bad, say=said.append)
        check(False, "a failing generator raises DatasetError")
    except build.DatasetError as exc:
        check("bad.ovsschema" in str(exc), "generator failure reported: %s" % str(exc)[:160])
    check(not any("seed4" in n for n in os.listdir(out)), "no partial file: %s" % os.listdir(out))


def test_harness_cmd():
    cmd = build.harness_cmd("exe", "dump", "db", ["--batches", "2"], seed=7, results="r.json",
                            output="o", sha256=False)
    check(cmd == ["exe", "dump", "--repetitions", "1", "--seed", "7", "--no-sha256",
                  "--results", "r.json", "--batches", "2", "--output", "o", "db"],
          "dump command: %s" % cmd)
    cmd = build.harness_cmd("exe", "txn", None, ["--clients", "5"])
    check(cmd == ["exe", "txn", "--repetitions", "1", "--seed", "1", "--clients", "5"],
          "built-in txn, no results: %s" % cmd)
    try:
        build.harness_cmd("exe", "compact", "db")
        check(False, "compact without an output file raises ValueError")
    except ValueError as exc:
        check("output" in str(exc), "compact needs --output: %s" % exc)


def main():
    build_root, names = os.path.abspath(sys.argv[1]), sys.argv[2:]
    if not os.path.exists(build.SCHEMAS["nb"]):
        print("no OVN NB schema: skipped")
        return SKIP
    test_impls(build_root, names)
    test_harness_cmd()
    with tempfile.TemporaryDirectory(prefix="test-build-") as tmp:
        test_stale(tmp)
        test_datasets(build_root, tmp)
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
