#!/usr/bin/env python3
"""Building real OVS from a source tree (suite 'realovs-build', not in the
default test command: a build takes minutes).  The tree is Debian's
openvswitch-source 3.1.0 tarball; the build goes into a cache under the
meson build dir, so a second run of this test reuses it.  Checks: a
patch that does not apply is named (with its file and hunk) and not
cached, the build succeeds, records flags and compiler, a second build is
a cache hit, and the built ovsdb-server loads a tiny database.

usage: test_build_tarball.py OVSDB-GEN SOURCE-ROOT CACHE-DIR
"""
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "pylib"))
from testkit import fail, generate_tiny_nb  # noqa: E402

GEN, ROOT, CACHE = sys.argv[1], sys.argv[2], sys.argv[3]
TARBALL = "/usr/src/openvswitch/openvswitch.tar.gz"


def cli(tmp, *args, timeout=3600):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"),
               PYTHONDONTWRITEBYTECODE="1", TMPDIR=tmp)
    return subprocess.run([sys.executable, "-m", "jsonbench.realovs",
                           *args], env=env, capture_output=True, text=True,
                          timeout=timeout)


def main():
    if not os.path.exists(TARBALL):
        print("SKIP: %s missing (apt-get install openvswitch-source)"
              % TARBALL)
        sys.exit(77)
    with tempfile.TemporaryDirectory(prefix="realovs-build-test-") as tmp:
        # A patch whose context the tarball lacks: named with its file and
        # hunk before any build, nothing cached for it (docs/patches.md).
        stale = os.path.join(tmp, "stale.diff")
        with open(stale, "w") as f:
            f.write("--- a/lib/json.c\n+++ b/lib/json.c\n@@ -1,2 +1,2 @@\n"
                    " no such line in OVS\n-nor this one\n+patched\n")
        before = set(os.listdir(CACHE)) if os.path.isdir(CACHE) else set()
        p = cli(tmp, "build", "--ovs-tarball", TARBALL, "--ovs-cache-dir", CACHE,
                "--ovs-patch", stale)
        new = {k for k in set(os.listdir(CACHE)) - before
               if not k.endswith(".lock") and "-" in k[4:]}
        if "stale.diff" not in p.stderr or \
                "patch failed: lib/json.c:1" not in p.stderr or new:
            fail("stale patch on the tarball: %s (cached: %s)"
                 % (p.stderr[-1500:], new))
        print("ok: a patch that does not apply to the tarball is named")
        p = cli(tmp, "build", "--ovs-tarball", TARBALL, "--ovs-cache-dir", CACHE)
        if p.returncode:
            fail("build failed:\n%s" % p.stderr)
        name, version, key, server = p.stdout.strip().split("\t")
        if version != "3.1.0" or not os.access(server, os.X_OK):
            fail("unexpected build: %s" % p.stdout)
        meta_path = os.path.join(CACHE, key, "build.json")
        with open(meta_path) as f:
            meta = json.load(f)
        if not meta["ok"] or not meta["compiler"].strip():
            fail("build.json: %s" % meta)
        stamp = os.stat(meta_path).st_mtime_ns
        t0 = time.monotonic()
        p = cli(tmp, "build", "--ovs-tarball", TARBALL, "--ovs-cache-dir", CACHE,
                timeout=120)
        if p.returncode or os.stat(meta_path).st_mtime_ns != stamp:
            fail("second build was not a cache hit: %s" % p.stderr)
        print("ok: built %s (%s, flags %r), cache hit in %.1f s"
              % (version, meta["compiler"], meta["configure_flags"],
                 time.monotonic() - t0))

        db = os.path.join(tmp, "nb.ovsdb")
        generate_tiny_nb(GEN, ROOT, db)
        out = os.path.join(tmp, "res")
        p = cli(tmp, "run", "--ovs-tarball", TARBALL, "--ovs-cache-dir", CACHE,
                "--dataset", db, "--workloads", "load", "--repetitions", "1",
                "--out", out, timeout=300)
        if p.returncode:
            fail("run on the built target failed: %s" % p.stderr)
        with open(os.path.join(out, "index.json")) as f:
            entry = json.load(f)["entries"][0]
        with open(os.path.join(out, entry["file"])) as f:
            doc = json.load(f)
        ctx = doc["context"]
        if ctx["ovs_version"] != "3.1.0" or ctx["ovs_commit"] != key:
            fail("results context: %s" % ctx)
        rss = [b["rss_bytes"] for b in doc["benchmarks"]
               if b["name"] == "load/load"]
        if not rss or not rss[0] > 0:
            fail("no RSS from the built server")
        print("ok: the built ovsdb-server loaded a database, RSS %d" % rss[0])


main()
