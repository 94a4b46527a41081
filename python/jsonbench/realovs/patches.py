"""Patches on top of a real OVS target (docs/patches.md).

A PATCH of a target spec is one of:
  - a patch file as `git format-patch` writes it (one mail),
  - an mbox holding several mails (a series as posted to the OVS mailing
    list, e.g. patchwork's "mbox" download), a cover letter included,
  - a plain diff (`git diff`, `diff -u`),
  - a directory holding a format-patch series: its files in name order
    (files without a diff, such as the cover letter or a README, are
    skipped).

They are applied in order with `git am -3` (a plain diff with `git apply
--3way`, then committed) in a scratch git tree: a shared clone of the OVS
tree checked out at the base commit (so the 3-way fallback finds the
blobs the patch was made against), or, for a tarball, a git repository
made of the extracted sources.  A patch that does not apply raises
PatchError naming the patch file, the mail (number and subject) and the
failing file and hunk.
"""

import hashlib
import os
import re
import shutil
import subprocess
import tempfile

# Extensions dropped from a patch file's name in target names.
PATCH_EXTS = (".patch", ".diff", ".mbox", ".eml", ".txt")
_DIFF = re.compile(rb"^(diff --git |--- \S|Index: )", re.M)
_PLUS = re.compile(rb"^\+\+\+ \S", re.M)
_HEADER = re.compile(rb"^(From|Subject|Date|Message-I[dD]|To|Cc|"
                     rb"Content-Type|MIME-Version|Return-Path|Received):")
_SUBJECT = re.compile(rb"^Subject:\s*(.*(?:\n[ \t].*)*)", re.M)
IDENTITY = ["-c", "user.name=ovsdb-jsonbench", "-c",
            "user.email=ovsdb-jsonbench@localhost"]
# A fixed date: the patched commit's id does not depend on when it was made.
FIXED_ENV = {"GIT_COMMITTER_DATE": "2000-01-01T00:00:00Z",
             "GIT_AUTHOR_DATE": "2000-01-01T00:00:00Z"}


class PatchError(Exception):
    pass


def caller_path(path):
    """A relative patch path is relative to the directory the command was
    started from (the scripts change to the project root and export it as
    JSONBENCH_CALLER_DIR), else to the current one."""
    if os.path.isabs(path):
        return path
    caller = os.environ.get("JSONBENCH_CALLER_DIR")
    if caller and os.path.exists(os.path.join(caller, path)):
        return os.path.join(caller, path)
    return os.path.abspath(path)


def name_of(path):
    """The short name of a patch in target names: a directory's name, a
    file's name without its extension (.patch, .diff, .mbox, ...)."""
    base = os.path.basename(os.path.normpath(path))
    for ext in PATCH_EXTS:
        if base.endswith(ext) and len(base) > len(ext):
            return base[:-len(ext)]
    return base


def has_diff(data):
    return bool(_DIFF.search(data) and _PLUS.search(data))


def files_of(path):
    """The patch files of one PATCH element, in the order they apply.
    Raises PatchError when there is nothing to apply."""
    full = caller_path(path)
    if os.path.isdir(full):
        out = []
        for name in sorted(os.listdir(full)):
            f = os.path.join(full, name)
            if name.startswith(".") or not os.path.isfile(f):
                continue
            with open(f, "rb") as fh:
                if has_diff(fh.read()):
                    out.append(f)
        if not out:
            raise PatchError("patch series %s: no file in it holds a diff"
                             % path)
        return out
    if not os.path.isfile(full):
        raise PatchError("patch %s: no such file or directory" % path)
    with open(full, "rb") as fh:
        if not has_diff(fh.read()):
            raise PatchError("patch %s: holds no diff (not a patch, a "
                             "format-patch series or an mbox)" % path)
    return [full]


def digest(files):
    """[{"file", "sha256"}] of the patch files, in order."""
    out = []
    for f in files:
        with open(f, "rb") as fh:
            out.append({"file": f,
                        "sha256": hashlib.sha256(fh.read()).hexdigest()})
    return out


def subject_of(data):
    m = _SUBJECT.search(data)
    if not m:
        return ""
    return re.sub(r"\s+", " ", m.group(1).decode("utf-8", "replace")).strip()


def _is_mail(data):
    first = data.lstrip(b"\n").split(b"\n", 1)[0]
    return first.startswith(b"From ") or bool(_HEADER.match(first))


def _git(repo, args, env=None):
    e = dict(os.environ, **FIXED_ENV)
    if env:
        e.update(env)
    return subprocess.run(["git", "-C", repo] + IDENTITY + args,
                          capture_output=True, text=True, env=e)


