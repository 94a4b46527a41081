#!/usr/bin/env python3
"""One source of truth per figure, answer first, one sign convention.

Renders every committed fixture (tests/data/old-folders/: a suite run and a
claims reproduction) and reads the committed published reports (reports/),
then checks:
- every figure a chart draws (read back from the matplotlib artists:
  charts.drawn_values) equals the figure its table shows: the summary's
  Pareto points against the summary table's RSS and CPU cells, the claims
  chart's claimed / model / real bars against the claims table;
- the find chart's points and found labels against the find report's
  measurements and result tables, the history chart's points against the
  history table (studies re-rendered from their committed study.json);
- the report opens with its answer table (the claims table for a claims
  run, the ranked summary for a suite run, the steps for a history, the
  found commit for a find) and has no table row that is all dashes;
- counts in prose come from the data (the find report's "N commits
  measured" is its measurements table's row count);
- every "a -> b (c%)" in a published report has c = b / a - 1 (one sign
  convention), and every ranked "x vs ovs" change agrees with its cells.

Reports that cannot be re-rendered (their results folders are not in git:
STALE below, with the reason) are checked too; their problems are printed
and must still be there (so the list shrinks when they are regenerated).

usage: test_report_consistency.py SOURCE_ROOT"""

import contextlib
import glob
import io
import json
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from testkit import Checks  # noqa: E402

check = Checks()

# Published reports rendered from results folders that are not committed
# (scale-1 runs, hundreds of MB): they wait for the reference's next run
# of its one command (reports/README.md says so).
STALE = {
    "reports/reference/report.md": "joined from five reproductions whose folders are "
                                   "not kept",
    "reports/reference/seed3/report.md": "its results folder is not kept",
}

UNITS = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "kB": 1e3, "MB": 1e6,
         "GB": 1e9, "us": 1e-6, "ms": 1e-3, "s": 1.0, "min": 60.0, "M": 1e6}
NUM = r"[-+]?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?"


def quantity(cell):
    """'10.1 MiB' -> bytes, '45.9 ms' -> seconds; None when not one."""
    m = re.match(r"^\s*(%s)\s*(%s)\s*$" % (NUM, "|".join(map(re.escape, UNITS))), cell)
    if not m:
        return None
    return float(m.group(1).replace(",", "")) * UNITS[m.group(2)]


def pct(cell):
    m = re.match(r"^\s*(?:next\s+)?([-+]\d+(?:\.\d+)?)%", cell)
    return float(m.group(1)) if m else None


def tables(md):
    """[(heading, headers, rows)] of every markdown table, in order."""
    out, heading, lines = [], "", md.splitlines()
    i = 0
    while i < len(lines):
        ln = lines[i]
        if ln.startswith("#"):
            heading = ln.lstrip("#").strip()
        if ln.startswith("|") and i + 1 < len(lines) and re.match(r"^\|[-:|]+\|$",
                                                                  lines[i + 1]):
            headers = cells(ln)
            rows = []
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(cells(lines[i]))
                i += 1
            out.append((heading, headers, rows))
            continue
        i += 1
    return out


def cells(line):
    parts = re.split(r"(?<!\\)\|", line.strip())[1:-1]
    return [p.strip().replace("\\|", "|") for p in parts]


def close(a, b, rel=0.006):
    return a is not None and b is not None and abs(a - b) <= rel * max(abs(a), abs(b), 1e-12)


def all_dash_rows(md):
    """Rows whose cells after the first are all '-' or empty."""
    bad = []
    for heading, headers, rows in tables(md):
        for r in rows:
            if len(r) > 2 and all(c in ("-", "") for c in r[1:]):
                bad.append("%s: %s" % (heading, " | ".join(r)))
    return bad


