#!/usr/bin/python3
"""Bad input to ovsdb-gen and ovsdb-stats gets one clear line and loses
nothing (suite 'datasets').

usage: check_bad_input.py CHECK --gen G --stats S --profiles DIR
                          [--nb-schema F] [--sb-schema F]
CHECK is one of:
  gen-usage    numbers out of range or not numbers, unknown options, missing
               arguments, outputs that cannot be written: exit 2, one line
               naming the option and value, nothing created
  gen-inputs   schema/profile missing, empty, a directory, not JSON, the
               other schema: exit 1, one line naming the file, no output
  stats-inputs missing, empty, a directory, not OVSDB, truncated in a
               header or a body, unknown table or column: exit 1, one line
               naming file, record and byte offset; stdout on /dev/full
  full-disk    ovsdb-gen on a full, half-free and all-but-the-tail tmpfs
               (and with room for the database but not the report) exits 1
               naming the file and leaves nothing; a read-only place is
               refused before generating (root and a private mount
               namespace; else skipped, exit 77)
"""
import hashlib
import os
import shutil
import subprocess
import sys

SKIP = 77
IN_NAMESPACE = "OVSDB_GEN_TEST_FULL_DISK_NS"


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "pylib"))
from testkit import (named_check_parser,  # noqa: E402
                     require as check, run_named_check)


def run(cmd, **kw):
    # Undecodable bytes in a message are kept visible, not a crash here.
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, errors="backslashreplace", **kw)


def fails(cmd, code, words):
    """'cmd' exits with 'code' and one line of error holding 'words'."""
    p = run(cmd)
    what = " ".join(cmd)
    check(p.returncode == code, "exit %d, wanted %d: %s\n%s"
          % (p.returncode, code, what, p.stderr))
    lines = p.stderr.splitlines()
    check(len(lines) == 1, "wanted one line of error: %s\n%s"
          % (what, p.stderr))
    check("Sanitizer" not in p.stderr and "runtime error" not in p.stderr,
          "sanitizer report: %s\n%s" % (what, p.stderr))
    for w in words:
        check(w in lines[0], "error for %s lacks %r: %s" % (what, w, lines[0]))
    return lines[0]


def only(directory, names, what):
    left = sorted(os.listdir(directory))
    check(left == sorted(names), "%s: files left: %s" % (what, left))


class Ctx:
    def __init__(self, a, tmp):
        self.a = a
        self.tmp = tmp

    def path(self, name):
        return os.path.join(self.tmp, name)

    def gen_cmd(self, out, kind="nb", scale="0.002", extra=()):
        schema = self.a.nb_schema if kind == "nb" else self.a.sb_schema
        return [self.a.gen, "--schema", schema, "--profile",
                os.path.join(self.a.profiles, kind + ".profile"), "--scale",
                scale, "-q", "-o", out] + list(extra)


def need_schemas(ctx):
    for f in (ctx.a.nb_schema, ctx.a.sb_schema):
        if not os.path.exists(f):
            print("skip: schema %s missing" % f)
            sys.exit(SKIP)


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)
    return path


