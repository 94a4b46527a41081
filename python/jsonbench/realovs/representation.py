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
