#!/usr/bin/env python3
"""The report's "Builds that failed" table names what failed: for a patch
that does not apply, the patch file and the file and line git fails on
(they come first in the error, before the hunk's context, and a table
cell that kept only the error's last lines lost them); for a failed
build, its log path and the log's last lines; for a bad ref, git's
message.  The errors are those the suite recorded in index.json for a
copy of patches/ovs/arena-heapstr with an edited context line, a ref
the tree lacks and a broken configure.ac (v3.7.1)."""

import os
import sys

from jsonbench.report.document import Section, render_markdown
from jsonbench.report.sections import model_vs_real as M

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "pylib"))
from testkit import Checks  # noqa: E402

check = Checks()

PATCH = (
    "patch /tmp/s/0003-ovsdb-log-Parse-records-into-an-arena.patch does not "
    "apply: [PATCH 3/3] ovsdb-log: Parse records into an arena.\n"
    "  error: patch failed: ovsdb/log.c:392\n"
    "  error: ovsdb/log.c: patch does not apply\n"
    "  error: while searching for:\n"
    "          struct sha1_ctx ctx;\n"
    "\n"
    "          sha1_init(&ctx);\n"
    "          parser = json_parser_create(JSPF_TRAILER);\n"
    "\n"
    "          while (length >= 0) {\n"
    "              char input[BUFSIZ];")
REF = ("git rev-parse --verify v9.9.9^{commit} in ../ovs: fatal: Needed a "
       "single revision")
LOG = ["make[%d]: step %d" % (i, i) for i in range(20)]
BUILD = ("build of v3.7.1+broken (7921d9c6924b) failed (/c/7921-5c99/build."
         "log); log tail:\n$ ./boot.sh\n" + "\n".join(LOG) + "\n"
         "configure.ac:17: error: deliberately broken\n"
         "autoreconf: error: aclocal failed with exit status: 1\n")


def main():
    t = M.failure_text(PATCH)
    check(t.startswith("patch /tmp/s/0003-ovsdb-log-Parse-records-into-an-"
                       "arena.patch does not apply: [PATCH 3/3]"),
          "patch failure names the patch and its mail first: " + t)
    check("error: patch failed: ovsdb/log.c:392" in t,
          "patch failure names the file and line: " + t)
    check("while (length >= 0) {" in t and "char input[BUFSIZ];" in t,
          "patch failure keeps the hunk's last context lines: " + t)
    check("\n" not in t, "one line per failure")

    t = M.failure_text(REF)
    check(t == REF, "a one-line error is kept as it is: " + t)

    t = M.failure_text(BUILD)
    check(t.startswith("build of v3.7.1+broken (7921d9c6924b) failed "
                       "(/c/7921-5c99/build.log)"),
          "build failure names the build and its log: " + t)
    check("configure.ac:17: error: deliberately broken" in t
          and "autoreconf: error: aclocal failed" in t,
          "build failure keeps the log's last lines: " + t)
    check(LOG[19] in t and LOG[16] in t and LOG[15] not in t,
          "build failure keeps 6 lines of the tail, not the whole log: " + t)

    class Results:
        env = {"ovs_build_failures": [
            {"target": "ovs-v3.7.1+s", "error": PATCH},
            {"target": "ovs-v9.9.9", "error": REF},
            {"target": "ovs-v3.7.1+broken", "error": BUILD}]}
    s = Section("Model vs real", "mvr")
    M.failures_block(s, Results())
    md = render_markdown("r", "", [s], ".")
    rows = [ln for ln in md.splitlines() if ln.startswith("| ovs-")]
    check(len(rows) == 3, "one table row per failed target: %r" % rows)
    check(any("ovsdb/log.c:392" in r and "0003-ovsdb-log" in r for r in rows),
          "the report's row for the patch names it and the failing line")
    return check.finish("build failure text: ok")


if __name__ == "__main__":
    sys.exit(main())