def check_gen_usage(ctx):
    need_schemas(ctx)
    work = ctx.path("work")
    os.mkdir(work)
    out = os.path.join(work, "out.db")
    base = ctx.gen_cmd(out)
    numbers = {
        "--scale": ["-1", "0", "-0", "1001", "1e9", "nan", "inf", "abc",
                    "1x", ""],
        "--txns": ["-1", "100000001", "99999999999999999999", "abc", "1.5",
                   ""],
        "--seed": ["-3", "18446744073709551616", "abc", "1.5", ""],
    }
    for option, values in numbers.items():
        for v in values:
            fails(base + [option, v], 2, [option, '"%s"' % v, "--help"])
    fails(base + ["--form", "tree"], 2, ["--form", '"tree"', "--help"])
    fails(base + ["--bogus"], 2, ["unknown option --bogus", "--help"])
    fails(base + ["-z"], 2, ["unknown option -z", "--help"])
    fails(base + ["extra"], 2, ['"extra"', "--help"])
    fails(base + ["--schema"], 2, ["--schema", "needs an argument"])
    fails(base[:-2] + ["-o"], 2, ["-o", "needs an argument"])
    fails([ctx.a.gen, "-o", out], 2, ["required", "--help"])
    only(work, [], "bad numbers and options")

    # Outputs that cannot be written are refused before generating.
    a_dir = os.path.join(work, "a-dir")
    os.mkdir(a_dir)
    a_file = write(os.path.join(work, "a-file"), b"keep me")
    fifo = os.path.join(work, "a-fifo")
    os.mkfifo(fifo)
    bad = [(os.path.join(work, "no", "such", "dir", "x"), "no/such/dir"),
           (a_dir, "directory"),
           (os.path.join(a_file, "x"), "not a directory"),
           (fifo, "not a regular file"),
           ("", "empty file name")]
    for path, words in bad:
        fails(ctx.gen_cmd(path), 2, ["--output", words, "--help"])
        fails(ctx.gen_cmd(out, extra=["--report", path]), 2,
              ["--report", words, "--help"])
    only(work, ["a-dir", "a-fifo", "a-file"], "refused outputs")
    check(open(a_file, "rb").read() == b"keep me", "a-file changed")
    check(not os.listdir(a_dir), "files written in a-dir")


def check_gen_inputs(ctx):
    need_schemas(ctx)
    work = ctx.path("work")
    os.mkdir(work)
    out = os.path.join(work, "out.db")
    gen, nb, prof = ctx.a.gen, ctx.a.nb_schema, ctx.a.profiles
    nb_prof = os.path.join(prof, "nb.profile")
    inputs = ctx.path("inputs")
    os.mkdir(inputs)
    a_dir = os.path.join(inputs, "dir")
    os.mkdir(a_dir)
    empty = write(os.path.join(inputs, "empty"), b"")
    binary = write(os.path.join(inputs, "binary"),
                   bytes(i % 256 for i in range(1, 3000)))
    missing = os.path.join(inputs, "missing")

    def g(schema, profile, *extra):
        return [gen, "--schema", schema, "--profile", profile, "--scale",
                "0.002", "-q", "-o", out] + list(extra)

    fails(g(missing, nb_prof), 1, [missing, "No such file"])
    fails(g(a_dir, nb_prof), 1, [a_dir, "directory", "--schema"])
    fails(g(empty, nb_prof), 1, [empty, "invalid JSON"])
    fails(g(binary, nb_prof), 1, [binary, "invalid JSON"])
    fails(g(nb, missing), 1, [missing])
    fails(g(nb, a_dir), 1, [a_dir, "directory", "--profile"])
    fails(g(nb, empty), 1, [empty, "no table"])
    fails(g(nb, binary), 1, [binary + ":1:"])
    # The other schema: the NB profile names tables SB lacks.
    fails(g(ctx.a.sb_schema, nb_prof), 1,
          ["nb.profile:", "no table", "OVN_Southbound"])
    only(work, [], "bad inputs")


def record(body):
    return b"OVSDB JSON %d %s\n" % (len(body),
                                    hashlib.sha1(body).hexdigest().encode()) \
        + body


