#!/usr/bin/env python3
"""The suite's HTML report shows its answer table above the fold.

Renders the committed suite fixture (tests/data/old-folders/suite-tiny)
and checks, without a browser, that report.html puts the answer table
(the ranked summary) before any chart or other section.  With headless
chromium (/usr/bin/chromium, or $CHROMIUM) it then lays the page out in a
1400 x 900 window, reads the table's box from the DOM and checks that the
whole table lies above the fold (900 px), and writes a screenshot
(fold.png; into $FOLD_SCREENSHOT_DIR when set, to look at).  Without
chromium that part is skipped: exit 77 (meson: skipped) after the static
checks passed, or a failure with JSONBENCH_REQUIRE_CHROMIUM set (CI).

usage: test_html_fold.py SOURCE_ROOT"""

import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from testkit import Checks  # noqa: E402

check = Checks()
WIDTH, FOLD = 1400, 900
PROBE = """<script>
window.addEventListener('load', function () {
  var t = document.querySelector('table');
  var r = t.getBoundingClientRect();
  var h = document.querySelector('h2');
  document.body.setAttribute('data-fold', [Math.round(r.top), Math.round(r.bottom),
    t.rows.length, h ? h.textContent : ''].join('|'));
});
</script>"""


def chromium():
    for c in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
              shutil.which("chromium-browser")):
        if c and os.access(c, os.X_OK):
            return c
    return None


def browser(exe, html, *args):
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--window-size=%d,%d" % (WIDTH, FOLD)] + list(args) + ["file://" + html]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def main():
    root = os.path.abspath(sys.argv[1])
    from jsonbench import report
    with tempfile.TemporaryDirectory(prefix="html-fold-") as tmp:
        os.environ["MPLCONFIGDIR"] = os.path.join(tmp, "mpl")
        folder = os.path.join(tmp, "suite-tiny")
        shutil.copytree(os.path.join(root, "tests", "data", "old-folders", "suite-tiny"),
                        folder, ignore=shutil.ignore_patterns("report.md"))
        with contextlib.redirect_stdout(io.StringIO()):
            path = report.generate(folder)
        with open(path) as f:
            html = f.read()
        body = html[html.index("<body>"):]
        first_table = body.find("<table>")
        first_img = body.find("<img")
        h2 = re.findall(r"<h2 id='([^']+)'", body)
        check(first_table > 0 and (first_img < 0 or first_table < first_img),
              "the answer table comes before any chart in report.html")
        check(h2[:1] == ["summary"], "the first section is the summary: %s" % h2[:3])
        check(h2 and body.find("<h2 id='%s'" % h2[1]) > first_table if len(h2) > 1 else True,
              "the answer table comes before the second section")
        head = re.search(r"<table><tr>(.*?)</tr>", body)
        check(head and "rank" in head.group(1) and "RSS vs ovs" in head.group(1),
              "the first table is the ranked summary: %s" % (head.group(1) if head else None))
        exe = chromium()
        if check.failures or not exe:
            if not exe:
                if os.environ.get("JSONBENCH_REQUIRE_CHROMIUM"):
                    print("FAIL: no chromium, and JSONBENCH_REQUIRE_CHROMIUM is set")
                    return 1
                print("SKIP: no chromium (apt-get install chromium): static checks only")
                return 1 if check.failures else 77
            return check.finish("")
        probe = os.path.join(tmp, "probe.html")
        with open(probe, "w") as f:
            f.write(html.replace("</body>", PROBE + "</body>"))
        p = browser(exe, probe, "--virtual-time-budget=5000", "--dump-dom")
        m = re.search(r'data-fold="(-?\d+)\|(-?\d+)\|(\d+)\|([^"]*)"', p.stdout)
        check(m is not None, "chromium laid the page out (%s)" % p.stderr[-300:])
        if m:
            top, bottom, rows = int(m.group(1)), int(m.group(2)), int(m.group(3))
            print("answer table at %d..%d px of a %d px window (%d rows)"
                  % (top, bottom, FOLD, rows))
            check(0 <= top < bottom <= FOLD,
                  "the whole answer table is above the fold: %d..%d px, fold at %d"
                  % (top, bottom, FOLD))
        shot_dir = os.environ.get("FOLD_SCREENSHOT_DIR") or tmp
        os.makedirs(shot_dir, exist_ok=True)
        shot = os.path.join(shot_dir, "fold.png")
        p = browser(exe, path, "--screenshot=" + shot)
        check(os.path.exists(shot) and os.path.getsize(shot) > 1000,
              "chromium wrote the screenshot %s (%s)" % (shot, p.stderr[-300:]))
        if os.path.exists(shot):
            with open(shot, "rb") as f:
                sig = f.read(24)
            w, h = int.from_bytes(sig[16:20], "big"), int.from_bytes(sig[20:24], "big")
            check((w, h) == (WIDTH, FOLD), "the screenshot is %dx%d" % (w, h))
    return check.finish("ok: the suite report's answer table is above the fold at %d px"
                        % WIDTH)


sys.exit(main())
