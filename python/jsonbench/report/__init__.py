"""ovsdb-jsonbench report generator: results folder -> report.md + report.html.

Command line: python3 -m jsonbench.report RESULTS [--out DIR] [--title TEXT]
(reports/generate.py is the wrapper users run)."""

import argparse
import os
import sys

from .. import options as O
from . import document, results
# The sections and charts (matplotlib) load when a report is generated, so
# that importing jsonbench.report (compare does) needs no matplotlib.


class Context:
    """What every section gets: the results, chart helper, output folder."""

    def __init__(self, rs, out_dir, drawn=None):
        from .charts import Charts
        self.results = rs
        self.out_dir = out_dir
        self.charts = Charts(out_dir, drawn)
        # Same colour for the same impl in every chart, in run order.
        for impl in rs.impls():
            self.charts.color(impl)


def _write_atomic(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def shown_folder(results_dir):
    """How a report names its results folder: as given when relative, else
    results/<name> (where the runners write it), never a machine's path."""
    if not os.path.isabs(results_dir):
        return os.path.normpath(results_dir)
    return "results/" + os.path.basename(os.path.normpath(results_dir))


def provenance(env, results_dir):
    """The report's first line: the one command that made the results (as
    the run recorded it), the commit it ran at, and the command that
    rendered this report from them."""
    cmd = (env.get("command") or "").strip()
    commit = env.get("git_commit") or ""
    dirty = env.get("git_dirty") or ""
    text = ("Made by `%s`" % cmd) if cmd else "Made by a run that did not record its command"
    if commit:
        text += " at commit `%s`%s" % (commit[:12], "" if dirty in ("", "clean")
                                       else " (%s)" % dirty)
    else:
        text += " (commit not recorded)"
    return text + "; this report: `reports/generate.py %s`." % shown_folder(results_dir)


def generate(results_dir, out_dir=None, title=None, sections=None,
             ovs_trees=None, drawn=None):
    """Write report.md, report.html and charts/*.png; return the html path.
    'ovs_trees': OVS git trees in which the real builds' commits are looked
    up when their runs did not record their server code era.  'drawn': a
    dict filled with what each chart draws ({chart name: {series: {category:
    value}}}), for the tests that hold charts and tables to one figure."""
    rs = results.load(results_dir)
    rs.ovs_trees = list(ovs_trees or [])
    if not rs.entries:
        raise SystemExit("report: no results in %s (expected index.json or "
                         "google-benchmark JSON files)" % results_dir)
    out_dir = out_dir or (results_dir if os.path.isdir(results_dir)
                          else os.path.dirname(results_dir) or ".")
    os.makedirs(out_dir, exist_ok=True)
    from .sections import SECTIONS, STUDY_SECTIONS
    study = rs.env.get("study")
    if sections is None and study in STUDY_SECTIONS:
        # A study with its own report (scripts/jsonbench allocators).
        title = title or STUDY_SECTIONS[study][0]
        sections = STUDY_SECTIONS[study][1]
    ctx = Context(rs, out_dir, drawn)
    built = []
    for mod in sections or SECTIONS:
        try:
            sec = mod.build(ctx)
        except Exception as exc:  # one broken section must not lose the report
            sec = document.Section(mod.__name__.rsplit(".", 1)[-1], "error-" + mod.__name__)
            sec.para("This section failed: %s: %s" % (type(exc).__name__, exc))
            print("report: section %s failed: %s" % (mod.__name__, exc), file=sys.stderr)
        if sec is not None:
            built.append(sec)
    # Answer first: a claims reproduction opens with its claims table.
    built.sort(key=lambda sec: sec.anchor != "claims")
    title = title or "ovsdb-jsonbench report: %s" % os.path.basename(
        os.path.abspath(results_dir))
    intro = "%s  Impls: %s." % (provenance(rs.env, results_dir), ", ".join(rs.impls()))
    _write_atomic(os.path.join(out_dir, "report.md"),
                  document.render_markdown(title, intro, built, out_dir))
    html_path = os.path.join(out_dir, "report.html")
    _write_atomic(html_path, document.render_html(title, intro, built))
    return html_path


def _note_export(env):
    """A build dir made from `git archive <commit>` (to measure committed
    code while the shared tree has work in progress) has EXPORTED_COMMIT
    next to it: the binaries' commit is that one, not the tree's HEAD."""
    from .. import ROOT
    bdir = env.get("build_dir", "")
    marker = os.path.join(ROOT, bdir, "..", "EXPORTED_COMMIT")
    if bdir and os.path.exists(marker) and "binaries" not in env.get("git_dirty", ""):
        with open(marker) as f:
            commit = f.read().strip()
        env["git_commit"] = commit
        env["git_dirty"] = "binaries built from `git archive %s` (committed code only)" % commit
    return env


def render_claims(out_dir, ovs_tree=None, publish=None):
    """report.md + report.html of a claims folder; with 'publish', report.md
    and the charts it links copied to that folder (old charts there
    removed)."""
    from .. import build, resultsdir
    from .. import claims as C
    from ..gbench import read
    from ..util import log
    loaded = C.load_run(out_dir)
    if not loaded:
        sys.exit("reproduce: %s has no %s" % (out_dir, C.RUN_FILE))
    env_path = os.path.join(out_dir, "env.json")
    if os.path.exists(env_path):
        resultsdir.write_env(out_dir, _note_export(read(env_path)))
    scale = loaded[2].get("scale")
    html = generate(out_dir, title="ovsdb-jsonbench: seed claims reproduced at scale %g" % scale,
                    ovs_trees=[ovs_tree] if ovs_tree else None)
    log("reproduce: report %s" % build.rel(html))
    log("reproduce: report %s" % build.rel(os.path.join(out_dir, "report.md")))
    if publish:
        publish_report(out_dir, publish)


def publish_report(out_dir, dest):
    """report.md and the charts it links, copied to dest (no HTML, no raw
    results), e.g. reports/reference."""
    import glob
    import shutil
    from ..build import rel
    md = os.path.join(out_dir, "report.md")
    dest = os.path.abspath(dest)
    os.makedirs(os.path.join(dest, "charts"), exist_ok=True)
    for old in glob.glob(os.path.join(dest, "charts", "*.png")):
        os.unlink(old)
    with open(md) as f:
        text = f.read()
    for png in sorted(glob.glob(os.path.join(out_dir, "charts", "*.png"))):
        if "charts/" + os.path.basename(png) in text:
            shutil.copy(png, os.path.join(dest, "charts"))
    # The results folder is not published: it is named as the runners
    # write it, results/<name>, not by this machine's path.
    text = text.replace(out_dir, "results/" + os.path.basename(os.path.normpath(out_dir)))
    tmp = os.path.join(dest, "report.md.tmp")
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, os.path.join(dest, "report.md"))
    print("report: published %s" % rel(os.path.join(dest, "report.md")), file=sys.stderr)