def check_stats_inputs(ctx):
    need_schemas(ctx)
    s = ctx.a.stats
    good = ctx.path("good.db")
    p = run(ctx.gen_cmd(good, extra=["--form", "log", "--txns", "5"]))
    check(p.returncode == 0, "generation failed: %s" % p.stderr)
    data = open(good, "rb").read()
    nl0 = data.index(b"\n")
    rec1 = nl0 + 1 + int(data[:nl0].split()[2])
    nl1 = data.index(b"\n", rec1)
    body1 = rec1 + (nl1 + 1 - rec1)
    len1 = int(data[rec1:nl1].split()[2])

    fails([s], 2, ["FILE", "--help"])
    fails([s, good, good], 2, ["FILE", "--help"])
    fails([s, "--bogus", good], 2, ["unknown option --bogus", "--help"])
    fails([s, "-q", good], 2, ["unknown option -q", "--help"])

    a_dir = ctx.path("dir.db")
    os.mkdir(a_dir)
    fails([s, a_dir], 1, [a_dir, "not a regular file"])
    missing = ctx.path("missing.db")
    fails([s, missing], 1, [missing, "No such file"])
    bad_row = (b'{"Logical_Switch":{"01234567-89ab-cdef-0123-456789abcdef":'
               b'{"no_such_column":1}}}\n')
    cases = [
        # (name, bytes, words besides the file name)
        ("empty", b"", ["empty file"]),
        ("text", b"hello, world\n", ["record 0 at byte offset 0", "header"]),
        ("binary", bytes(i % 256 for i in range(11, 3000) if i % 256 != 10),
         ["record 0 at byte offset 0", "header"]),
        ("bare-json", b'{"name": "OVN_Northbound", "tables": {}}\n',
         ["record 0 at byte offset 0", "header"]),
        ("cut-header-0", data[:20], ["record 0 at byte offset 0", "header"]),
        ("cut-body-0", data[:nl0 + 11], ["record 0 at byte offset 0", "truncated"]),
        ("cut-header-1", data[:rec1 + 15],
         ["record 1 at byte offset %d" % rec1, "header"]),
        ("cut-body-1", data[:body1 + len1 // 2],
         ["record 1 at byte offset %d" % rec1, "truncated"]),
        ("no-such-table", data[:rec1] + record(b'{"No_Such_Table":{}}\n'),
         ["record 1", "No_Such_Table"]),
        # A new row with a column the schema lacks (found when counting),
        # and a change to an existing row (found when merging).
        ("no-such-column", data[:rec1] + record(bad_row),
         ["record 1, Logical_Switch row at byte offset %d"
          % (rec1 + len(record(bad_row)) - len(bad_row)
             + bad_row.index(b'{"no_such')), '"no_such_column"']),
        ("no-such-column-change", data[:rec1] + record(
            b'{"Logical_Switch":{"01234567-89ab-cdef-0123-456789abcdef":'
            b'{"name":"a"}}}\n') + record(
            b'{"Logical_Switch":{"01234567-89ab-cdef-0123-456789abcdef":'
            b'{"no_such_column":1}}}\n'),
         ["record 2", '"no_such_column"']),
    ]
    for name, content, words in cases:
        path = write(ctx.path(name + ".db"), content)
        fails([s, path], 1, [path] + words)

    with open("/dev/full", "w") as full:
        p = subprocess.run([s, good], stdout=full, stderr=subprocess.PIPE,
                           text=True)
    check(p.returncode == 1 and "standard output" in p.stderr,
          "stdout on /dev/full: exit %d: %s" % (p.returncode, p.stderr))


def reexec_in_namespace():
    unshare = shutil.which("unshare")
    if not unshare:
        print("skip: unshare(1) not installed")
        sys.exit(SKIP)
    probe = run([unshare, "-m", "--propagation", "private", "true"])
    if probe.returncode:
        print("skip: cannot create a mount namespace: %s"
              % probe.stderr.strip())
        sys.exit(SKIP)
    env = dict(os.environ, **{IN_NAMESPACE: "1"})
    p = subprocess.run([unshare, "-m", "--propagation", "private",
                        sys.executable] + sys.argv, env=env)
    sys.exit(p.returncode)


def mount_tmpfs(path, options):
    p = run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", path])
    if p.returncode:
        print("skip: cannot mount a tmpfs: %s" % p.stderr.strip())
        sys.exit(SKIP)


def leave_free(mnt, free):
    """Fills the tmpfs at 'mnt' so that 'free' bytes are left."""
    filler = os.path.join(mnt, "filler")
    if os.path.exists(filler):
        os.unlink(filler)
    st = os.statvfs(mnt)
    try:
        write(filler, b"\0" * (st.f_blocks * st.f_frsize - free))
    except OSError:
        pass
    st = os.statvfs(mnt)
    check(st.f_bavail * st.f_frsize <= free, "tmpfs has %d bytes free, "
          "wanted %d" % (st.f_bavail * st.f_frsize, free))


def check_full_disk(ctx):
    need_schemas(ctx)
    if os.environ.get(IN_NAMESPACE) != "1":
        if os.geteuid() != 0:
            print("skip: mounting a tmpfs needs root")
            sys.exit(SKIP)
        reexec_in_namespace()
    full, ro = ctx.path("full"), ctx.path("ro")
    os.mkdir(full)
    os.mkdir(ro)
    mounted = []
    try:
        mount_tmpfs(full, "size=256k")
        mounted.append(full)
        mount_tmpfs(ro, "ro,size=64k")
        mounted.append(ro)
        page = os.sysconf("SC_PAGE_SIZE")
        sized = ctx.path("sized.db")
        report = ctx.path("sized.json")
        for form in ["snapshot", "log"]:
            extra = ["--form", form, "--txns", "50"]
            # A scale whose file is larger than the tmpfs, and a small one.
            for scale in ["0.002", "0.0003"]:
                p = run(ctx.gen_cmd(sized, scale=scale, extra=extra))
                check(p.returncode == 0, "generation failed: %s" % p.stderr)
                size = os.path.getsize(sized)
                for what, free in [("full", 0),
                                   ("empty, too small", 256 * 1024),
                                   ("half free", size // 2 // page * page),
                                   ("all but the tail",
                                    size // page * page)]:
                    if free >= size or (free < page and free):
                        continue        # Fits, or no room to fail part way.
                    leave_free(full, free)
                    out = os.path.join(full, "out.db")
                    line = fails(ctx.gen_cmd(out, scale=scale, extra=extra),
                                 1, [out, "No space left on device"])
                    only(full, ["filler"], "%s %s %s" % (form, scale, what))
                    print("ok: %s scale %s, %s: %s" % (form, scale, what,
                                                       line))
            # Room for the database but not its report: neither is left.
            p = run(ctx.gen_cmd(sized, scale="0.0003", extra=extra
                                + ["--report", report]))
            check(p.returncode == 0, "generation failed: %s" % p.stderr)
            size = os.path.getsize(sized)
            leave_free(full, (size + page - 1) // page * page)
            out = os.path.join(full, "out.db")
            rep = os.path.join(full, "out.json")
            line = fails(ctx.gen_cmd(out, scale="0.0003", extra=extra
                                     + ["--report", rep]), 1,
                         [rep, "No space left on device"])
            only(full, ["filler"], "%s: report on a full disk" % form)
            print("ok: %s, no room for the report: %s" % (form, line))

        for option in ["-o", "--report"]:
            target = os.path.join(ro, "x")
            cmd = ctx.gen_cmd(ctx.path("ok.db"), scale="0.0003")
            cmd += [option, target]
            fails(cmd, 2, [target, "Read-only file system"])
            check(not os.path.exists(ctx.path("ok.db")),
                  "database written despite a read-only --report")
    finally:
        for m in mounted:
            subprocess.run(["umount", m])


CHECKS = {
    "gen-usage": check_gen_usage,
    "gen-inputs": check_gen_inputs,
    "stats-inputs": check_stats_inputs,
    "full-disk": check_full_disk,
}


def main():
    ap = named_check_parser(CHECKS, "--gen", "--stats", "--profiles")
    ap.add_argument("--ovsdb-tool")     # Accepted, unused.
    ap.add_argument("--nb-schema", default="/usr/share/ovn/ovn-nb.ovsschema")
    ap.add_argument("--sb-schema", default="/usr/share/ovn/ovn-sb.ovsschema")
    args = ap.parse_args()
    return run_named_check(args.check,
                           lambda tmp: CHECKS[args.check](Ctx(args, tmp)),
                           "datasets-bad-input-")


if __name__ == "__main__":
    sys.exit(main())
