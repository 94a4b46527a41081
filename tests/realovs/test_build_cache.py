#!/usr/bin/env python3
"""The build cache without building OVS: a tiny git tree whose configure
fails stands for a commit that does not build.  Its failure is reported
with the log tail, cached by commit (a second run does not rebuild), and
does not stop the installed target's run.  A tree whose build succeeds
(fake programs) is cached and reused, and its target (from the cache)
has its server code era.  A git tree (no configure yet) on a machine
without autoreconf is refused with the tools named and nothing cached.

usage: test_build_cache.py OVSDB-GEN SOURCE-ROOT
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "pylib"))
from testkit import fail, git, generate_tiny_nb  # noqa: E402

GEN, ROOT = sys.argv[1], sys.argv[2]


def make_tree(tree, configure):
    os.makedirs(tree)
    git(tree, "init", "-q")
    with open(os.path.join(tree, "configure"), "w") as f:
        f.write("#!/bin/sh\n" + configure)
    os.chmod(os.path.join(tree, "configure"), 0o755)
    with open(os.path.join(tree, "Makefile.in"), "w") as f:
        f.write("all:\n")
    git(tree, "add", ".")
    git(tree, "commit", "-q", "-m", "t")


def cli(tmp, *args, **env_extra):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"),
               PYTHONDONTWRITEBYTECODE="1", TMPDIR=tmp, **env_extra)
    return subprocess.run([sys.executable, "-m", "jsonbench.realovs",
                           *args], env=env, capture_output=True, text=True,
                          timeout=120)


def main():
    with tempfile.TemporaryDirectory(prefix="realovs-cache-test-") as tmp:
        cache = os.path.join(tmp, "cache")
        bad = os.path.join(tmp, "bad")
        make_tree(bad, "echo 'checking for a working compiler... no' >&2\n"
                  "echo 'configure: error: SENTINEL-CONFIGURE-FAILED' >&2\n"
                  "exit 1\n")
        db = os.path.join(tmp, "nb.ovsdb")
        generate_tiny_nb(GEN, ROOT, db)
        out = os.path.join(tmp, "res")
        p = cli(tmp, "run", "--ovs-installed", "--ovs-tree", bad,
                "--ovs-ref", "HEAD", "--ovs-cache-dir", cache,
                "--dataset", db, "--workloads", "load",
                "--repetitions", "1", "--out", out)
        if p.returncode != 1:
            fail("failed build: exit %d, wanted 1\n%s"
                 % (p.returncode, p.stderr))
        if "SENTINEL-CONFIGURE-FAILED" not in p.stderr:
            fail("failed build: log tail not reported:\n" + p.stderr)
        with open(os.path.join(out, "index.json")) as f:
            index = json.load(f)
        if [e["impl"] for e in index["entries"]] != ["ovs-debian"]:
            fail("installed target did not run: %s" % index)
        if not any(f.get("target") == "ovs-HEAD" for f in index["failures"]):
            fail("build failure not in index.json: %s" % index["failures"])
        keys = [k for k in os.listdir(cache) if not k.endswith(".lock")]
        if len(keys) != 1 or len(keys[0]) != 40:
            fail("cache not keyed by commit: %s" % keys)
        meta_path = os.path.join(cache, keys[0], "build.json")
        with open(meta_path) as f:
            meta = json.load(f)
        if meta["ok"] or "--disable-ssl" not in meta["configure_flags"]:
            fail("failed build: both configure tries not recorded: %s"
                 % meta)
        stamp = os.stat(meta_path).st_mtime_ns
        p = cli(tmp, "build", "--ovs-tree", bad, "--ovs-ref", "HEAD",
                "--ovs-cache-dir", cache)
        if p.returncode != 1 or "cached failed build" not in p.stderr:
            fail("second run: %d %s" % (p.returncode, p.stderr))
        if os.stat(meta_path).st_mtime_ns != stamp:
            fail("second run rebuilt the failed commit")
        print("ok: failed build reported, cached, run went on")

        # A "build" that succeeds: configure writes the four programs as
        # scripts where an OVS tree has them.
        good = os.path.join(tmp, "good")
        make_tree(good, "mkdir -p ovsdb utilities\n"
                  "for p in ovsdb/ovsdb-server ovsdb/ovsdb-tool "
                  "ovsdb/ovsdb-client utilities/ovs-appctl; do\n"
                  "  printf '#!/bin/sh\\necho \"x (Open vSwitch) 9.9.9\"\\n'"
                  " > $p; chmod +x $p\ndone\n"
                  "cp Makefile.in Makefile\n")
        for attempt in (1, 2):
            p = cli(tmp, "build", "--ovs-tree", good, "--ovs-ref", "HEAD",
                    "--ovs-cache-dir", cache)
            if p.returncode:
                fail("good build %d: %s" % (attempt, p.stderr))
            fields = p.stdout.split("\t")
            if fields[0] != "ovs-HEAD" or fields[1] != "9.9.9":
                fail("good build %d printed %r" % (attempt, p.stdout))
            commit = fields[2]
            meta_path = os.path.join(cache, commit, "build.json")
            if attempt == 1:
                stamp = os.stat(meta_path).st_mtime_ns
            elif os.stat(meta_path).st_mtime_ns != stamp:
                fail("second build of a cached commit rebuilt it")
        with open(meta_path) as f:
            meta = json.load(f)
        if not meta["ok"] or meta["configure_flags"] != [] \
                or not meta["compiler"]:
            fail("good build metadata: %s" % meta)
        print("ok: a built commit is cached and reused")

        # The cached build's target still gets its server code era (from
        # its release version here), which every run records.
        sys.path.insert(0, os.path.join(ROOT, "python"))
        from jsonbench.realovs import build as rbuild
        t = rbuild.build_commit(good, "HEAD", cache_dir=cache)
        if t.server_era != "current" or \
                t.context().get("ovs_server_era") != "current":
            fail("cached build without its server era: %r / %r"
                 % (t.server_era, t.context().get("ovs_server_era")))
        print("ok: a cached build records its server era")

        # A git tree needs boot.sh, hence autoreconf: on a PATH without
        # it (and no install allowed) the build is refused before it
        # starts, naming the tools, and the commit is not cached as failed.
        booting = os.path.join(tmp, "booting")
        make_tree(booting, "exit 0\n")
        git(booting, "rm", "-q", "configure")
        git(booting, "commit", "-q", "-m", "no configure")
        bindir = os.path.join(tmp, "bin")
        os.makedirs(bindir)
        for tool in ("git", "sh", "make", "cc"):
            found = shutil.which(tool)
            if found:
                os.symlink(found, os.path.join(bindir, tool))
        p = cli(tmp, "build", "--ovs-tree", booting, "--ovs-ref", "HEAD",
                "--ovs-cache-dir", cache, PATH=bindir, JSONBENCH_NO_INSTALL="1")
        if p.returncode != 1 or "autoreconf" not in p.stderr \
                or "deps.sh --ovs-build" not in p.stderr:
            fail("missing autoreconf: exit %d\n%s" % (p.returncode, p.stderr))
        commit = subprocess.run(["git", "-C", booting, "rev-parse", "HEAD"],
                                capture_output=True, text=True,
                                check=True).stdout.strip()
        if os.path.exists(os.path.join(cache, commit)):
            fail("a missing tool was cached as the commit's failure")
        print("ok: missing build tools named, nothing cached")


main()
