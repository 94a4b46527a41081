"""Build cache for real OVS: one build per commit (or source tarball).

A build lives in <cache>/<key>/ (key = full commit id, or "tar-<sha256>"
for a tarball): src/ is a clean copy of the tree at that commit, build.log
is the whole boot/configure/make log and build.json records the outcome,
the configure flags and the compiler.  A second run with the same key reads
build.json and does not rebuild.  A failed build is cached too (so a suite
does not retry a commit that cannot build with this toolchain) unless
retry_failed is set.
"""

import fcntl
import glob
import json
import os
import shutil
import subprocess
import tarfile
import time

from . import representation
from . import target as target_mod
from ..util import sha256_of

# Tried in order; the first set that configures and builds wins.  Old
# releases may not compile against OpenSSL 3, so the second try drops SSL;
# releases before 2.8 run Python 2 build scripts (ovsdb-idlc), so the last
# try also names a Python 2 interpreter, when the machine has one.
CONFIGURE_TRIES = ([], ["--disable-ssl"])
LOG_TAIL_LINES = 30


class BuildError(Exception):
    pass


class MissingTools(BuildError):
    """The machine lacks a build tool: not the commit's fault, so never
    cached as its failure."""


# What boot.sh (a git tree has no configure yet), configure and make call.
BOOT_TOOLS = ("autoreconf", "automake", "libtoolize")
MAKE_TOOLS = ("make", "cc")


def _missing_tools(src):
    need = MAKE_TOOLS
    if not os.path.exists(os.path.join(src, "configure")):
        need = BOOT_TOOLS + need
    return [t for t in need if not shutil.which(t)]


def ensure_build_tools(src):
    """Installs what building 'src' needs through scripts/deps.sh
    --ovs-build when a tool is missing (not with JSONBENCH_NO_INSTALL=1);
    raises MissingTools when one is still missing."""
    missing = _missing_tools(src)
    if not missing:
        return
    deps = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "..", "..", "..", "scripts", "deps.sh")
    if os.path.exists(deps) and os.environ.get("JSONBENCH_NO_INSTALL") != "1":
        subprocess.run([deps, "--ovs-build"])
        missing = _missing_tools(src)
    if missing:
        raise MissingTools("cannot build OVS: %s not found (scripts/deps.sh "
                           "--ovs-build installs them)" % ", ".join(missing))


def default_cache_dir():
    env = os.environ.get("JSONBENCH_OVS_CACHE")
    if env:
        return env
    base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return os.path.join(base, "ovsdb-jsonbench", "ovs")


def _git(tree, *args):
    """Runs git on 'tree' (a work tree or a bare git dir)."""
    if os.path.isdir(os.path.join(tree, ".git")) or not os.path.isdir(
            os.path.join(tree, "objects")):
        cmd = ["git", "-C", tree]
    else:
        cmd = ["git", "--git-dir", tree]
    p = subprocess.run(cmd + list(args), capture_output=True)
    if p.returncode:
        raise BuildError("git %s in %s: %s" % (" ".join(args), tree,
                                                p.stderr.decode().strip()))
    return p.stdout


def resolve(tree, ref):
    """Full commit id of 'ref' in 'tree'."""
    return _git(tree, "rev-parse", "--verify",
                ref + "^{commit}").decode().strip()


def describe(tree, commit):
    try:
        return _git(tree, "describe", "--tags", "--always",
                    commit).decode().strip()
    except BuildError:
        return commit[:12]



def _compiler():
    cc = os.environ.get("CC", "gcc")
    try:
        out = subprocess.run([cc, "--version"], capture_output=True,
                             text=True).stdout.splitlines()
        return out[0] if out else cc
    except OSError:
        return cc


def log_tail(path, n=LOG_TAIL_LINES):
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-n:])
    except OSError:
        return ""


def _run_logged(cmd, cwd, log, env=None):
    log.write("$ %s\n" % " ".join(cmd))
    log.flush()
    return subprocess.run(["nice", "-n", "10"] + cmd, cwd=cwd, stdout=log,
                          stderr=subprocess.STDOUT, env=env).returncode


def _extract_commit(tree, commit, dest):
    archive = _git(tree, "archive", "--format=tar", commit)
    os.makedirs(dest)
    tar = os.path.join(os.path.dirname(dest), "src.tar")
    with open(tar, "wb") as f:
        f.write(archive)
    with tarfile.open(tar) as t:
        t.extractall(dest)
    os.unlink(tar)


def _extract_tarball(path, dest):
    """Extracts a release tarball whose files sit under one top folder."""
    tmp = dest + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    with tarfile.open(path) as t:
        t.extractall(tmp)
    tops = os.listdir(tmp)
    inner = os.path.join(tmp, tops[0]) if len(tops) == 1 else tmp
    if len(tops) == 1 and os.path.isdir(inner):
        os.rename(inner, dest)
        shutil.rmtree(tmp)
    else:
        os.rename(tmp, dest)


