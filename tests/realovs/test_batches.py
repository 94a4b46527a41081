#!/usr/bin/env python3
"""jsonbench.realovs.batches, the real runner's server CPU per monitor
update batch, without OVS: the fields from synthetic per-batch samples
(the model's names, ordered, none without batches), the end signal (every
client's output file grew; a client that never prints fails naming it),
and the CPU readings (one clock, never backwards; settle() returns once a
process is still).

usage: test_batches.py SOURCE-ROOT"""
import os
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(sys.argv[1], "python"))
from jsonbench.realovs import batches as B  # noqa: E402
from jsonbench.realovs.proc import RunError  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "pylib"))
from testkit import Checks  # noqa: E402

check = Checks()


def test_fields():
    f = B.fields([12.0, 3.0, 7.5, 4.5])
    check(f == {"iter_cpu_min_ms": 3.0, "iter_cpu_median_ms": 6.0,
                "iter_cpu_mean_ms": 6.75, "iter_cpu_max_ms": 12.0},
          "fields of four batches: %s" % f)
    check(B.fields([]) == {}, "no batch, no field")
    one = B.fields([2.5])
    check(set(one.values()) == {2.5}, "one batch: %s" % one)
    check(abs(B.cpu_ms(1.25, 1.2625) - 12.5) < 1e-9, "cpu_ms in ms")


def test_wait_grown(tmp):
    paths = [os.path.join(tmp, "mon%d.out" % i) for i in range(3)]
    for i, p in enumerate(paths):
        with open(p, "w") as f:
            f.write("x" * i)
    sizes = B.output_sizes(paths + [os.path.join(tmp, "none.out")])
    check(sizes == [0, 1, 2, 0], "sizes: %s" % sizes)
    sizes = sizes[:3]

    def grow():
        for p in reversed(paths):
            time.sleep(0.05)
            with open(p, "a") as f:
                f.write("update\n")
    t = threading.Thread(target=grow)
    t0 = time.monotonic()
    t.start()
    B.wait_grown(paths, sizes, 10)
    waited = time.monotonic() - t0
    t.join()
    check(waited >= 0.14, "returned before the last client grew (%.3f s)"
          % waited)
    try:
        B.wait_grown(paths, B.output_sizes(paths), 0.1, "update of batch 3")
        check(False, "no client grew, yet wait_grown returned")
    except RunError as e:
        check("mon0.out" in str(e) and "3 of 3" in str(e)
              and "batch 3" in str(e), "timeout message: %s" % e)


def test_cpu():
    # A sleeping child: its CPU stays still, so settle() returns quickly,
    # with the reading server_cpu_s() gives.
    p = subprocess.Popen(["sleep", "30"])
    try:
        time.sleep(0.05)
        t0 = time.monotonic()
        c = B.settle(p.pid, quiet_s=0.02, timeout=5)
        check(time.monotonic() - t0 < 2, "settle of a sleeping process")
        check(c == B.server_cpu_s(p.pid) and c >= 0,
              "settle's reading %s" % c)
        # Clients: the sum of their readings, settled once none moves.
        q = subprocess.Popen(["sleep", "30"])
        try:
            time.sleep(0.05)
            t0 = time.monotonic()
            both = B.settle_clients([p.pid, q.pid], quiet_s=0.02, timeout=5)
            check(time.monotonic() - t0 < 2, "settle_clients of sleepers")
            check(both == B.clients_cpu_s([p.pid, q.pid])
                  and both == B.server_cpu_s(p.pid) + B.server_cpu_s(q.pid),
                  "clients' reading %s" % both)
        finally:
            q.kill()
            q.wait()
    finally:
        p.kill()
        p.wait()
    # Our own CPU, read back to back while spinning: never backwards.
    last = B.server_cpu_s(os.getpid())
    end = time.monotonic() + 0.2
    backwards = 0
    while time.monotonic() < end:
        now = B.server_cpu_s(os.getpid())
        backwards += now < last
        last = now
    check(not backwards, "%d readings went backwards" % backwards)


def main():
    test_fields()
    with tempfile.TemporaryDirectory() as tmp:
        test_wait_grown(tmp)
    test_cpu()
    return check.finish("ok: per-batch CPU fields, end signal, CPU readings")


if __name__ == "__main__":
    sys.exit(main())
