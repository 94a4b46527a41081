#!/usr/bin/env python3
"""Patches and configure variants on real-OVS targets (realovs/build.py,
realovs/patches.py) without OVS: a tiny git tree made here stands for the
OVS tree; its configure writes the four programs as scripts (and records
its arguments), its lib/json.c is what the patches change.

Checks: target specs and names; a format-patch series directory (cover
letter and README skipped) applied in order, cached by the patches'
content (a second build is a hit, an edited patch a new build); the same
series as one mbox, a plain diff, a tarball target; a patch that does not
apply names the patch, the file and the hunk, is not cached, and the
other targets still build; a bad ref is named and does not stop the
others; a configure variant reaches configure and names the allocator;
progress lines name the step.

usage: test_patches.py SOURCE-ROOT
"""
import hashlib
import json
import os
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "pylib"))
from testkit import Checks, git  # noqa: E402

ROOT = sys.argv[1]
sys.path.insert(0, os.path.join(ROOT, "python"))
from jsonbench.realovs import build as B  # noqa: E402
from jsonbench.realovs import patches as P  # noqa: E402

check = Checks()
# Python 2 detection (a pyenv shim) takes seconds per build: not needed.
B.python2 = lambda: None

CONFIGURE = """#!/bin/sh
echo "$@" > configure-args
echo "  CC       lib/json.lo"
sleep 1
mkdir -p ovsdb utilities
for p in ovsdb/ovsdb-server ovsdb/ovsdb-tool ovsdb/ovsdb-client \\
         utilities/ovs-appctl; do
  printf '#!/bin/sh\\necho "x (Open vSwitch) 9.9.9"\\n' > $p; chmod +x $p
done
cp Makefile.in Makefile
"""


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def read(path):
    with open(path) as f:
        return f.read()


def edit(tree, old, new, msg):
    path = os.path.join(tree, "lib", "json.c")
    text = read(path)
    assert old in text, old
    write(path, text.replace(old, new, 1))
    git(tree, "commit", "-q", "-a", "-m", msg)


def make_tree(tree):
    os.makedirs(os.path.join(tree, "lib"))
    git(tree, "init", "-q")
    write(os.path.join(tree, "configure"), CONFIGURE)
    os.chmod(os.path.join(tree, "configure"), 0o755)
    write(os.path.join(tree, "Makefile.in"), "all:\n")
    write(os.path.join(tree, "lib", "json.c"),
          "".join("line %d\n" % i for i in range(1, 41)))
    git(tree, "add", ".")
    git(tree, "commit", "-q", "-m", "base")


def format_patch(tree, n, out, *extra):
    os.makedirs(out, exist_ok=True)
    git(tree, "format-patch", "-q", *extra, "-o", out, "HEAD~%d" % n)
    git(tree, "reset", "-q", "--hard", "HEAD~%d" % n)
    return sorted(os.listdir(out))


def cli(tmp, *args):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"),
               PYTHONDONTWRITEBYTECODE="1", TMPDIR=tmp)
    return subprocess.run([sys.executable, "-m", "jsonbench.realovs", *args],
                          env=env, capture_output=True, text=True,
                          timeout=300)


def src_of(t):
    return os.path.dirname(os.path.dirname(t.path("ovsdb-server")))


def key_of(t):
    return os.path.basename(os.path.dirname(src_of(t)))


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def specs():
    check(B.spec_name("v3.7.1+patches/ovs/arena-read-path")
          == "ovs-v3.7.1+arena-read-path", "series directory -> its name")
    check(B.spec_name("9669b50f5^+fix.patch+x/0001-a.diff@jemalloc")
          == "ovs-9669b50f5-parent+fix+0001-a@jemalloc",
          "patch files lose their extension, the variant stays: %s"
          % B.spec_name("9669b50f5^+fix.patch+x/0001-a.diff@jemalloc"))
    check(B.spec_name("v3.7.1") == "ovs-v3.7.1", "plain ref unchanged")
    check(B.parse_spec("HEAD@{1}") == ("HEAD@{1}", [], None),
          "reflog syntax is not a variant")
    check(B.expand_specs(["a", "b@je"], ["s1", "s2.patch"])
          == ["a", "a+s1+s2.patch", "b@je", "b+s1+s2.patch@je"],
          "each ref, then ref+all patches: %s"
          % B.expand_specs(["a", "b@je"], ["s1", "s2.patch"]))
    check(B.parse_variants(["je=LIBS=-ljemalloc CFLAGS='-O2 -g'"])
          == {"je": ["LIBS=-ljemalloc", "CFLAGS=-O2 -g"]},
          "configure variant arguments are shell-split")
    for bad in (["je"], ["a b=x"]):
        try:
            B.parse_variants(bad)
            check(False, "bad --ovs-configure %r refused" % bad)
        except B.SpecError as exc:
            check("NAME=ARGS" in str(exc), "bad --ovs-configure %r: %s"
                  % (bad, exc))