EXAMPLES = """examples:
  reports/generate.py results/20260101T000000Z-abc1234
  reports/generate.py reports/history       (a history or find study.json)
  scripts/jsonbench report results/reproduce-... --publish reports/reference"""


def main(argv):
    ap = argparse.ArgumentParser(prog=O.prog("report"),
                                 description="Generate report.md and report.html (+ charts/) "
                                             "from a results folder.", epilog=EXAMPLES,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", help="results folder (results/<stamp>-<commit>/) or a JSON file")
    ap.add_argument("--out", metavar="DIR", help="output folder (default: the results folder)")
    ap.add_argument("--ovs-tree", metavar="DIR",
                    help="an OVS git tree holding the real builds' commits: tells the "
                         "server code era of runs that did not record it")
    ap.add_argument("--publish", metavar="DIR",
                    help="also copy report.md and its charts to DIR (e.g. reports/reference)")
    args = ap.parse_args(argv)
    trees = [args.ovs_tree] if args.ovs_tree else None
    if os.path.exists(os.path.join(args.results, "study.json")):
        # A history or find study (scripts/jsonbench history / find): its
        # report.md and chart next to its study.json; a study kept in the
        # repository (reports/history/) is named by its path there, and its
        # charts are PNG only.
        from . import history
        from .. import ROOT
        folder = os.path.abspath(args.results)
        inside = os.path.relpath(folder, ROOT)
        kept = not inside.startswith("..") and not inside.startswith("results")
        history.render(folder, folder=inside if kept else None, svg=not kept)
        print("report: %s" % os.path.join(args.results, "report.md"))
        return 0
    if os.path.exists(os.path.join(args.results, "claims-run.json")) and not args.out:
        # A claims reproduction: its own title and claims table.
        render_claims(os.path.abspath(args.results), args.ovs_tree, args.publish)
        return 0
    path = generate(args.results, args.out, ovs_trees=trees)
    print("report: %s" % path)
    print("report: %s" % os.path.join(os.path.dirname(path), "report.md"))
    if args.publish:
        publish_report(os.path.dirname(path), args.publish)
    return 0
