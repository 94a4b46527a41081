"""convert on real OVS: the database converted to the schema
jsonbench.convertschema derives from it, offline and online, in one
repetition.

  convert/offline  `ovsdb-tool convert DB SCHEMA TARGET` on a copy: the
                   process's wall, CPU and peak RSS (wait4), the file it
                   writes; the model's --mode offline (load + write)
  convert/load     ovsdb-server started on another copy, until it serves
  convert/convert  `ovsdb-client convert SERVER SCHEMA` against it: the
                   server's CPU from the request until it is still again,
                   its peak RSS over the conversion (VmHWM, reset through
                   /proc/PID/clear_refs just before; peak_reset 0 if the
                   kernel refused, then it is the process's peak) and its
                   RSS after; the client's wall; the model's --mode online
                   (convert + write + replace)

Both rows carry the model's names for the conversion's figures:
convert_peak_rss_bytes, rss_after_convert_bytes, convert_cpu_s."""

import os

from .. import convertschema
from . import gbench
from .proc import RunDir, RunError, copy_file, run_to_end, settle, snapshot


def _reset_peak(pid):
    """Resets VmHWM of 'pid'; True if the kernel took it."""
    try:
        with open("/proc/%d/clear_refs" % pid, "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def _still(pid, timeout):
    return settle(lambda: snapshot(pid), 0.3, timeout,
                  key=lambda s: s["user"] + s["sys"])


def convert(target, ds, opts, served, usage, timeout):
    try:
        schema = opts.get("schema") or convertschema.ensure(ds["path"])
    except convertschema.Error as e:
        raise RunError(str(e))
    with RunDir(setup=opts.get("setup")) as rd:
        src = copy_file(ds["path"], rd.file("offline.ovsdb"))
        dst = rd.file("converted.ovsdb")
        r = run_to_end(rd, [target.path("ovsdb-tool"), "convert", src,
                            schema, dst], "ovsdb-tool", timeout)
        if not os.path.exists(dst):
            raise RunError("%s: ovsdb-tool convert wrote nothing"
                           % ds["path"])
        off = {"real_time": r["wall"] * 1e3}
        off.update(usage(r))
        off.update({"rss_bytes": r["maxrss"], "peak_rss_bytes": r["maxrss"],
                    "convert_peak_rss_bytes": r["maxrss"],
                    "rss_after_convert_bytes": r["maxrss"],
                    "convert_cpu_s": r["user"] + r["sys"],
                    "bytes_out": os.path.getsize(dst),
                    "file_bytes": os.path.getsize(ds["path"])})
        os.unlink(src)
        os.unlink(dst)

        srv, _, load_fields = served(target, rd, ds)
        pid = srv.proc.pid
        before = _still(pid, timeout)
        reset = _reset_peak(pid)
        before = snapshot(pid)
        c = run_to_end(rd, [target.path("ovsdb-client"), "convert",
                            srv.remote, schema], "ovsdb-client", timeout)
        after = _still(pid, timeout)
        srv.check_log(ds["path"])
        on = {"real_time": c["wall"] * 1e3}
        on.update(usage(after, before))
        on.update({"rss_bytes": after["rss"], "peak_rss_bytes": after["hwm"],
                   "convert_peak_rss_bytes": after["hwm"],
                   "rss_after_convert_bytes": after["rss"],
                   "convert_cpu_s": on["cpu_time"] / 1e3,
                   "peak_reset": int(reset),
                   "bytes_out": os.path.getsize(srv.db),
                   "client_cpu_s": c["user"] + c["sys"]})
        srv.stop()
        return [gbench.row("convert/offline", off),
                gbench.row("convert/load", load_fields),
                gbench.row("convert/convert", on)]
