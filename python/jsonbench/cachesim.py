"""Simulated cache misses: cachegrind with its cache simulation on a
fixed geometry, so a count is the same on every machine.

Instructions count work, not time: a change that makes the heap's
accesses miss the cache more (a table probed at random, nodes spread over
more memory) costs time that instructions do not show.  On a VM whose
memory speed drifts (docs/noise.md) that time cannot be measured to a few
percent, but the misses can be counted: they are deterministic for one
binary, input and geometry.

The geometry is a core of a current x86 server, not the machine's own
(cachegrind would read that from CPUID, and a VM's can be anything):
32 KiB 8-way first-level caches and a 4 MiB 16-way last level, about one
core's share of a shared L3.  The small datasets that valgrind can run
(tens of MB) are then several times the last level, as a scale-1
database (GBs) is on a real server's L3.

Figures, from cachegrind's summary line (events Ir I1mr ILmr Dr D1mr DLmr
Dw D1mw DLmw):
  instructions  Ir
  d1_misses     first-level misses, instructions and data (I1mr+D1mr+D1mw)
  ll_misses     last-level misses, instructions and data (ILmr+DLmr+DLmw):
                the accesses that go to memory"""

GEOMETRY = {"I1": (32768, 8, 64), "D1": (32768, 8, 64), "LL": (4 * 1024 * 1024, 16, 64)}

EVENTS = ("Ir", "I1mr", "ILmr", "Dr", "D1mr", "DLmr", "Dw", "D1mw", "DLmw")


def valgrind_args():
    """cachegrind's options; '%s' is the output file."""
    geo = ["--%s=%d,%d,%d" % ((name,) + GEOMETRY[name]) for name in ("I1", "D1", "LL")]
    return (["--tool=cachegrind", "--cache-sim=yes", "--branch-sim=no"] + geo
            + ["--cachegrind-out-file=%s", "-q"])


def figures(summary):
    """{"instructions", "d1_misses", "ll_misses"} from the values of a
    'summary:' line (its words after 'summary:'); ValueError when it is
    not one of a cache simulation."""
    values = [int(v) for v in summary.split()]
    if len(values) != len(EVENTS):
        raise ValueError("%d events, not the %d of a cache simulation"
                         % (len(values), len(EVENTS)))
    ev = dict(zip(EVENTS, values))
    return {"instructions": ev["Ir"],
            "d1_misses": ev["I1mr"] + ev["D1mr"] + ev["D1mw"],
            "ll_misses": ev["ILmr"] + ev["DLmr"] + ev["DLmw"]}


def geometry_text():
    """'I1 32 KiB 8-way, D1 32 KiB 8-way, LL 4 MiB 16-way, 64-byte lines'."""
    def size(b):
        return "%d MiB" % (b >> 20) if b >= 1 << 20 else "%d KiB" % (b >> 10)
    parts = ["%s %s %d-way" % (n, size(GEOMETRY[n][0]), GEOMETRY[n][1])
             for n in ("I1", "D1", "LL")]
    return ", ".join(parts) + ", %d-byte lines" % GEOMETRY["LL"][2]
