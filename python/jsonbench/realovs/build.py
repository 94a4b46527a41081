"""Build cache for real OVS: one build per commit (or source tarball),
optionally with patches applied and extra configure arguments.

A build lives in <cache>/<key>/ (key = full commit id, or "tar-<sha256>"
for a tarball; with patches or a configure variant, "-<sha256>" of the
patches' contents and the extra arguments is appended): src/ is a clean
copy of the tree at that commit (patched), build.log is the whole
boot/configure/make log and build.json records the outcome, the configure
flags, the compiler and the patches (file, sha256, subjects).  A second run
with the same key reads build.json and does not rebuild.  A failed build is
cached too (so a suite does not retry a commit that cannot build with this
toolchain) unless retry_failed is set; a patch that does not apply is not
(it is an error naming the patch and the file and hunk, see patches.py).

A target is named by a spec, REF[+PATCH...][@VARIANT] (specs.py,
build_spec(), docs/patches.md): PATCH a patch file, an mbox or a
directory holding a git format-patch series; VARIANT a configure variant
(NAME=ARGS, e.g. jemalloc='LIBS=-ljemalloc').  A bisection's builds, one
commit after another in one work tree, are incremental.py's.
"""

import fcntl
import functools
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time

from . import patches as patches_mod
from . import representation
from . import target as target_mod
# The spec grammar, also read here by older callers (build.parse_spec...).
from .specs import (SpecError, expand_specs, make_spec, parse_spec,  # noqa: F401
                    parse_variants, spec_label, spec_name, variant_args)
from .target import BuildError
from ..util import sha256_of

# Tried in order; the first set that configures and builds wins.  Old
# releases may not compile against OpenSSL 3, so the second try drops SSL;
# releases before 2.8 run Python 2 build scripts (ovsdb-idlc), so the last
# try also names a Python 2 interpreter, when the machine has one.
CONFIGURE_TRIES = ([], ["--disable-ssl"])
LOG_TAIL_LINES = 30


class MissingTools(BuildError):
    """The machine lacks a build tool: not the commit's fault, so never
    cached as its failure."""


class PatchApplyError(BuildError):
    """A patch does not apply (the message names the patch, the file and
    the hunk): never cached, the next run tries again."""


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


# Progress while building: a line every PROGRESS_SECONDS with the elapsed
# time and the step make is at (from the log's last lines).
PROGRESS_SECONDS = 10
# automake's silent rules ("  CC       lib/json.lo") ...
_SILENT_STEP = re.compile(r"^\s+([A-Z][A-Z0-9]{1,7})\s+(\S+)\s*$")
# ... or a verbose compiler line ("gcc ... -c -o x.lo lib/json.c").
_COMPILE_STEP = re.compile(r"\s-c\b.*?(\S+\.c)\b")


def fmt_elapsed(seconds):
    s = int(seconds)
    return "%dm%02ds" % (s // 60, s % 60) if s >= 60 else "%ds" % s


def log_step(path):
    """What the build is doing, from the last lines of its log: make's
    step ("CC lib/json.lo") or the last line, shortened."""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - 8192))
            lines = f.read().decode("utf-8", "replace").splitlines()
    except OSError:
        return ""
    for ln in reversed(lines):
        m = _SILENT_STEP.match(ln)
        if m:
            return "%s %s" % (m.group(1), m.group(2))
        m = _COMPILE_STEP.search(ln)
        if m:
            return "CC %s" % m.group(1)
    for ln in reversed(lines):
        if ln.strip() and not ln.startswith("$ "):
            ln = ln.strip()
            return ln if len(ln) <= 70 else ln[:67] + "..."
    return ""


class Progress:
    """Says where a build is: 'building LABEL: 2m10s, make: CC lib/json.lo'
    every PROGRESS_SECONDS while a step runs."""

    def __init__(self, label, say=None, every=None):
        self.label = label
        self.say = say
        self.every = every or PROGRESS_SECONDS
        self.start = time.time()

    def elapsed(self):
        return fmt_elapsed(time.time() - self.start)

    def tick(self, phase, log_path):
        if self.say:
            step = log_step(log_path)
            self.say("building %s: %s, %s%s" % (self.label, self.elapsed(),
                                               phase, ": " + step if step
                                               else ""))


def _run_logged(cmd, cwd, log, env=None, progress=None):
    log.write("$ %s\n" % " ".join(cmd))
    log.flush()
    p = subprocess.Popen(["nice", "-n", "10"] + cmd, cwd=cwd, stdout=log,
                         stderr=subprocess.STDOUT, env=env)
    phase = os.path.basename(cmd[0]).replace(".sh", "")
    while True:
        try:
            return p.wait(timeout=progress.every if progress else None)
        except subprocess.TimeoutExpired:
            progress.tick(phase, log.name)
        except BaseException:
            p.kill()
            p.wait()
            raise


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


@functools.lru_cache(maxsize=None)
def python2():
    """A Python 2 interpreter (python2.7 on PATH or a pyenv 2.7), or None
    (looked for once per process: a pyenv shim takes seconds)."""
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