def sign_errors(md):
    """Each 'a U -> b U (c%)' whose c is not b / a - 1."""
    bad = []
    unit = "|".join(map(re.escape, sorted(UNITS, key=len, reverse=True)))
    pat = re.compile(r"(%s)\s*(%s|/s)?\s*->\s*(%s)\s*(%s|/s)?\s*\(([-+]\d+(?:\.\d+)?)%%\)"
                     % (NUM, unit, NUM, unit))
    for m in pat.finditer(md):
        a, ua, b, ub, c = m.groups()
        if ua != ub:
            continue
        a, b = float(a.replace(",", "")), float(b.replace(",", ""))
        if a == 0:
            continue
        want = (b / a - 1) * 100
        # The printed a and b are rounded to 3-4 digits: allow for that.
        slack = 100 * (abs(b) / abs(a)) * 0.006 + 0.15
        if abs(want - float(c)) > slack:
            bad.append("%s (b / a - 1 = %+.1f%%)" % (m.group(0), want))
    return bad


def first_table(md):
    t = tables(md)
    return t[0] if t else (None, [], [])


# ----------------------------------------------------------------- fixtures

def render_fixture(name, tmp):
    from jsonbench import report
    folder = os.path.join(tmp, name)
    drawn = {}
    cwd = os.getcwd()
    os.chdir(tmp)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            report.generate(name, drawn=drawn)
    finally:
        os.chdir(cwd)
    with open(os.path.join(folder, "report.md")) as f:
        md = f.read()
    with open(os.path.join(folder, "report.html")) as f:
        html = f.read()
    return md, html, drawn


def axis_unit(label):
    m = re.search(r"\(([^()]+)\)\s*$", label)
    return UNITS.get(m.group(1)) if m else None


def check_summary(name, md, drawn):
    summ = [t for t in tables(md) if t[0] == "Summary"]
    if not check(summ, "%s: a summary table" % name):
        return
    _h, headers, rows = summ[0]
    check(headers[:4] == ["dataset", "workload", "rank", "impl"],
          "%s: the summary ranks the representations: %s" % (name, headers))
    col = {h: k for k, h in enumerate(headers)}
    base = {}
    for r in rows:
        if r[col["impl"]] == "ovs":
            base[(r[0], r[1])] = r
    for r in rows:
        b = base.get((r[0], r[1]))
        check(b is not None, "%s: %s/%s has an `ovs` row to rank against" % (name, r[0], r[1]))
        if not b or r is b:
            continue
        for metric in ("RSS", "CPU"):
            value_col = "RSS after" if metric == "RSS" else "CPU time"
            mine, ref = quantity(r[col[value_col]]), quantity(b[col[value_col]])
            ch = pct(r[col["%s vs ovs" % metric]])
            # The cells are rounded to 3 digits: the sign and size agree.
            check(ch is not None and mine and ref and
                  abs((mine / ref - 1) * 100 - ch) <= 1.0 + 0.6 * abs(ch) / 100 * 2,
                  "%s: %s %s: change %s is impl / ovs - 1 of %s and %s"
                  % (name, r[1], metric, r[col["%s vs ovs" % metric]], r[col[value_col]],
                     b[col[value_col]]))
    # The Pareto chart draws the load rows' medians.
    pareto = drawn.get("pareto-rss-cpu", {})
    points = {}
    for key, d in pareto.items():
        if key.endswith("| points"):
            ds = key.split(":")[0].strip()
            xu, yu = axis_unit(d["x"]), axis_unit(d["y"])
            for impl, (x, y) in d["values"].items():
                if impl != "Pareto frontier":
                    points[(ds, impl)] = (x * xu, y * yu)
    load = [r for r in rows if r[1] == "load"]
    check(not load or points, "%s: the Pareto chart draws the load rows" % name)
    for r in load:
        impl = r[col["impl"]].strip("`")
        p = points.get((r[0], impl))
        check(p is not None and close(p[0], quantity(r[col["CPU time"]]), 0.006) and
              close(p[1], quantity(r[col["RSS after"]]), 0.006),
              "%s: Pareto point of %s on %s %s equals the table's CPU %s / RSS %s"
              % (name, impl, r[0], p, r[col["CPU time"]], r[col["RSS after"]]))


