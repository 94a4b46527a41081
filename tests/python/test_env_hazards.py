#!/usr/bin/env python3
"""jsonbench.env.timing_hazards() on made-up /proc and /sys trees: the
scheduler's autogroups on, free page reporting active only when the
balloon driver is bound and the reporting order is one the allocator can
reach; the warning line each gives, and the report's environment table
listing them as 'timing hazard' rows."""

import os
import shutil
import sys
import tempfile
import types

from jsonbench import env as E
from jsonbench.report.sections import environment

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "pylib"))
from testkit import Checks  # noqa: E402

check = Checks()
BUDDY_11_ORDERS = ("Node 0, zone      DMA      0 0 0 0 0 0 0 0 1 1 3\n"
                   "Node 0, zone   Normal    211 110 243 163 318 251 165 90 48 21 71\n")


def write(root, path, text):
    full = os.path.join(root, path.lstrip("/"))
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)


def tree(autogroup=None, order=None, balloon=False, buddy=BUDDY_11_ORDERS):
    root = tempfile.mkdtemp(prefix="jsonbench-env-")
    if autogroup is not None:
        write(root, "/proc/sys/kernel/sched_autogroup_enabled", "%s\n" % autogroup)
    if order is not None:
        write(root, "/sys/module/page_reporting/parameters/page_reporting_order", "%s\n" % order)
    if buddy is not None:
        write(root, "/proc/buddyinfo", buddy)
    drv = os.path.join(root, "sys/bus/virtio/drivers/virtio_balloon")
    os.makedirs(drv)
    write(root, "/sys/bus/virtio/drivers/virtio_balloon/uevent", "")
    if balloon:
        os.symlink("../../../../devices/virtio0", os.path.join(drv, "virtio0"))
    return root


def settings(root):
    try:
        return [h["setting"] for h in E.timing_hazards(root)]
    finally:
        shutil.rmtree(root)


def main():
    check(settings(tree(autogroup=1)) == ["kernel.sched_autogroup_enabled"],
          "autogroup 1 is a hazard")
    check(settings(tree(autogroup=0)) == [], "autogroup 0 is none")
    check(settings(tree()) == [], "an empty tree has none")
    rep = "free page reporting (virtio_balloon)"
    check(settings(tree(order=9, balloon=True)) == [rep],
          "order 9 with the balloon bound reports free pages")
    check(settings(tree(order=10, balloon=True)) == [rep],
          "order 10 is the largest the allocator keeps: still reported")
    check(settings(tree(order=11, balloon=True)) == [],
          "order 11 is above the largest free block: nothing is reported")
    check(settings(tree(order=9, balloon=False)) == [],
          "the balloon driver unbound: nothing is reported")
    check(settings(tree(order=9, balloon=True, buddy=None)) == [rep],
          "no buddyinfo: an order that is set counts as reporting")
    check(settings(tree(autogroup=1, order=0, balloon=True)) ==
          ["kernel.sched_autogroup_enabled", rep], "both at once, in order")

    root = tree(order=9, balloon=True)
    try:
        (h,) = E.timing_hazards(root)
    finally:
        shutil.rmtree(root)
    check(h["value"] == "page_reporting_order=9", "the value names the order: %r" % h["value"])
    check("echo 11 >" in h["fix"], "the fix sets one above the largest order: %r" % h["fix"])
    lines = []
    E.warn_timing_hazards([h], lines.append)
    check(len(lines) == 1 and lines[0].startswith("warning: timing hazard: free page reporting")
          and "echo 11" in lines[0], "one warning line naming the fix: %r" % lines)

    rs = types.SimpleNamespace(env={"timing_hazards": [h], "kernel": "6.1"}, entries=[],
                               root="results/x", harness_entries=lambda: [])
    sec = environment.build(types.SimpleNamespace(results=rs))
    rows = sec.blocks[0].rows
    hz = [r for r in rows if r[0] == "timing hazard"]
    check(len(hz) == 1 and "page_reporting_order=9" in hz[0][1],
          "the report's environment table lists it: %r" % rows)
    rs.env = {"timing_hazards": []}
    rows = environment.build(types.SimpleNamespace(results=rs)).blocks[0].rows
    check(not any(r[0] == "timing hazard" for r in rows), "no hazard, no row")
    return check.finish("env hazards: ok")


if __name__ == "__main__":
    sys.exit(main())
