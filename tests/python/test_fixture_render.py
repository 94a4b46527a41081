#!/usr/bin/env python3
"""Old results folders re-render to the same report.

tests/data/old-folders/ holds two small results folders as the runners wrote
them before the job model (suite-tiny: scripts/suite.sh, 2 impls x load,
dump on a tiny NB database; reproduce-tiny: scripts/reproduce.sh --only
s4-nb-dump at scale 0.002) with the report.md rendered then.  Each is
rendered again, the way users do (reports/generate.py, which renders a
claims folder as the reproduction does), into a scratch copy and must give the same report.md.

Not compared: the 'Model vs real OVS (calibration)' section, which shows
the gate's latest calibration from today's baselines/gate.json when a run
had no real OVS (a baseline refresh changes it, not the folder), and
'Predictions vs real patches', which shows today's claims/predictions/.

After a deliberate change to the report generator, refresh the stored
reports with: test_fixture_render.py SOURCE_ROOT --update

usage: test_fixture_render.py SOURCE_ROOT [--update]"""

import contextlib
import difflib
import io
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from testkit import Checks  # noqa: E402

check = Checks()
# Sections that show today's project data rather than the folder's.
VOLATILE = ("## Model vs real OVS (calibration)", "## Predictions vs real patches")


def normalized(text, folder, name):
    text = text.replace(folder, name)
    for head in VOLATILE:
        start = text.find(head)
        if start >= 0:
            end = text.find("\n## ", start + len(head))
            text = text[:start] + head + "\n\n(not compared)\n" + (text[end:] if end >= 0
                                                                    else "")
    return text


def render(name, tmp):
    """report.md of a scratch copy of tests/data/old-folders/<name>."""
    from jsonbench import report
    folder = os.path.join(tmp, name)
    cwd = os.getcwd()
    os.chdir(tmp)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            report.main([name])
    finally:
        os.chdir(cwd)
    with open(os.path.join(folder, "report.md")) as f:
        return f.read()


def main():
    root = sys.argv[1]
    update = "--update" in sys.argv[2:]
    data = os.path.join(root, "tests", "data", "old-folders")
    names = sorted(os.listdir(data))
    check(len(names) >= 2, "fixtures found in %s: %s" % (data, names))
    with tempfile.TemporaryDirectory(prefix="fixture-render-") as tmp:
        os.environ["MPLCONFIGDIR"] = os.path.join(tmp, "mpl")
        for name in names:
            src = os.path.join(data, name)
            shutil.copytree(src, os.path.join(tmp, name),
                            ignore=shutil.ignore_patterns("report.md"))
            got = render(name, tmp)
            stored = os.path.join(src, "report.md")
            if update:
                with open(stored, "w") as f:
                    f.write(got.replace(os.path.join(tmp, name), name))
                print("updated %s" % stored)
                continue
            with open(stored) as f:
                want = normalized(f.read(), os.path.join(tmp, name), name)
            got = normalized(got, os.path.join(tmp, name), name)
            diff = "".join(difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                                "stored", "rendered", n=1))
            check(got == want, "%s re-renders to its stored report.md:\n%s"
                  % (name, diff[:4000]))
            check(re.search(r"\| (plain|refcount) ", got) is not None,
                  "%s: the report has its impls' rows" % name)
    return check.finish("ok: %d old results folders re-render to their stored reports"
                        % len(names))


sys.exit(main())