def main():
    specs()
    with tempfile.TemporaryDirectory(prefix="realovs-patch-test-") as tmp:
        cache = os.path.join(tmp, "cache")
        tree = os.path.join(tmp, "ovs")
        make_tree(tree)
        base_commit = subprocess.run(
            ["git", "-C", tree, "rev-parse", "HEAD"], capture_output=True,
            text=True, check=True).stdout.strip()

        # A series of two, with a cover letter and a README beside it.
        edit(tree, "line 5\n", "line five\n", "json: Five.")
        edit(tree, "line 30\n", "line thirty\n", "json: Thirty.")
        series = os.path.join(tmp, "patches", "my-series")
        names = format_patch(tree, 2, series, "--cover-letter")
        write(os.path.join(series, "README.md"), "what the series does\n")
        check(names[0].startswith("0000-cover"), "cover letter made")

        said = []
        B.PROGRESS_SECONDS = 0.2
        t = B.build_spec(tree, "HEAD+" + series, cache_dir=cache,
                         say=said.append)
        text = read(os.path.join(src_of(t), "lib", "json.c"))
        check("line five\n" in text and "line thirty\n" in text,
              "both patches applied")
        check(t.name == "ovs-HEAD+my-series", "target name %s" % t.name)
        check(t.commit == base_commit, "commit is the base's")
        files = [os.path.basename(p["file"]) for p in t.patches]
        check(files == names[1:], "the two patches, in order, cover letter "
              "and README left out: %s" % files)
        ctx = t.context()
        check(all(sha(os.path.join(series, n)) in ctx.get("ovs_patches", "")
                  for n in names[1:]),
              "context holds each patch's sha256: %r" % ctx.get("ovs_patches"))
        key = key_of(t)
        check(key.startswith(base_commit + "-") and key != base_commit,
              "patched build keyed commit-<patches>: %s" % key)
        check(any(ln.startswith("building HEAD+my-series: ") and
                  "configure: CC lib/json.lo" in ln for ln in said),
              "progress names the step: %s" % said)
        check(any(ln.startswith("applied 0001-") for ln in said),
              "applied patches are said")
        meta_path = os.path.join(cache, key, "build.json")
        with open(meta_path) as f:
            meta = json.load(f)
        check(meta["ok"] and meta["commit"] == base_commit and
              len(meta["patches"]) == 2 and meta["patches"][0]["subjects"]
              == ["[PATCH 1/2] json: Five."],
              "build.json records the patches: %s" % meta.get("patches"))

        stamp = os.stat(meta_path).st_mtime_ns
        t2 = B.build_spec(tree, "HEAD+" + series, cache_dir=cache, say=None)
        check(key_of(t2) == key and os.stat(meta_path).st_mtime_ns == stamp,
              "same patches: cache hit")

        # An edited patch (its message) is another build.
        second = os.path.join(series, names[2])
        write(second, read(second).replace("json: Thirty.",
                                           "json: Thirty, reworded."))
        t3 = B.build_spec(tree, "HEAD+" + series, cache_dir=cache, say=None)
        check(key_of(t3) != key and os.path.exists(meta_path),
              "edited patch: new cache key %s" % key_of(t3))

        # The series as one mbox, as posted to the list; a plain diff.
        mbox = os.path.join(tmp, "series.mbox")
        write(mbox, "".join(read(os.path.join(series, n)) for n in names
                            if n.endswith(".patch")))
        t4 = B.build_spec(tree, "HEAD+" + mbox, cache_dir=cache, say=None)
        check(t4.name == "ovs-HEAD+series" and
              t4.patches[0]["subjects"] == ["[PATCH 1/2] json: Five.",
                                            "[PATCH 2/2] json: Thirty, "
                                            "reworded."],
              "mbox: mails applied, cover letter skipped: %s" % t4.patches)
        edit(tree, "line 12\n", "line twelve\n", "twelve")
        diff = os.path.join(tmp, "twelve.diff")
        write(diff, subprocess.run(["git", "-C", tree, "diff", "HEAD~1"],
                                   capture_output=True, text=True,
                                   check=True).stdout)
        git(tree, "reset", "-q", "--hard", "HEAD~1")
        t5 = B.build_spec(tree, "HEAD+" + diff, cache_dir=cache, say=None)
        check("line twelve\n" in read(os.path.join(src_of(t5), "lib",
                                                   "json.c")),
              "plain diff applied")

        # A tarball target takes patches too.
        tarball = os.path.join(tmp, "openvswitch-9.9.9.tar.gz")
        with open(tarball, "wb") as f:
            f.write(subprocess.run(
                ["git", "-C", tree, "archive", "--format=tar.gz",
                 "--prefix=openvswitch-9.9.9/", "HEAD"], capture_output=True,
                check=True).stdout)
        t6 = B.build_tarball_spec(tarball, [diff], cache_dir=cache, say=None)
        check("line twelve\n" in read(os.path.join(src_of(t6), "lib",
                                                   "json.c"))
              and key_of(t6).startswith("tar-") and len(t6.patches) == 1,
              "tarball target patched: %s" % key_of(t6))
        check(not os.path.exists(os.path.join(src_of(t6), ".git")),
              "no git dir left in a patched tarball's sources")

        # A patch that does not apply, through the runner's command line:
        # named with the file and hunk; the base still builds; nothing of
        # the bad target is cached.
        edit(tree, "line 20\n", "line 20 changed\n", "c1")
        edit(tree, "line 20 changed\n", "line 20 again\n", "c2")
        bad_dir = os.path.join(tmp, "bad")
        bad = os.path.join(bad_dir, format_patch(tree, 1, bad_dir)[0])
        git(tree, "reset", "-q", "--hard", "HEAD~1")
        before = set(os.listdir(cache))
        p = cli(tmp, "build", "--ovs-tree", tree, "--ovs-ref", "HEAD",
                "--ovs-patch", bad, "--ovs-cache-dir", cache)
        check(p.returncode == 1, "bad patch: exit %d" % p.returncode)
        check(p.stdout.startswith("ovs-HEAD\t"), "base target still built: "
              "%r" % p.stdout)
        check(os.path.basename(bad) in p.stderr and "lib/json.c" in p.stderr
              and "patch failed: lib/json.c:" in p.stderr and
              "does not apply" in p.stderr,
              "error names the patch, the file and the hunk:\n" + p.stderr)
        head = p.stdout.split("\t")[2] if p.stdout.count("\t") >= 3 else "?"
        new = {k for k in set(os.listdir(cache)) - before
               if not k.endswith(".lock")}
        check(new == {head}, "nothing cached for the bad patch, only the "
              "base %s: %s" % (head[:12], new))
        p = cli(tmp, "build", "--ovs-tree", tree, "--ovs-ref", "HEAD",
                "--ovs-patch", os.path.join(tmp, "missing.patch"),
                "--ovs-cache-dir", cache)
        check(p.returncode == 1 and "missing.patch: no such file" in p.stderr,
              "missing patch file named: %s" % p.stderr)

        # A bad ref is named; the other target still builds.
        p = cli(tmp, "build", "--ovs-tree", tree, "--ovs-ref",
                "no-such-ref,HEAD", "--ovs-cache-dir", cache)
        check(p.returncode == 1 and "no-such-ref" in p.stderr and
              "ovs-HEAD\t" in p.stdout,
              "bad ref named, the rest goes on: %s" % p.stderr)

        # A configure variant.
        p = cli(tmp, "build", "--ovs-tree", tree, "--ovs-ref", "HEAD@je",
                "--ovs-configure", "je=LIBS=-ljemalloc", "--ovs-cache-dir", cache)
        check(p.returncode == 0 and p.stdout.startswith("ovs-HEAD@je\t"),
              "variant built: %s %s" % (p.stdout, p.stderr))
        if p.returncode == 0:
            server = p.stdout.strip().split("\t")[3]
            srcdir = os.path.dirname(os.path.dirname(server))
            check("LIBS=-ljemalloc" in read(os.path.join(
                srcdir, "configure-args")), "variant's args reach configure")
            t7 = B.build_spec(tree, "HEAD@je", cache_dir=cache,
                              variants={"je": ["LIBS=-ljemalloc"]}, say=None)
            check(t7.allocator == "jemalloc" and
                  t7.context().get("allocator") == "jemalloc" and
                  t7.context().get("ovs_configure_variant") == "je",
                  "jemalloc variant recorded: %s" % t7.context())
        p = cli(tmp, "build", "--ovs-tree", tree, "--ovs-ref", "HEAD@nope",
                "--ovs-cache-dir", cache)
        check(p.returncode != 0 and "@nope is not declared" in p.stderr,
              "undeclared variant refused: %s" % p.stderr)

        # Relative patch paths are the caller's.
        os.environ["JSONBENCH_CALLER_DIR"] = os.path.dirname(series)
        check(P.caller_path("my-series") == series,
              "relative path from JSONBENCH_CALLER_DIR")
    return check.finish("ok: patches, series, mbox, diff, tarball, failures, "
                 "variants")


sys.exit(main())
