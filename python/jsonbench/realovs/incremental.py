"""Builds for a bisection.

Bisection builds commit after commit of one line, most of which change a
few files: one work tree (a git worktree of 'tree') is checked out at each
commit in turn and make rebuilds what changed (automake's dependency
tracking), boot and configure run again only when make decides so.  The
programs are copied into the cache under <commit>-incremental, a key of
its own (a clean build of the commit keeps the commit's key), and
build.json records the work tree and the commit it was built after."""

import fcntl
import json
import os
import shutil
import time

from . import representation
from . import target as target_mod
from .build import (CONFIGURE_TRIES, BuildError, Progress, _compiler, _git, _make_steps,
                    _run_logged, _say_stderr, ccache_env, default_cache_dir,
                    ensure_build_tools, fmt_elapsed, log_tail, resolve)


def build_incremental(tree, ref, worktree, cache_dir=None, jobs=2, label=None,
                      say=_say_stderr, ccache=True):
    """Builds commit 'ref' of 'tree' in the work tree 'worktree' (made on
    first use), the four programs only; returns a Target.  Raises
    BuildError when it does not build (cached as a failure)."""
    commit = resolve(tree, ref)
    cache_dir = cache_dir or default_cache_dir()
    key = commit + "-incremental"
    root = os.path.join(cache_dir, key)
    label = label or commit[:12]
    os.makedirs(os.path.dirname(os.path.abspath(worktree)), exist_ok=True)
    meta_path = os.path.join(root, "build.json")
    with open(worktree.rstrip("/") + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.exists(meta_path):
            with open(meta_path) as f:
                meta = json.load(f)
            if not meta.get("ok"):
                raise BuildError("cached failed build %s; log tail:\n%s"
                                 % (key, meta.get("log_tail", "")))
            return _incremental_target(tree, commit, root, meta)
        shutil.rmtree(root, ignore_errors=True)
        os.makedirs(root)
        log_path = os.path.join(root, "build.log")
        start = time.time()
        progress = Progress(label, say)
        before = ""
        with open(log_path, "w") as log:
            if not os.path.isdir(worktree):
                _git(tree, "worktree", "add", "--detach", worktree, commit)
            else:
                before = _git(worktree, "rev-parse", "HEAD").decode().strip()
                _git(worktree, "checkout", "-q", "-f", "--detach", commit)
            ensure_build_tools(worktree)
            env = ccache_env() if ccache else None
            flags = list(CONFIGURE_TRIES[0])

            def make():
                ok = True
                if not os.path.exists(os.path.join(worktree, "Makefile")):
                    ok = (_run_logged(["./boot.sh"], worktree, log, progress=progress) == 0
                          and _run_logged(["./configure"] + flags, worktree, log, env,
                                          progress) == 0)
                return ok and all(_run_logged(step, worktree, log, env, progress) == 0
                                  for step in _make_steps(os.path.join(root, "src"),
                                                          "programs", jobs))
            ok = make()
            make_kind = "incremental"
            if not ok and before and before != commit:
                # A generated file left by another commit (e.g. an IDL
                # source from a newer generator) can break the build
                # although the commit builds: once more from a clean tree.
                log.write("# incremental build failed: again from a clean tree\n")
                _git(worktree, "clean", "-q", "-f", "-d", "-x")
                ok = make()
                make_kind = "clean after a failed incremental build"
        meta = {"key": key, "label": label, "commit": commit,
                "source": "%s@%s" % (tree, commit), "ok": ok,
                "configure_flags": flags, "compiler": _compiler(),
                "make": make_kind, "worktree": worktree,
                "built_after": before, "ccache": bool(env),
                "build_seconds": round(time.time() - start, 1),
                "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        if ok:
            for rel in target_mod.TREE_PATHS.values():
                dest = os.path.join(root, "src", rel)
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                shutil.copy2(os.path.join(worktree, rel), dest)
        else:
            meta["log_tail"] = log_tail(log_path)
        if say:
            say("%s %s in %s (incremental)" % ("built" if ok else "build FAILED:",
                                               label, fmt_elapsed(time.time() - start)))
        with open(meta_path, "w") as f:
            json.dump(meta, f, indent=2)
        if not ok:
            raise BuildError("build of %s failed (%s); log tail:\n%s"
                             % (label, log_path, meta["log_tail"]))
        return _incremental_target(tree, commit, root, meta)


def _incremental_target(tree, commit, root, meta):
    t = target_mod.from_build(root, meta)
    t.representation = representation.of_commit(tree, commit, t.version)
    t.server_era = representation.server_era_of_commit(tree, commit, t.version)
    return t
