"""OVS commits in a git tree, as the history and find studies name them:
refs resolved, BAD's first-parent line from GOOD, a --ovs-ref list of
points expanded (see jsonbench.history), a commit's date, subject and
description.  Every git failure raises util.StudyError."""

import os
import re
import subprocess

from ..util import StudyError


def git(tree, *args):
    cmd = ["git", "-C", tree] if os.path.isdir(os.path.join(tree, ".git")) or \
        not os.path.isdir(os.path.join(tree, "objects")) else ["git", "--git-dir", tree]
    p = subprocess.run(cmd + list(args), capture_output=True, text=True)
    if p.returncode:
        raise StudyError("git %s: %s" % (" ".join(args), p.stderr.strip()))
    return p.stdout


def resolve(tree, ref):
    return git(tree, "rev-parse", "--verify", ref + "^{commit}").strip()


def first_parent(tree, bad):
    """BAD's first-parent line, newest first."""
    return git(tree, "rev-list", "--first-parent", bad).split()


def is_ancestor(tree, a, b):
    try:
        git(tree, "merge-base", "--is-ancestor", a, b)
        return True
    except StudyError:
        return False


def line_between(tree, good, bad):
    """(commits oldest first, from the start on BAD's first-parent line to
    BAD; a note when GOOD is not on that line)."""
    g, b = resolve(tree, good), resolve(tree, bad)
    if not is_ancestor(tree, g, b) and not git(tree, "merge-base", g, b).strip():
        raise StudyError("%s and %s share no history" % (good, bad))
    line = first_parent(tree, b)
    note = ""
    if g in line:
        start = g
    else:
        # The newest first-parent commit GOOD contains: where GOOD's branch
        # left BAD's line (the merge base when GOOD's branch forked there).
        start = next((c for c in line if is_ancestor(tree, c, g)), None)
        if start is None:
            raise StudyError("no commit of %s's first-parent line is in %s"
                             % (bad, good))
        note = ("%s (%s) is not on %s's first-parent line; the search starts "
                "at %s, the newest commit of that line %s contains (%s)"
                % (good, g[:10], bad, start[:10], good,
                   "their merge base" if start == git(tree, "merge-base", g, b).strip()
                   else "not their merge base"))
    commits = line[:line.index(start) + 1]
    commits.reverse()
    return commits, note


_GLOB = re.compile(r"[*?\[]")
_EVERY = re.compile(r"^(.+?\.\..+?):(\d+)$")


def expand_points(tree, spec):
    """(points [full commit ids], labels {commit: label}, reference commit
    or None, notes) of a --ovs-ref list (see the module's doc)."""
    points, labels, ref, notes = [], {}, None, []

    def add(commit, label):
        if commit not in points:
            points.append(commit)
        labels.setdefault(commit, label)

    for item in [x.strip() for x in spec.split(",") if x.strip()]:
        if item.startswith("ref="):
            ref = resolve(tree, item[4:])
            labels.setdefault(ref, item[4:])
            continue
        m = _EVERY.match(item)
        rng, every = (m.group(1), int(m.group(2))) if m else (item, 1)
        if ".." in rng:
            a, b = rng.split("..", 1)
            if every < 1:
                raise StudyError("%s: every Nth with N >= 1" % item)
            commits, note = line_between(tree, a, b)
            if note:
                notes.append(note)
            keep = commits[::every]
            if keep[-1] != commits[-1]:
                keep.append(commits[-1])
            for c in keep:
                add(c, a if c == commits[0] and not note else
                    b if c == commits[-1] else c[:10])
        elif _GLOB.search(item):
            tags = git(tree, "tag", "-l", "--sort=v:refname", item).split()
            if not tags:
                raise StudyError("no tag matches %s" % item)
            for t in tags:
                add(resolve(tree, t), t)
        else:
            add(resolve(tree, item), item)
    if not points:
        raise StudyError("--ovs-ref names no commit")
    return points, labels, ref or points[-1], notes


def commit_info(tree, commit):
    out = git(tree, "show", "-s", "--format=%ci%x00%s", commit).strip().split("\0")
    try:
        desc = git(tree, "describe", "--tags", commit).strip()
    except StudyError:
        desc = commit[:10]
    return {"commit": commit, "date": out[0], "subject": out[1] if len(out) > 1 else "",
            "describe": desc}
