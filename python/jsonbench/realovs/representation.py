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
server_era_of_version()): the model's load path (harness/txn.c) follows
today's ovsdb-server, whose commit of a loaded record got cheaper in
January 2024 (OVS 3.3, backported to 3.0.6, 3.1.4 and 3.2.2):

  6f11d9daa  reference counts and weak references are assessed only in
             columns that can hold references
  d51d4f42d  a weak-reference column is unshared and rewritten only when
             a reference was removed

Builds without them ("pre-2024", e.g. Debian 12's 3.1.0) execute 9% more
instructions to load NB (docs/model.md, "Which real build calibrates which
impl"), none of it in the JSON layer: they are a reference for the model,
not its calibration.
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


def _contains(tree, commit, change):
    """True/False when 'tree' knows 'change', None when it does not (a
    shallow clone or another history)."""
    git = _git_cmd(tree)
    known = subprocess.run(git + ["cat-file", "-e", change + "^{commit}"],
                           capture_output=True)
    if known.returncode:
        return None
    r = subprocess.run(git + ["merge-base", "--is-ancestor", change, commit],
                       capture_output=True)
    return r.returncode == 0


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
    holds backports, not these commits); else PRE_2024.  None when
    neither the tree nor the version can tell."""
    inside = [_contains(tree, commit, c) for c in ERA_COMMITS]
    if all(inside):
        return CURRENT
    by_version = server_era_of_version(version)
    if by_version is not None or None in inside:
        return by_version
    return PRE_2024