def python2():
    """A Python 2 interpreter (python2.7 on PATH or a pyenv 2.7), or None."""
    cands = [shutil.which("python2.7"), shutil.which("python2")]
    cands += sorted(glob.glob(os.path.expanduser(
        "~/.pyenv/versions/2.7*/bin/python2.7")))
    for c in cands:
        if not c:
            continue
        try:
            r = subprocess.run([c, "-c", "import sys; "
                                "sys.exit(sys.version_info[0] != 2)"],
                               capture_output=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if r.returncode == 0:
            return c
    return None


def configure_tries():
    tries = list(CONFIGURE_TRIES)
    py2 = python2()
    if py2:
        tries.append(["--disable-ssl", "PYTHON=" + py2])
    return tries


def _py2_env(flags, where):
    """The environment of a Python 2 try: OVS's Python 2 scripts import
    six, which a bare Python 2 lacks; six.py runs on both, so this
    interpreter's copy goes on PYTHONPATH (the Makefiles append it)."""
    if not any(f.startswith("PYTHON=") for f in flags):
        return None
    env = dict(os.environ)
    try:
        import six
    except ImportError:
        return env
    os.makedirs(where, exist_ok=True)
    shutil.copy(six.__file__, os.path.join(where, "six.py"))
    env["PYTHONPATH"] = where
    return env


def _compile(src, log, jobs):
    """boot/configure/make in 'src'; returns (ok, configure flags)."""
    flags = []
    for flags in configure_tries():
        env = _py2_env(flags, os.path.join(os.path.dirname(src), "py2"))
        if not os.path.exists(os.path.join(src, "configure")):
            if _run_logged(["./boot.sh"], src, log):
                return False, flags
        if os.path.exists(os.path.join(src, "Makefile")):
            _run_logged(["make", "distclean"], src, log)
        if _run_logged(["./configure"] + flags, src, log, env):
            continue
        # The whole tree: some generated headers are made only by 'all'.
        if _run_logged(["make", "-j%d" % jobs], src, log, env) == 0:
            return True, flags
    return False, flags


def build(key, prepare, cache_dir=None, jobs=2, retry_failed=False,
          label=None, source=None):
    """Builds (or finds cached) OVS under <cache>/<key>; returns a Target.

    'prepare(dest)' puts a clean source tree at 'dest'.  Raises BuildError
    with the log tail when the build fails."""
    cache_dir = cache_dir or default_cache_dir()
    root = os.path.join(cache_dir, key)
    os.makedirs(cache_dir, exist_ok=True)
    # One builder per key at a time: a second runner waits, then finds
    # the finished build.json.
    with open(root + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _build_locked(key, root, prepare, jobs, retry_failed, label,
                             source)


def _build_locked(key, root, prepare, jobs, retry_failed, label, source):
    meta_path = os.path.join(root, "build.json")
    if os.path.exists(meta_path):
        with open(meta_path) as f:
            meta = json.load(f)
        if meta.get("ok"):
            return target_mod.from_build(root, meta)
        if not retry_failed:
            raise BuildError("cached failed build %s (%s); log tail:\n%s"
                             % (key, os.path.join(root, "build.log"),
                                meta.get("log_tail", "")))
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    src = os.path.join(root, "src")
    log_path = os.path.join(root, "build.log")
    start = time.time()
    with open(log_path, "w") as log:
        try:
            prepare(src)
            ensure_build_tools(src)
            ok, flags = _compile(src, log, jobs)
        except MissingTools:
            shutil.rmtree(root, ignore_errors=True)
            raise
        except (OSError, BuildError, tarfile.TarError) as e:
            log.write("error: %s\n" % e)
            ok, flags = False, []
    meta = {
        "key": key,
        "label": label or key[:12],
        "source": source or "",
        "ok": ok,
        "configure_flags": flags,
        "compiler": _compiler(),
        "build_seconds": round(time.time() - start, 1),
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    if not ok:
        meta["log_tail"] = log_tail(log_path)
    with open(meta_path, "w") as f:
        json.dump(meta, f, indent=2)
    if not ok:
        raise BuildError("build of %s failed (%s); log tail:\n%s"
                         % (meta["label"], log_path, meta["log_tail"]))
    return target_mod.from_build(root, meta)


def build_commit(tree, ref, **kw):
    commit = resolve(tree, ref)
    label = "%s (%s)" % (ref, commit[:12]) if ref != commit else commit[:12]
    t = build(commit, lambda dest: _extract_commit(tree, commit, dest),
              label=label, source="%s@%s" % (tree, commit), **kw)
    t.representation = representation.of_commit(tree, commit, t.version)
    t.server_era = representation.server_era_of_commit(tree, commit,
                                                       t.version)
    return t


def build_tarball(path, **kw):
    key = "tar-" + sha256_of(path)[:16]
    t = build(key, lambda dest: _extract_tarball(path, dest),
              label=os.path.basename(path), source=path, **kw)
    t.representation = representation.of_version(t.version)
    t.server_era = representation.server_era_of_version(t.version)
    return t