def check_claims(name, md, drawn):
    t = first_table(md)
    _h, headers, rows = t
    check(headers[:2] == ["claim", "claimed"] and "verdict" in headers,
          "%s: the report opens with the claims table (claim, claimed, model, [real,] "
          "verdict): %s" % (name, headers))
    col = {h: k for k, h in enumerate(headers)}
    model_col = next((k for k, h in enumerate(headers) if "change" in h and "real" not in h),
                     None)
    real_col = next((k for k, h in enumerate(headers) if h.startswith("real OVS")), None)
    bars = drawn.get("claims-change", {})
    series = {}
    for key, d in bars.items():
        label = key.split("|", 1)[1].strip()
        series["claimed" if label == "claimed" else "real" if label == "real OVS"
               else "model"] = d["values"]
    check(series.get("claimed"), "%s: the claims chart is drawn" % name)
    drawn_ids = set()
    for s in series.values():
        drawn_ids |= set(s)
    for r in rows:
        cid = r[col["claim"]]
        claimed, model = pct(r[col["claimed"]]), pct(r[model_col])
        real = pct(r[real_col]) if real_col is not None else None
        if claimed is None or model is None:
            check(cid not in drawn_ids, "%s: %s has no figure in the table, none in the "
                  "chart" % (name, cid))
            continue
        got = {k: v.get(cid) for k, v in series.items()}
        check(got.get("claimed") is not None and abs(got["claimed"] - claimed) < 0.051,
              "%s: %s claimed bar %s = table %s" % (name, cid, got.get("claimed"), claimed))
        m = got.get("model")
        check(m is not None and (abs(m - model) < 0.051 or (m in (-100, 300) and
                                                           (model <= -100 or model >= 300))),
              "%s: %s model bar %s = table %s" % (name, cid, m, model))
        if real is not None:
            check(got.get("real") is not None and abs(got["real"] - real) < 0.051,
                  "%s: %s real bar %s = table %s" % (name, cid, got.get("real"), real))
        else:
            check(got.get("real") is None, "%s: %s has no real figure in the table, no "
                  "real bar" % (name, cid))


def fixtures(root, tmp):
    data = os.path.join(root, "tests", "data", "old-folders")
    names = sorted(os.listdir(data))
    check(len(names) >= 2, "fixtures found in %s" % data)
    for name in names:
        shutil.copytree(os.path.join(data, name), os.path.join(tmp, name),
                        ignore=shutil.ignore_patterns("report.md"))
        md, html, drawn = render_fixture(name, tmp)
        claims = os.path.exists(os.path.join(data, name, "claims-run.json"))
        if claims:
            check_claims(name, md, drawn)
        else:
            h, headers, _rows = first_table(md)
            check(h == "Summary" and "rank" in headers,
                  "%s: a suite report opens with the ranked summary: %s %s"
                  % (name, h, headers))
        check_summary(name, md, drawn)
        for bad in all_dash_rows(md):
            check(False, "%s: a row of dashes: %s" % (name, bad))
        for bad in sign_errors(md):
            check(False, "%s: change is not after / before - 1: %s" % (name, bad))
        # The HTML has the same first table as the markdown.
        first = first_table(md)[1]
        m = re.search(r"<table><tr>(.*?)</tr>", html)
        check(m and [re.sub(r"<[^>]+>", "", c) for c in
                     re.findall(r"<th>(.*?)</th>", m.group(1))] == first,
              "%s: report.html opens with the same table" % name)


# ---------------------------------------------------------------- published

