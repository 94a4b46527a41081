"""Which model impl carries the JSON representation of a real OVS build.

A build's representation follows from the JSON commits it contains (git
ancestry in the tree it was built from) or, without history (installed
binaries, release tarballs), from its version.  The model vs real section
pairs each model impl with the real builds of the same representation:

  commit contained        OVS release   representation (model impl)
  f5819e699 (arrays)      3.6           ovs
  9669b50f5 (strings)     3.6 (dev)     serialized+strings (no model twin)
  b0bca6f27 (serialized)  2.17          serialized
  9854d473a (refcount)    2.7           refcount
  none of them            older         plain

It also decides the build's server code era (server_era_of_commit(),
server_era_of_version()): the model's load path (harness/server/txn.c) follows
today's ovsdb-server, whose commit of a loaded record got cheaper in
January 2024 (OVS 3.3, backported to 3.0.6, 3.1.4 and 3.2.2):

  6f11d9daa  reference counts and weak references are assessed only in
             columns that can hold references
  d51d4f42d  a weak-reference column is unshared and rewritten only when
             a reference was removed

Builds without them ("pre-2024", e.g. Debian 12's 3.1.0) execute 9% more
instructions to load NB (docs/model.md, "Which real build calibrates which
impl"), none of it in the JSON layer: they are a reference for the model,
not its calibration.  Results made before the era was recorded get it at
rendering time (derive_server_era()): a release version tells; a
development snapshot (2.6.90) needs its commit in an OVS tree, where the
ancestry of those commits or, without their history, a commit date before
their parents' decides.  Otherwise the era is unknown, never assumed.
"""

import os
import re
import subprocess

# Newest change first: the first one a commit contains decides.
COMMITS = [
    ("f5819e699e8d5d21700791f51feaef2f31e6cabf", "ovs"),
    ("9669b50f56458159ca6da5d1a8487843126bbedf", "serialized+strings"),
    ("b0bca6f27aae845c3ca8b48d66a7dbd3d978162a", "serialized"),
    ("9854d473adea37f3cc6432017bd38511473ae5a1", "refcount"),
]
# The first release containing each change ((major, minor), representation).
VERSIONS = [((3, 6), "ovs"), ((2, 17), "serialized"), ((2, 7), "refcount")]
OLDEST = "plain"


def _git_cmd(tree):
    if os.path.isdir(os.path.join(tree, ".git")) or not os.path.isdir(
            os.path.join(tree, "objects")):
        return ["git", "-C", tree]
    return ["git", "--git-dir", tree]


def _git(tree, *args):
    """The completed git command in 'tree', None when git cannot run there
    (no git, no such folder)."""
    if not tree or not os.path.isdir(tree):
        return None
    try:
        return subprocess.run(_git_cmd(tree) + list(args),
                              capture_output=True, text=True)
    except OSError:
        return None


def _known(tree, commit):
    r = _git(tree, "cat-file", "-e", (commit or "-") + "^{commit}")
    return r is not None and r.returncode == 0


def _contains(tree, commit, change):
    """True/False when 'tree' knows both 'change' and 'commit', None when
    it does not (a shallow clone, another history, no tree)."""
    if not _known(tree, change) or not _known(tree, commit):
        return None
    r = _git(tree, "merge-base", "--is-ancestor", change, commit)
    return r is not None and r.returncode == 0


def _commit_time(tree, commit):
    """Committer time of 'commit' in 'tree' (s since the epoch), or None."""
    if not _known(tree, commit):
        return None
    r = _git(tree, "show", "-s", "--format=%ct", commit + "^{commit}")
    try:
        return int(r.stdout.strip())
    except (AttributeError, ValueError):
        return None


def of_commit(tree, commit, version=""):
    """Representation of 'commit' in 'tree'; from 'version' when the tree
    lacks the history to tell."""
    for change, rep in COMMITS:
        inside = _contains(tree, commit, change)
        if inside is None:
            return of_version(version)
        if inside:
            return rep
    return OLDEST


def of_version(version):
    """Representation of a release from its version string ('3.1.0');
    None when the string has no version."""
    m = re.search(r"(\d+)\.(\d+)", version or "")
    if not m:
        return None
    v = (int(m.group(1)), int(m.group(2)))
    for first, rep in VERSIONS:
        if v >= first:
            return rep
    return OLDEST


