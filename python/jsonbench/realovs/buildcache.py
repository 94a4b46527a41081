"""The build-cache policy of the history and find studies: a commit is
built once through the cache (realovs/build.py, only the four programs
the runner starts, through ccache when installed); a bisection builds
its commits one after the other in one work tree unless a clean build is
cached, and reuses a commit another bisection built that way (its
build.json says so).  Builder counts what it built, found cached and saw
fail; target_name() names a point's build before it exists, so every
node of a sharded study computes the same jobs."""

import json
import os
import re

from ..util import log
from . import build as B
from .incremental import build_incremental


class Builder:
    """Builds commits through the cache, counting the builds it ran."""

    def __init__(self, tree, cache_dir=None, retry_failed=False, say=log,
                 worktree=None, no_build=False):
        self.tree, self.cache_dir, self.retry = tree, cache_dir, retry_failed
        self.say = say
        # --no-build: cached builds only; the others are skipped.
        self.no_build = no_build
        self.skipped = []
        # Bisection: commits built one after the other in this work tree
        # (incremental.py), unless a clean build is cached.
        self.worktree = worktree
        self.built, self.cached, self.failed = [], [], {}
        self.targets = {}
        # find --engine: the builds the nodes reported (their studies).
        self.remote = {"built": 0, "cached": 0, "failed": 0, "commits": []}

    def __call__(self, commit, label):
        if commit in self.targets:
            return self.targets[commit]
        if commit in self.failed:
            return None
        cache = self.cache_dir or B.default_cache_dir()
        clean_meta = os.path.join(cache, commit, "build.json")
        incr_meta = os.path.join(cache, commit + "-incremental", "build.json")
        incremental = self.worktree and not os.path.exists(clean_meta)
        worktree = self.worktree
        if not incremental and not os.path.exists(clean_meta) and \
                os.path.exists(incr_meta):
            # Built by a bisection in its work tree: the same commit's
            # programs (build.json says how).
            with open(incr_meta) as f:
                meta = json.load(f)
            if meta.get("ok"):
                incremental, worktree = True, meta["worktree"]
        had = os.path.exists(incr_meta if incremental else clean_meta)
        if self.no_build and not had:
            self.skipped.append(commit)
            return None
        say = lambda m: self.say("  " + m)       # noqa: E731
        try:
            if incremental:
                t = build_incremental(self.tree, commit, worktree,
                                      cache_dir=self.cache_dir, label=label, say=say)
            else:
                t = B.build_spec(self.tree, commit, cache_dir=self.cache_dir, jobs=2,
                                 retry_failed=self.retry, make="programs", ccache=True,
                                 say=say)
        except B.BuildError as exc:
            self.failed[commit] = str(exc)
            self.say("  build of %s failed: %s" % (label, str(exc).splitlines()[0]))
            (self.cached if had else self.built).append(commit)
            return None
        (self.cached if had else self.built).append(commit)
        t.name = target_name(label)
        self.targets[commit] = t
        return t


def target_name(label):
    """The name of a point's build (its jobs' impl): known before it is
    built, so every node computes the same job names and shard split."""
    return "ovs-%s" % re.sub(r"[^A-Za-z0-9._-]", "_", label)


class Planned:
    """A build not made yet, as the plan sees it: its name and commit."""

    def __init__(self, commit, label):
        self.commit, self.name = commit, target_name(label)