def check_find(root, folder, problems):
    """A find report re-rendered from its committed study.json: what it
    says equals what its chart draws and what its tables count."""
    from jsonbench.report import history as H
    with open(os.path.join(folder, "study.json")) as f:
        study = json.load(f)
    with open(os.path.join(folder, "report.md")) as f:
        md = f.read()
    rel = os.path.relpath(folder, root)
    h, headers, rows = first_table(md)
    problems.append((h == "Result" and headers[0] == "commit" and
                     headers[-1] == "change", "%s: opens with the found commit and its "
                     "step: %s %s" % (rel, h, headers)))
    meas = [t for t in tables(md) if t[0] == "Measurements"]
    n = len(meas[0][2]) if meas else -1
    m = (re.search(r"Builds: (\d+) commits measured", md)
         or re.search(r"Builds: \d+ commits, the good end and the (\d+) measured", md))
    problems.append((m and int(m.group(1)) == n,
                     "%s: 'N commits measured' (%s) = the measurements table's %d rows"
                     % (rel, m.group(1) if m else None, n)))
    for r in rows:
        m2 = re.match(r"(%s) -> (%s)" % (NUM, NUM), r[2])
        ch = pct(r[3])
        problems.append((m2 and ch is not None and
                         abs((float(m2.group(2)) / float(m2.group(1)) - 1) * 100 - ch) < 0.1,
                         "%s: found %s: change %s = after / before - 1 of %s"
                         % (rel, r[0], r[3], r[2])))
    # The chart draws the measurements' ratios and labels the found steps.
    fig = H.find_figure(study)
    fig.set_dpi(100)
    fig.canvas.draw()
    ax = fig.axes[0]
    drawn = {}
    for line in ax.lines:
        xs, ys = line.get_data()
        if line.get_marker() == "o" and len(xs) > 1:
            drawn.update({int(x): float(y) for x, y in zip(xs, ys)})
    ratios = {}
    for r in meas[0][2] if meas else []:
        h10 = r[0].split("`")[1]
        idx = next(i for i, c in enumerate(study["line"]) if c.startswith(h10))
        ratios[idx] = float(r[2])
    problems.append((ratios and all(abs(drawn.get(i, -1) - v) < 0.00006
                                    for i, v in ratios.items()),
                     "%s: the find chart's points equal the measurements table's / good "
                     "column" % rel))
    labels = [t for t in ax.texts if "(" in t.get_text()]
    for r in rows:
        problems.append((any(r[0].strip("`") in t.get_text() and r[3] in t.get_text()
                             for t in labels),
                         "%s: the chart labels %s with the table's change %s"
                         % (rel, r[0], r[3])))
    rend = fig.canvas.get_renderer()
    boxes = [t.get_window_extent(rend) for t in labels]
    problems.append((all(not a.overlaps(b) for k, a in enumerate(boxes)
                         for b in boxes[k + 1:]),
                     "%s: the find chart's labels do not overlap" % rel))
    problems.append((fig.get_figwidth() * 100 >= 1000,
                     "%s: the find chart is at least 1000 px wide" % rel))
    import matplotlib.pyplot as plt
    plt.close(fig)


def check_history(root, folder, md_name, problems):
    from jsonbench.report import history as H
    with open(os.path.join(folder, "study.json")) as f:
        study = json.load(f)
    with open(os.path.join(folder, md_name)) as f:
        md = f.read()
    rel = os.path.relpath(os.path.join(folder, md_name), root)
    h, headers, rows = first_table(md)
    problems.append((h == "Steps" and headers[:3] == ["figure", "from", "to"],
                     "%s: opens with the steps: %s %s" % (rel, h, headers)))
    for r in rows:
        a, b, ch = quantity(r[3]), quantity(r[4]), pct(r[5])
        problems.append((a and b and ch is not None and abs((b / a - 1) * 100 - ch) < 0.1,
                         "%s: step %s: change %s = after / before - 1" % (rel, r, r[5])))
    every = [t for t in tables(md) if t[0] == "Every point"]
    fig = H.history_figure(study)
    ok = bool(every)
    if every:
        _h, heads, prow = every[0]
        for ax, name in zip(fig.axes, [f for f in study["figures"]
                                       if any(f in p.get("figures", {})
                                              for p in study["points"])]):
            col = next(k for k, hd in enumerate(heads) if hd.startswith(H.FIGURES[name].label))
            pts = {}
            for line in ax.lines:
                xs, ys = line.get_data()
                if line.get_marker() == "o":
                    pts.update({int(x): float(y) for x, y in zip(xs, ys)})
            for x, r in enumerate(prow):
                m = re.match(NUM, r[col])
                if m:
                    ok &= abs(pts.get(x, -1e9) - float(m.group(0))) <= \
                        0.0051 * max(1, abs(float(m.group(0))) / 100)
    problems.append((ok, "%s: the history chart's points equal its table" % rel))
    import matplotlib.pyplot as plt
    plt.close(fig)