def messages(path, tmp):
    """[(file, kind, subject)] of one patch file: kind "mail" (git am) or
    "diff" (git apply); an mbox is split into its mails, and mails without
    a diff (a cover letter) are left out."""
    with open(path, "rb") as f:
        data = f.read()
    if not _is_mail(data):
        return [(path, "diff", name_of(path))]
    if not data.lstrip(b"\n").startswith(b"From "):
        return [(path, "mail", subject_of(data))]
    out_dir = tempfile.mkdtemp(prefix="split-", dir=tmp)
    r = subprocess.run(["git", "mailsplit", "-o" + out_dir, path],
                       capture_output=True, text=True)
    if r.returncode:
        raise PatchError("patch %s: not a readable mbox: %s"
                         % (path, (r.stderr or r.stdout).strip()))
    out = []
    for name in sorted(os.listdir(out_dir)):
        f = os.path.join(out_dir, name)
        with open(f, "rb") as fh:
            msg = fh.read()
        if has_diff(msg):
            out.append((f, "mail", subject_of(msg)))
    return out


def _failure_detail(repo, msg_file):
    """Which file and hunk fail: `git apply --check -v` of the mail
    against the tree (its 'patch failed: FILE:LINE', 'while searching
    for' and the hunk's first lines), and git am's conflicts."""
    r = _git(repo, ["apply", "--check", "--verbose", msg_file])
    lines = [ln for ln in (r.stderr + r.stdout).splitlines()
             if not ln.startswith("Checking patch") and ln.strip()]
    keep, n_context = [], 0
    for ln in lines:
        if ln.startswith("error: while searching for"):
            keep.append(ln)
            n_context = 6
        elif ln.startswith("error:"):
            keep.append(ln)
            n_context = 0
        elif n_context:
            keep.append("    " + ln)
            n_context -= 1
    return keep


def _fail(repo, path, index, total, subject, out, msg_file):
    conflicts = [ln.strip() for ln in out.splitlines()
                 if ln.startswith("CONFLICT") or "does not exist in index"
                 in ln or "patch does not apply" in ln
                 or ln.startswith("error: patch failed")]
    detail = _failure_detail(repo, msg_file)
    where = "" if total == 1 else " (mail %d of %d)" % (index, total)
    lines = ["patch %s%s does not apply: %s" % (path, where,
                                                 subject or "(no subject)")]
    seen = set()
    for ln in conflicts + detail:
        if ln not in seen:
            seen.add(ln)
            lines.append("  " + ln)
    if len(lines) == 1:
        tail = [ln for ln in out.splitlines() if ln.strip()]
        lines += ["  " + ln for ln in tail[-5:]]
    raise PatchError("\n".join(lines))


def apply(repo, files, say=None):
    """Applies the patch files, in order, to the git tree 'repo' (HEAD
    checked out, clean).  Returns [{"file", "sha256", "subjects"}]; raises
    PatchError."""
    applied = []
    with tempfile.TemporaryDirectory(prefix="jsonbench-patches-") as tmp:
        for entry in digest(files):
            path = entry["file"]
            msgs = messages(path, tmp)
            if not msgs:
                raise PatchError("patch %s: no mail in it holds a diff" % path)
            subjects = []
            for i, (msg, kind, subject) in enumerate(msgs, 1):
                if kind == "mail":
                    r = _git(repo, ["am", "-3", msg])
                else:
                    r = _git(repo, ["apply", "--3way", "--index", msg])
                    if r.returncode == 0:
                        r = _git(repo, ["commit", "-q", "-m",
                                        "%s (%s)" % (subject, "plain diff")])
                if r.returncode:
                    _fail(repo, path, i, len(msgs), subject,
                          r.stdout + r.stderr, msg)
                subjects.append(subject)
                if say:
                    say("applied %s%s: %s" % (
                        os.path.basename(path),
                        "" if len(msgs) == 1 else " [%d/%d]" % (i, len(msgs)),
                        subject))
            applied.append(dict(entry, subjects=subjects))
    return applied


def scratch_clone(tree, commit, dest):
    """A shared clone of 'tree' (work tree or bare git dir) at 'commit'."""
    r = subprocess.run(["git", "clone", "-q", "--shared", "--no-checkout",
                        tree, dest], capture_output=True, text=True)
    if r.returncode == 0:
        r = _git(dest, ["checkout", "-q", "--detach", commit])
    if r.returncode:
        raise PatchError("cannot make a scratch tree of %s at %s: %s"
                         % (tree, commit[:12], r.stderr.strip()))


def init_repo(src):
    """Makes the extracted sources 'src' a git repository with one commit
    (a tarball's sources, to apply patches with git)."""
    for args in (["init", "-q"], ["add", "-A", "-f"],
                 ["commit", "-q", "-m", "sources"]):
        r = _git(src, args)
        if r.returncode:
            raise PatchError("cannot make a git tree of %s: %s"
                             % (src, r.stderr.strip()))


def drop_git(src):
    shutil.rmtree(os.path.join(src, ".git"), ignore_errors=True)
