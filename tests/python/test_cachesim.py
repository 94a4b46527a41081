#!/usr/bin/env python3
"""jsonbench.cachesim, simulated cache misses on a fixed geometry: the
summary line's events summed into d1_misses and ll_misses, a summary
without a cache simulation refused, and a real cachegrind run through
the deterministic backend (mode "cachesim"): the same counts twice (to a
few hundred), and random accesses over a heap four times the simulated
last level missing it many times more than the same accesses over a
quarter of it, and the first level too.

usage: test_cachesim.py NOISE_PROBE"""

import os
import shutil
import sys
import tempfile

from jsonbench import cachesim
from jsonbench.detjobs import Scratch, det_job

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "pylib"))
from testkit import Checks  # noqa: E402

check = Checks()


def test_figures():
    # Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw
    f = cachesim.figures(" 1000 1 2 300 40 30 200 5 4\n")
    check(f == {"instructions": 1000, "d1_misses": 46, "ll_misses": 36},
          "summary summed into figures: %s" % f)
    try:
        cachesim.figures(" 1000")
        check(False, "a summary without cache events is refused")
    except ValueError:
        check(True, "a summary without cache events is refused")
    args = cachesim.valgrind_args()
    check("--cache-sim=yes" in args and "--LL=4194304,16,64" in args,
          "fixed geometry on the command line: %s" % args)
    check(cachesim.geometry_text().startswith("I1 32 KiB 8-way"),
          "geometry in words: %s" % cachesim.geometry_text())


def probe_figures(probe, mib, tmp):
    jobs = [(det_job("cachesim", "probe", "mib%d-%d" % (mib, rep), "none", None,
                     [probe, "--mib", str(mib), "--ops", "1"], (mib, rep)), 1)
            for rep in (1, 2)]
    done = Scratch(os.path.join(tmp, "r%d" % mib)).run(jobs)
    out = []
    for j, _ in jobs:
        doc, err = done[j.name]
        check(doc is not None, "probe --mib %d under cachegrind: %s" % (mib, err))
        out.append(doc["figures"] if doc else None)
    return out


def test_backend(probe):
    if not shutil.which("valgrind"):
        print("skip: no valgrind")
        return
    with tempfile.TemporaryDirectory() as tmp:
        small = probe_figures(probe, 1, tmp)
        big = probe_figures(probe, 16, tmp)
    if None in small + big:
        return
    # The same counts to a few hundred events (the process's start moves
    # with its environment), against differences of millions below.
    for a, b in (small, big):
        for k in a:
            check(abs(a[k] - b[k]) <= max(500, a[k] * 1e-4),
                  "%s the same twice: %d and %d" % (k, a[k], b[k]))
    s, b = small[0], big[0]
    # 1M random accesses: over 1 MiB they hit the 4 MiB last level once
    # it is filled; over 16 MiB three in four miss it.
    check(b["ll_misses"] > 4 * s["ll_misses"],
          "16 MiB misses the last level far more than 1 MiB: %d vs %d"
          % (b["ll_misses"], s["ll_misses"]))
    check(b["ll_misses"] > 500000, "16 MiB: most of 1M random accesses miss: %d"
          % b["ll_misses"])
    ratio = b["instructions"] / float(s["instructions"])
    check(b["d1_misses"] > s["d1_misses"], "first level too: %d vs %d"
          % (b["d1_misses"], s["d1_misses"]))
    print("instructions 16 MiB / 1 MiB: %.2f; LL misses %d / %d"
          % (ratio, b["ll_misses"], s["ll_misses"]))


def main():
    test_figures()
    test_backend(os.path.abspath(sys.argv[1]))
    return check.finish("cachesim: ok")


if __name__ == "__main__":
    sys.exit(main())
