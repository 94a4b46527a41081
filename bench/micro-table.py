#!/usr/bin/env python3
"""Summarizes jsonbench-micro-<impl> reports as markdown tables.

usage: micro-table.py [--all] REPORT.json...

One report per impl (google-benchmark JSON from jsonbench-micro-<impl>).
Prints sizeof(struct json) per impl, then one table per metric with a row
per document and a column per impl.  A value is the median over all
repetitions of that benchmark in the report.  MB/s is 10^6 bytes per second
of CPU time: input bytes for parse, output bytes for serialize.
"""
import argparse
import json
import statistics
import sys

DOC_ORDER = [(d, s) for s in ("small", "medium", "large")
             for d in ("nb_rows", "sb_flows", "generic")]

# (title, op, counter, scale, format)
BASIC = [
    ("parse MB/s", "parse", "bytes_per_second", 1e-6, "%.1f"),
    ("serialize MB/s (compact)", "serialize", "bytes_per_second", 1e-6,
     "%.1f"),
]
MORE = [
    ("serialize MB/s (sorted keys)", "serialize_sorted", "bytes_per_second",
     1e-6, "%.1f"),
    ("serialize MB/s (pretty)", "serialize_pretty", "bytes_per_second", 1e-6,
     "%.1f"),
    ("serialize MB/s (top-level members as serialized objects)",
     "serialize_cached", "bytes_per_second", 1e-6, "%.1f"),
    ("deep_clone MB/s", "deep_clone", "bytes_per_second", 1e-6, "%.1f"),
    ("destroy MB/s", "destroy", "bytes_per_second", 1e-6, "%.1f"),
    ("parse: allocation calls per document", "parse", "alloc_calls", 1,
     "%.0f"),
    ("parse: bytes allocated per document", "parse", "alloc_bytes", 1,
     "%.0f"),
]


def load(path):
    with open(path) as f:
        report = json.load(f)
    ctx = report.get("context", {})
    values = {}   # (name, counter) -> [values]
    for b in report.get("benchmarks", []):
        if b.get("run_type") != "iteration" or b.get("error_occurred"):
            continue
        for key, value in b.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                values.setdefault((b["name"], key), []).append(value)
    return ctx, values


def table(title, header, rows):
    out = ["### " + title, ""]
    out.append("| " + " | ".join(header) + " |")
    # Numbers right-aligned; the first column and text columns left.
    out.append("|" + "|".join(
        "---" if i == 0 or header[i] == "features" else "---:"
        for i in range(len(header))) + "|")
    for row in rows:
        out.append("| " + " | ".join(row) + " |")
    out.append("")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--all", action="store_true",
                    help="also serialize variants, clone, destroy, allocs")
    ap.add_argument("reports", nargs="+")
    args = ap.parse_args()

    impls = []   # (name, ctx, values)
    for path in args.reports:
        try:
            ctx, values = load(path)
        except (OSError, ValueError) as e:
            print("micro-table: %s: %s" % (path, e), file=sys.stderr)
            return 1
        impls.append((ctx.get("impl", path), ctx, values))

    out = [table("sizeof(struct json)", ["impl", "bytes", "features"],
                 [[name, ctx.get("node_size", "?"), ctx.get("features", "")]
                  for name, ctx, _ in impls])]

    for title, op, counter, scale, fmt in BASIC + (MORE if args.all else []):
        rows = []
        for doc, size in DOC_ORDER:
            name = "%s/%s/%s" % (op, doc, size)
            row = ["%s/%s" % (doc, size)]
            for _, _, values in impls:
                v = values.get((name, counter))
                row.append(fmt % (statistics.median(v) * scale) if v else "-")
            if any(cell != "-" for cell in row[1:]):
                rows.append(row)
        if rows:
            out.append(table(title, ["document"] + [n for n, _, _ in impls],
                             rows))

    first = impls[0][1]
    out.append("build: %s, %s, allocator %s, commit %s, %s cpus @ %s MHz"
               % (first.get("build_type", "?"), first.get("compiler", "?"),
                  first.get("allocator", "?"), first.get("git_commit", "?"),
                  first.get("num_cpus", "?"), first.get("mhz_per_cpu", "?")))
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