# What make builds.  "all": the whole tree.  "programs": the generated
# sources (BUILT_SOURCES, headers some objects include) and then only the
# four programs a runner starts (target.TREE_PATHS), about half the work.
MAKE_MODES = ("all", "programs")
# A makefile read after OVS's: one target that makes BUILT_SOURCES.
_BUILT_SOURCES_MK = "jsonbench-built-sources: $(BUILT_SOURCES)\n"


def _make_steps(src, mode, jobs):
    if mode == "all":
        return [["make", "-j%d" % jobs]]
    mk = os.path.join(os.path.dirname(src), "built-sources.mk")
    with open(mk, "w") as f:
        f.write(_BUILT_SOURCES_MK)
    return [["make", "-j%d" % jobs, "-f", "Makefile", "-f", mk,
             "jsonbench-built-sources"],
            ["make", "-j%d" % jobs] + sorted(target_mod.TREE_PATHS.values())]


def ccache_env(env=None):
    """The environment of a build through ccache (CC="ccache gcc"), with
    paths under the cache folder hashed relative to it, so the same file of
    two commits' trees can hit; None when ccache is not installed.  ccache
    returns what the compiler would have produced, so the build's cache key
    stays its commit; build.json records that ccache was used."""
    if not shutil.which("ccache"):
        return None
    env = dict(env or os.environ)
    env["CC"] = "ccache " + env.get("CC", "gcc")
    env.setdefault("CCACHE_BASEDIR", default_cache_dir())
    env.setdefault("CCACHE_NOHASHDIR", "1")
    return env


def _compile(src, log, jobs, extra=(), progress=None, mode="all",
             ccache=False):
    """boot/configure/make in 'src'; returns (ok, configure flags).
    'extra': configure arguments of a variant, added to every try.
    'mode': one of MAKE_MODES.  'ccache': compile through ccache."""
    flags = []
    for tried in configure_tries():
        flags = list(tried) + list(extra)
        env = _py2_env(flags, os.path.join(os.path.dirname(src), "py2"))
        if ccache:
            env = ccache_env(env) or env
        if not os.path.exists(os.path.join(src, "configure")):
            if _run_logged(["./boot.sh"], src, log, progress=progress):
                return False, flags
        if os.path.exists(os.path.join(src, "Makefile")):
            _run_logged(["make", "distclean"], src, log, progress=progress)
        if _run_logged(["./configure"] + flags, src, log, env, progress):
            continue
        # "all" makes the whole tree: some generated headers are made only
        # by 'all' (or, in "programs" mode, by BUILT_SOURCES).
        if all(_run_logged(step, src, log, env, progress) == 0
               for step in _make_steps(src, mode, jobs)):
            return True, flags
    return False, flags


def _say_stderr(msg):
    print(msg, file=sys.stderr, flush=True)


