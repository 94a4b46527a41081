"""Small helpers shared by the runners: progress lines, durations, hashes,
the error a study stops on."""

import hashlib


class StudyError(Exception):
    """A study cannot go on (bad input, a git or build step that failed);
    its front end prints the message and exits 2."""


def log(msg):
    print(msg, flush=True)


def fmt_dur(s):
    """Seconds as m:ss, or h:mm:ss from an hour on."""
    s = int(round(s))
    if s >= 3600:
        return "%d:%02d:%02d" % (s // 3600, s % 3600 // 60, s % 60)
    return "%d:%02d" % (s // 60, s % 60)


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()