# Server code era (see the module's comment): the commits that make a
# build "current", and per release branch the first release with their
# backports (the 3.3 releases and later have them).
CURRENT = "current"
PRE_2024 = "pre-2024"
ERA_COMMITS = ["6f11d9daad526bf51ee1538c7451a04572dc7a12",
               "d51d4f42d3e880dce7c13b1437c8d5d1312ecbd5"]
# The older parent of ERA_COMMITS (4102674b3) was committed at this time,
# 2024-01-04 13:26:20 UTC: a commit made before it cannot contain them,
# which a tree without their history can still tell from the commit's date.
ERA_PARENT_TIME = 1704374780
ERA_FIRST_RELEASE = {(3, 0): 6, (3, 1): 4, (3, 2): 2}
ERA_FIRST_MINOR = (3, 3)
# Patch numbers from here on are development snapshots of the next release
# (3.2.90 is master after 3.2): their version cannot tell.
DEV_PATCH = 90


def server_era_of_version(version):
    """CURRENT or PRE_2024 for a release version ('3.1.0'); None when the
    string has no version or is a development snapshot."""
    m = re.search(r"(\d+)\.(\d+)(?:\.(\d+))?", version or "")
    if not m:
        return None
    minor = (int(m.group(1)), int(m.group(2)))
    patch = int(m.group(3) or 0)
    if patch >= DEV_PATCH:
        return None
    if minor >= ERA_FIRST_MINOR:
        return CURRENT
    first = ERA_FIRST_RELEASE.get(minor)
    return CURRENT if first is not None and patch >= first else PRE_2024


def server_era_of_commit(tree, commit, version=""):
    """Server code era of 'commit' in 'tree': CURRENT when it contains
    ERA_COMMITS; else what a release version says (a release branch
    holds backports, not these commits); else PRE_2024 when the tree
    shows it lacks them (their ancestry, or a commit date before their
    parents').  None when neither the tree nor the version can tell."""
    return server_era_with_reason(tree, commit, version)[0]


def server_era_with_reason(tree, commit, version=""):
    """(era, how it was told) of server_era_of_commit(); era None when
    unknown, 'how' then says why."""
    inside = [_contains(tree, commit, c) for c in ERA_COMMITS]
    if all(inside):
        return CURRENT, "git ancestry in %s" % tree
    by_version = server_era_of_version(version)
    if by_version is not None:
        return by_version, "release version %s" % version
    if None not in inside:
        return PRE_2024, "git ancestry in %s" % tree
    if not tree or not os.path.isdir(tree):
        return None, "no OVS tree at %s" % (tree or "(none given)")
    when = _commit_time(tree, commit)
    if when is not None and when < ERA_PARENT_TIME:
        return PRE_2024, "commit date in %s" % tree
    if when is None:
        return None, "%s not in %s" % ((commit or "no commit")[:12],
                                       tree or "no OVS tree")
    return None, "%s lacks the history of %s" % (tree, ERA_COMMITS[0][:9])


def source_tree(source):
    """The OVS tree of a build's "ovs_source" (TREE@COMMIT), or None."""
    return source.rsplit("@", 1)[0] if source and "@" in source else None


_derived = {}


def derive_server_era(commit, version, trees):
    """(era, how) of a build whose results did not record its era (made
    before it was recorded): its release version, else its commit in the
    first of 'trees' (OVS git trees or git dirs; missing ones skipped)
    that can tell.  era None when none can: unknown, which is not the
    model's era."""
    key = (commit, version, tuple(trees))
    if key not in _derived:
        era, how = server_era_of_version(version), "release version %s" % version
        if era is None:
            whys = []
            for tree in dict.fromkeys(t for t in trees if t):
                era, how = server_era_with_reason(tree, commit, version)
                if era is not None:
                    break
                whys.append(how)
            if era is None:
                how = "; ".join(whys) or "no OVS tree to look %s up in" % (
                    (commit or "its commit")[:12])
        _derived[key] = (era, how)
    return _derived[key]
