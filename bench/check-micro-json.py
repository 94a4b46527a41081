#!/usr/bin/env python3
"""Smoke test of a jsonbench-micro-<impl> executable.

usage: check-micro-json.py --impl NAME [--sizes small,...] -- EXE [ARGS...]

Runs EXE ARGS with JSON output and checks that the report parses, names the
impl in its context, and holds exactly the expected "<op>/<doc>/<size>"
benchmarks, each with sane rates and allocation counters.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

OPS = ["parse", "serialize", "serialize_sorted", "serialize_pretty",
       "serialize_cached", "clone", "deep_clone", "destroy", "equal", "hash"]
DOCS = ["nb_rows", "sb_flows", "generic"]


def fail(msg):
    print("check-micro-json: FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--impl", required=True)
    ap.add_argument("--sizes", default="small")
    ap.add_argument("command", nargs="+")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "micro.json")
        cmd = args.command + ["--benchmark_out_format=json",
                              "--benchmark_out=" + out]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
        if proc.returncode != 0:
            fail("%s exited with status %d" % (cmd[0], proc.returncode))
        try:
            with open(out) as f:
                report = json.load(f)
        except (OSError, ValueError) as e:
            fail("no valid JSON report: %s" % e)

    ctx = report.get("context", {})
    if ctx.get("impl") != args.impl:
        fail("context impl is %r, expected %r" % (ctx.get("impl"), args.impl))
    for key in ("features", "allocator", "build_type", "git_commit"):
        if not isinstance(ctx.get(key), str):
            fail("context has no string %r" % key)
    try:
        if int(ctx.get("node_size", "0")) <= 0:
            raise ValueError
    except ValueError:
        fail("context node_size %r is not a positive integer"
             % ctx.get("node_size"))

    expected = {"%s/%s/%s" % (op, doc, size)
                for op in OPS for doc in DOCS
                for size in args.sizes.split(",")}
    runs = [b for b in report.get("benchmarks", [])
            if b.get("run_type") == "iteration"]
    names = [b.get("name") for b in runs]
    if len(names) != len(set(names)):
        fail("duplicate benchmark names")
    if set(names) != expected:
        fail("benchmark names differ: missing %s, unexpected %s"
             % (sorted(expected - set(names)), sorted(set(names) - expected)))

    for b in runs:
        name = b["name"]
        if b.get("error_occurred"):
            fail("%s: %s" % (name, b.get("error_message")))
        for key in ("bytes_per_second", "items_per_second"):
            if not b.get(key, 0) > 0:
                fail("%s: %s missing or not positive" % (name, key))
        for key in ("alloc_calls", "alloc_bytes", "frees", "doc_bytes",
                    "nodes"):
            if key not in b or b[key] < 0:
                fail("%s: counter %s missing or negative" % (name, key))
        op = name.split("/")[0]
        # Building a tree must allocate, destroying one must free.
        if op in ("parse", "deep_clone") and not b["alloc_calls"] > 0:
            fail("%s: no allocation counted" % name)
        if op == "destroy" and not b["frees"] > 0:
            fail("%s: no free counted" % name)
        # The OVSDB documents are generated in the serializer's compact
        # form, so re-serializing them gives back as many bytes.
        doc = name.split("/")[1]
        if (op in ("serialize", "serialize_sorted", "serialize_cached")
                and doc in ("nb_rows", "sb_flows")
                and b.get("out_bytes") != b["doc_bytes"]):
            fail("%s: %s output bytes for a %d-byte document"
                 % (name, b.get("out_bytes"), b["doc_bytes"]))

    print("check-micro-json: %s: %d benchmarks OK" % (args.impl, len(runs)))


if __name__ == "__main__":
    main()
