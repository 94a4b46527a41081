#!/usr/bin/env python3
"""scripts/suite.sh with real OVS, end to end on tiny SB databases: the
model impl 'serialized', the installed binaries (included by default when
--ovs-tree is given) and three commits of a stand-in OVS tree: two whose
"build" wraps the installed programs, one whose configure fails.  The one
results folder and report must hold the model-vs-real section (a parseable
model/real ratio per metric, paired by representation: the wrapped builds
report version 3.1.0, so 'serialized'), the failed build with its log
tail, the real A/B table of the two good builds, the configure flags and
compiler in every real result, the interleaved order (the default with
real builds) in env.json and the section, and no process may be left
running.

usage: test_suite_real.py OVSDB-GEN SOURCE-ROOT BUILD-ROOT
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "pylib"))
from testkit import fail, git  # noqa: E402

GEN, ROOT, BUILD = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path.insert(0, os.path.join(ROOT, "python"))
from jsonbench.realovs.proc import live_pids_mentioning  # noqa: E402
PROGRAMS = {"ovsdb/ovsdb-server": "ovsdb-server",
            "ovsdb/ovsdb-tool": "ovsdb-tool",
            "ovsdb/ovsdb-client": "ovsdb-client",
            "utilities/ovs-appctl": "ovs-appctl"}


def commit_configure(tree, body, n):
    with open(os.path.join(tree, "configure"), "w") as f:
        f.write("#!/bin/sh\n# commit %d\n%s" % (n, body))
    os.chmod(os.path.join(tree, "configure"), 0o755)
    git(tree, "add", ".")
    git(tree, "commit", "-q", "-m", "commit %d" % n)


def stand_in_tree(tree):
    """Three commits: good (wraps the installed programs), bad, good."""
    os.makedirs(tree)
    git(tree, "init", "-q")
    with open(os.path.join(tree, "Makefile.in"), "w") as f:
        f.write("all:\n")
    search = os.environ.get("PATH", "") + ":/usr/sbin:/sbin"
    good = "mkdir -p ovsdb utilities\n"
    for rel, prog in PROGRAMS.items():
        real = shutil.which(prog, path=search)
        if not real:
            print("SKIP: %s is not installed" % prog)
            sys.exit(77)
        good += "printf '#!/bin/sh\\nexec %s \"$@\"\\n' > %s; chmod +x %s\n" \
            % (real, rel, rel)
    good += "cp Makefile.in Makefile\n"
    commit_configure(tree, good, 1)
    commit_configure(tree, "echo 'configure: error: SENTINEL-BUILD-FAILED'"
                     " >&2\nexit 1\n", 2)
    commit_configure(tree, good, 3)


def ours(tmp):
    """pids of live processes whose command line mentions 'tmp'."""
    return live_pids_mentioning(tmp)


def section(md, title):
    m = re.search(r"^## %s\n(.*?)(?=^## |\Z)" % re.escape(title), md,
                  re.M | re.S)
    return m.group(1) if m else None


def main():
    with tempfile.TemporaryDirectory(prefix="realovs-suite-test-") as tmp:
        tree = os.path.join(tmp, "ovs")
        stand_in_tree(tree)
        snap = os.path.join(tmp, "sb.ovsdb")
        log_db = os.path.join(tmp, "sb-log.ovsdb")
        for path, form in ((snap, "snapshot"), (log_db, "log")):
            subprocess.run([GEN, "-q", "--schema",
                            "/usr/share/ovn/ovn-sb.ovsschema", "--profile",
                            os.path.join(ROOT, "datasets/profiles/sb.profile"),
                            "--scale", "0.002", "--form", form,
                            "--txns", "20", "-o", path], check=True)
        out = os.path.join(tmp, "res")
        env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"),
                   PYTHONDONTWRITEBYTECODE="1", TMPDIR=tmp,
                   MPLCONFIGDIR=os.path.join(tmp, "mpl"))
        p = subprocess.run(
            [sys.executable, "-m", "jsonbench.suite", "--no-build",
             "--build-dir", BUILD, "--impls", "serialized",
             "--workloads", "load,dump,compact,monitor", "--clients", "2",
             "--modes", "tree", "--repetitions", "1",
             "--dataset", snap, "--dataset", log_db,
             "--ovs-tree", tree, "--ovs-ref", "HEAD~2,HEAD~1,HEAD",
             "--ovs-cache-dir", os.path.join(tmp, "cache"), "--out", out],
            env=env, capture_output=True, text=True, timeout=600)
        text = p.stdout + p.stderr
        # A failed build is a failure of the run, not its end.
        if p.returncode != 1:
            fail("suite exit %d, wanted 1 (one failed build):\n%s"
                 % (p.returncode, text[-3000:]))
        left = ours(tmp)
        if left:
            fail("processes left behind: %s" % left)

        with open(os.path.join(out, "index.json")) as f:
            index = json.load(f)
        real = [e for e in index["entries"] if e.get("real_ovs")]
        names = sorted({e["impl"] for e in real})
        if names != ["ovs-HEAD", "ovs-HEAD-back2", "ovs-debian"]:
            fail("real targets %s" % names)
        if not any(e["impl"] == "serialized" for e in index["entries"]):
            fail("model impl missing from the same index")
        if {e["ovs_representation"] for e in real} != {"serialized"}:
            fail("representation: %s" % real)
        if {e.get("ovs_server_era") for e in real} != {"pre-2024"}:
            fail("server era (3.1.0 everywhere): %s" % real)
        variants = {e["variant"] for e in real}
        if variants != {"load", "dump", "compact", "monitor-c2"}:
            fail("real variants %s" % variants)
        if not any(f.get("target") == "ovs-HEAD-back1" and
                   "SENTINEL-BUILD-FAILED" in f.get("error", "")
                   for f in index["failures"]):
            fail("failed build not in index failures: %s" % index["failures"])
        for e in real:
            with open(os.path.join(out, e["file"])) as f:
                ctx = json.load(f)["context"]
            if "configure_flags" not in ctx or not ctx.get("compiler"):
                fail("%s: configure flags / compiler not recorded: %s"
                     % (e["file"], ctx))

        with open(os.path.join(out, "env.json")) as f:
            order = json.load(f).get("run_order")
        if order != "interleaved":
            fail("env.json run_order %r: with real builds the default order "
                 "is interleaved" % order)

        with open(os.path.join(out, "report.md")) as f:
            md = f.read()
        mvr = section(md, "Model vs real OVS")
        if mvr is None:
            fail("report has no model-vs-real section")
        if "**Order: interleaved" not in mvr:
            fail("the model-vs-real section does not say interleaved")
        if "SENTINEL-BUILD-FAILED" not in mvr:
            fail("failed build's log tail not in the report")
        for real_name in ("ovs-debian", "ovs-HEAD-back2", "ovs-HEAD"):
            # Stand-in builds wrap the installed 3.1.0: all of them run
            # pre-2024 server code, so each is a labelled reference.
            sub = re.search(r"^### `serialized` vs real `%s` \(reference\)\n"
                            r"(.*?)(?=^### |\Z)"
                            % re.escape(real_name), mvr, re.M | re.S)
            if not sub:
                fail("no pair serialized vs %s labelled reference" % real_name)
            metrics = {}
            for line in sub.group(1).splitlines():
                cells = [c.strip() for c in line.strip("|").split("|")]
                if len(cells) == 5 and cells[0].startswith("SB"):
                    if not re.match(r"^\d+\.\d\dx$", cells[4]):
                        fail("ratio cell %r does not parse" % cells[4])
                    if float(cells[4][:-1]) <= 0:
                        fail("ratio %s not positive" % cells[4])
                    metrics[cells[1]] = cells[4]
            want = {"RSS after load", "load CPU", "compact wall",
                    "compact CPU", "compact peak RSS", "dump CPU (server)",
                    "monitor initial CPU (2 clients)",
                    "monitor updates CPU (2 clients)",
                    "monitor CPU after load (2 clients)"}
            if not want <= set(metrics):
                fail("%s: metrics %s, missing %s" % (
                    real_name, sorted(metrics), sorted(want - set(metrics))))
        if "charts/calibration-serialized-ovs-debian.png" not in mvr or \
                not os.path.exists(os.path.join(
                    out, "charts", "calibration-serialized-ovs-debian.png")):
            fail("calibration chart missing")
        ab = section(md, "Real A/B")
        if ab is None or "Before (`ovs-HEAD-back2`) -> After (`ovs-HEAD`)" \
                not in ab:
            fail("real A/B table of HEAD~2 -> HEAD missing:\n%s" % ab)
        ba = section(md, "Before / After / Change") or ""
        if "ovs-debian" in ba:
            fail("real builds leak into the model's Before/After tables")
        print("ok: model and real OVS in one results folder and report")


main()