def check_reference_readme(root, problems):
    """reports/reference/README.md opens with the answer (claim, claimed,
    model, real, verdict) and its figures are report.md's."""
    ref = os.path.join(root, "reports", "reference")
    with open(os.path.join(ref, "README.md")) as f:
        readme = f.read()
    with open(os.path.join(ref, "report.md")) as f:
        report = f.read()
    h, headers, rows = first_table(readme)
    problems.append((headers[:5] == ["claim", "claimed", "model", "real OVS", "verdict"],
                     "reports/reference/README.md opens with claim, claimed, model, real, "
                     "verdict: %s" % headers))
    full = [t for t in tables(report) if t[0].startswith("Seed claims")]
    if not full:
        problems.append((False, "reports/reference/report.md has its claims table"))
        return
    _h, fh, frows = full[0]
    fc = {x: k for k, x in enumerate(fh)}
    by_id = {r[fc["claim"]]: r for r in frows}

    def change(cell):
        m = re.search(r"\(([-+]\d+(?:\.\d+)?)%\)", cell)
        return float(m.group(1)) if m else cell.strip()

    problems.append((len(rows) == len(frows), "README: one row per claim of report.md "
                     "(%d, %d)" % (len(rows), len(frows))))
    for r in rows:
        f = by_id.get(r[0])
        if not f:
            problems.append((False, "README: %s is not in report.md" % r[0]))
            continue
        for mine, theirs in ((r[1], f[fc["claimed before -> after (change)"]]),
                             (r[2], f[fc["measured before -> after (change)"]]),
                             (r[3], f[fc["real OVS before -> after (change)"]])):
            a, b = pct(mine), change(theirs)
            same = (a == b) if isinstance(b, float) else (mine.strip() == b or
                                                         (mine.strip() == "-" and b == "-"))
            problems.append((same, "README: %s: %s is report.md's %s" % (r[0], mine, theirs)))


def published(root):
    for path in sorted(glob.glob(os.path.join(root, "reports", "**", "*.md"), recursive=True)):
        rel = os.path.relpath(path, root)
        if rel == "reports/README.md":
            continue
        with open(path) as f:
            md = f.read()
        problems = []
        folder = os.path.dirname(path)
        if rel == "reports/reference/README.md":
            check_reference_readme(root, problems)
        if os.path.exists(os.path.join(folder, "study.json")) and \
                os.path.basename(path) == "report.md":
            with open(os.path.join(folder, "study.json")) as f:
                tool = json.load(f)["tool"]
            if tool == "find":
                check_find(root, folder, problems)
            else:
                check_history(root, folder, os.path.basename(path), problems)
        problems += [(False, "%s: a row of dashes: %s" % (rel, b)) for b in all_dash_rows(md)]
        problems += [(False, "%s: change is not after / before - 1: %s" % (rel, b))
                     for b in sign_errors(md)]
        failed = [what for ok, what in problems if not ok]
        if rel in STALE:
            for what in failed:
                print("known (stale: %s): %s" % (STALE[rel], what))
            check(failed, "%s is listed as stale but passes: take it off STALE" % rel)
        else:
            for what in failed:
                check(False, what)


def main():
    root = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="report-consistency-") as tmp:
        os.environ["MPLCONFIGDIR"] = os.path.join(tmp, "mpl")
        fixtures(root, tmp)
        published(root)
    return check.finish("ok: charts equal their tables, answers first, one sign convention")


sys.exit(main())