def build(key, prepare, cache_dir=None, jobs=2, retry_failed=False,
          label=None, source=None, configure=None, extra_meta=None,
          say=_say_stderr, make="all", ccache=False):
    """Builds (or finds cached) OVS under <cache>/<key>; returns a Target.

    'prepare(dest)' puts a clean source tree at 'dest' and returns what
    build.json should record about it (a dict, or None).  'configure':
    extra configure arguments.  'say(line)' gets the progress lines
    (None: quiet).  Raises BuildError with the log tail when the build
    fails, PatchApplyError when a patch does not apply."""
    cache_dir = cache_dir or default_cache_dir()
    root = os.path.join(cache_dir, key)
    os.makedirs(cache_dir, exist_ok=True)
    # One builder per key at a time: a second runner waits, then finds
    # the finished build.json.
    with open(root + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _build_locked(key, root, prepare, jobs, retry_failed, label,
                             source, configure or [], extra_meta or {}, say,
                             make, ccache)


def _build_locked(key, root, prepare, jobs, retry_failed, label, source,
                  configure, extra_meta, say, make="all", ccache=False):
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
    progress = Progress((label or key[:12]).split(" (", 1)[0], say)
    prepared = {}
    with open(log_path, "w") as log:
        try:
            prepared = prepare(src) or {}
            ensure_build_tools(src)
            ok, flags = _compile(src, log, jobs, configure, progress,
                                 make, ccache)
        except MissingTools:
            shutil.rmtree(root, ignore_errors=True)
            raise
        except patches_mod.PatchError as e:
            shutil.rmtree(root, ignore_errors=True)
            raise PatchApplyError(str(e))
        except (OSError, BuildError, tarfile.TarError) as e:
            log.write("error: %s\n" % e)
            ok, flags = False, list(configure)
    meta = dict(extra_meta)
    meta.update(prepared)
    meta.update({
        "key": key,
        "label": label or key[:12],
        "source": source or "",
        "ok": ok,
        "configure_flags": flags,
        "compiler": _compiler(),
        "make": make,
        "ccache": bool(ccache and shutil.which("ccache")),
        "build_seconds": round(time.time() - start, 1),
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    })
    if say:
        say("%s %s in %s" % ("built" if ok else "build FAILED:",
                             meta["label"], fmt_elapsed(time.time() - start)))
    if not ok:
        meta["log_tail"] = log_tail(log_path)
    with open(meta_path, "w") as f:
        json.dump(meta, f, indent=2)
    if not ok:
        raise BuildError("build of %s failed (%s); log tail:\n%s"
                         % (meta["label"], log_path, meta["log_tail"]))
    return target_mod.from_build(root, meta)


def _key(base, files, configure):
    """The cache key: the base alone for an unpatched default build, else
    the base and the sha256 of the patches' contents (in order) and of
    the extra configure arguments."""
    if not files and not configure:
        return base
    h = hashlib.sha256()
    for p in patches_mod.digest(files):
        h.update(p["sha256"].encode() + b"\n")
    h.update(b"configure\0" + "\0".join(configure).encode())
    return "%s-%s" % (base, h.hexdigest()[:16])


def _patch_files(patch_paths):
    files = []
    try:
        for p in patch_paths:
            files += patches_mod.files_of(p)
    except patches_mod.PatchError as exc:
        raise PatchApplyError(str(exc))
    return files


def _patch_meta(patch_paths, variant, configure):
    return {"patch_paths": list(patch_paths),
            "configure_variant": variant or "",
            "configure_extra": list(configure)}


def _prepare_commit(tree, commit, files, say):
    def prepare(dest):
        if not files:
            _extract_commit(tree, commit, dest)
            return {"commit": commit}
        scratch = dest + ".scratch"
        shutil.rmtree(scratch, ignore_errors=True)
        try:
            patches_mod.scratch_clone(tree, commit, scratch)
            applied = patches_mod.apply(scratch, files, say)
            head = patches_mod._git(scratch, ["rev-parse", "HEAD"])
            patches_mod.drop_git(scratch)
            os.rename(scratch, dest)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        return {"commit": commit, "patches": applied,
                "patched_commit": head.stdout.strip()}
    return prepare


def build_commit(tree, ref, patches=(), configure=(), variant=None,
                 say=_say_stderr, **kw):
    """Builds commit 'ref' of 'tree', with the patch files 'patches'
    applied in order (git am -3) and 'configure' added to configure."""
    commit = resolve(tree, ref)
    files = _patch_files(patches)
    if patches or variant:
        label = spec_label(ref, patches, variant)
        label = "%s (%s)" % (label, commit[:12])
    else:
        label = "%s (%s)" % (ref, commit[:12]) if ref != commit \
            else commit[:12]
    t = build(_key(commit, files, list(configure)),
              _prepare_commit(tree, commit, files, say), label=label,
              source="%s@%s" % (tree, commit), configure=list(configure),
              extra_meta=_patch_meta(patches, variant, configure), say=say,
              **kw)
    t.representation = representation.of_commit(tree, commit, t.version)
    t.server_era = representation.server_era_of_commit(tree, commit,
                                                       t.version)
    return t


def build_tarball(path, patches=(), configure=(), variant=None,
                  say=_say_stderr, **kw):
    """Builds a release tarball, with patches and configure arguments as
    build_commit()."""
    base = "tar-" + sha256_of(path)[:16]
    files = _patch_files(patches)

    def prepare(dest):
        _extract_tarball(path, dest)
        if not files:
            return {"commit": base}
        patches_mod.init_repo(dest)
        try:
            applied = patches_mod.apply(dest, files, say)
        finally:
            patches_mod.drop_git(dest)
        return {"commit": base, "patches": applied}
    label = os.path.basename(path)
    if patches or variant:
        label = spec_label(label, patches, variant)
    t = build(_key(base, files, list(configure)), prepare, label=label,
              source=path, configure=list(configure),
              extra_meta=_patch_meta(patches, variant, configure), say=say,
              **kw)
    t.representation = representation.of_version(t.version)
    t.server_era = representation.server_era_of_version(t.version)
    return t


# ------------------------------------------------------- spec targets

def build_spec(tree, spec, variants=None, **kw):
    """Builds (or finds cached) the target of 'spec' in 'tree'; returns a
    Target with its name (ovs-REF+NAME@VARIANT), patches and variant.
    Raises BuildError (SpecError, PatchApplyError)."""
    ref, patch_paths, variant = parse_spec(spec)
    configure = variant_args(variant, variants)
    try:
        t = build_commit(tree, ref, patches=patch_paths, configure=configure,
                         variant=variant, **kw)
    except patches_mod.PatchError as exc:
        raise PatchApplyError(str(exc))
    t.name = spec_name(spec)
    return t


def build_tarball_spec(path, patch_paths=(), variant=None, variants=None,
                       **kw):
    configure = variant_args(variant, variants)
    try:
        return build_tarball(path, patches=patch_paths, configure=configure,
                             variant=variant, **kw)
    except patches_mod.PatchError as exc:
        raise PatchApplyError(str(exc))
