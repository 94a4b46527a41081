#!/usr/bin/env python3
"""GNU parallel over real ssh runs a tiny study in 3 shards on 2 hosts.

Starts two sshd on 127.0.0.1 (high ports, a host key, a client key and
authorized_keys in a temporary folder; nothing of the user's ~/.ssh is
read or written: ssh gets its own config through PARALLEL_SSH).  Where
the kernel allows (root, unshare), each sshd runs in its own mount and
UTS namespace: its own host name (jb-node-a, jb-node-b) and, over the
study folder, a folder of its own, so a shard folder reaches the study
here only by being returned as files, as from another machine.  Then
`scripts/jsonbench parallel jb-a,jb-down,jb-b --shards 3` (jb-down: a
port nothing listens on) and checks: jb-down left out with ssh's reason,
3 shard folders returned, each naming its node and sshlogin, both hosts
used, one shard at a time per host, every group whole in one shard, the
merged index is the serial plan with each job once, the report renders;
and that with no usable host nothing runs.  The sshd it started are
stopped by pid, also when a check fails.

Skips (exit 77) when not root or sshd, ssh, ssh-keygen, GNU parallel or
rsync is missing (scripts/deps.sh --engines installs them), or fails
there when JSONBENCH_REQUIRE_ENGINES=1 (.ci/run).

usage: test_ssh.py BUILD_ROOT OVSDB_GEN SOURCE_ROOT"""

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from testkit import Checks  # noqa: E402
from studykit import (INSTALL_HINT, TinyStudy, clean_up, free_port, read, skip,  # noqa: E402
                      stop_by_pid, tail)

SBIN = os.environ.get("PATH", "") + ":/usr/sbin:/sbin"
PROGRAMS = ("sshd", "ssh", "ssh-keygen", "parallel", "rsync")
HOSTS = ("a", "b")


NS_START = ('hostname "$1" && mount --bind "$2" "$3" && shift 3 && exec "$@"')


def in_namespace(host, view, over, argv):
    """argv in a mount + UTS namespace of its own: host name HOST, the
    folder VIEW mounted over OVER."""
    return ["unshare", "--mount", "--uts", "--propagation", "private", "--", "sh", "-c",
            NS_START, "sh", host, view, over] + argv


def namespaces_work(tmp):
    """Whether in_namespace() works here (root may still lack the right
    to unshare or mount, in a container)."""
    a, b = os.path.join(tmp, "ns-probe-a"), os.path.join(tmp, "ns-probe-b")
    os.makedirs(a)
    os.makedirs(b)
    try:
        r = subprocess.run(in_namespace("jb-probe", a, b, ["true"]), capture_output=True)
        return r.returncode == 0
    finally:
        os.rmdir(a)
        os.rmdir(b)


class Sshds:
    """Two sshd in the foreground of processes we own, each (when it can)
    in a mount + UTS namespace of its own."""

    def __init__(self, tmp, study, isolate):
        self.tmp = tmp
        self.study = study
        self.isolate = isolate
        self.procs = {}
        self.ports = {}
        self.made_privsep = False

    def start(self):
        t = self.tmp
        for key in ("host_key", "id_ed25519"):
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "jsonbench-test",
                            "-f", os.path.join(t, key)], check=True)
        shutil.copy(os.path.join(t, "id_ed25519.pub"), os.path.join(t, "authorized_keys"))
        if not os.path.isdir("/run/sshd"):      # sshd's privilege separation folder
            os.makedirs("/run/sshd", mode=0o755)
            self.made_privsep = True
        sshd = shutil.which("sshd", path=SBIN)
        for h in HOSTS:
            port = self.ports[h] = free_port()
            conf = os.path.join(t, "sshd_config-" + h)
            with open(conf, "w") as f:
                f.write("\n".join([
                    "Port %d" % port, "ListenAddress 127.0.0.1",
                    "HostKey %s/host_key" % t, "PidFile %s/sshd-%s.pid" % (t, h),
                    "AuthorizedKeysFile %s/authorized_keys" % t,
                    "PasswordAuthentication no", "KbdInteractiveAuthentication no",
                    "PermitRootLogin prohibit-password", "UsePAM no",
                    "StrictModes no", ""]))       # the key files live under /tmp
            argv = [sshd, "-D", "-e", "-f", conf]
            if self.isolate:
                view = os.path.join(t, "remote-" + h)
                os.makedirs(view)
                argv = in_namespace("jb-node-" + h, view, self.study, argv)
            log = open(os.path.join(t, "sshd-%s.out" % h), "w")
            self.procs[h] = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT,
                                             stdin=subprocess.DEVNULL, start_new_session=True)
        for h in HOSTS:
            self._wait_port(h)
        with open(self.config, "w") as f:
            f.write("\n".join(
                ["Host jb-a jb-b jb-down", "  HostName 127.0.0.1", "  User root",
                 "  IdentityFile %s/id_ed25519" % t, "  IdentitiesOnly yes",
                 "  UserKnownHostsFile %s/known_hosts" % t,
                 "  StrictHostKeyChecking accept-new", "  BatchMode yes", "  LogLevel ERROR"] +
                ["Host jb-%s\n  Port %d" % (h, self.ports[h]) for h in HOSTS] +
                ["Host jb-down\n  Port %d" % free_port(), ""]))

    @property
    def config(self):
        return os.path.join(self.tmp, "ssh_config")

    def _wait_port(self, h):
        end = time.time() + 20
        while time.time() < end:
            p = self.procs[h]
            if p.poll() is not None:
                raise RuntimeError("sshd %s exited %d: %s" % (h, p.returncode, self.tail(h)))
            try:
                with socket.create_connection(("127.0.0.1", self.ports[h]), timeout=1):
                    return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("sshd %s does not listen on %d" % (h, self.ports[h]))

    def tail(self, h):
        return tail(os.path.join(self.tmp, "sshd-%s.out" % h))

    def stop(self):
        """Stops each sshd we started, by pid (SIGTERM, then SIGKILL)."""
        stop_by_pid(self.procs.values())
        if self.made_privsep:
            try:
                os.rmdir("/run/sshd")
            except OSError:
                pass


def main():
    if os.geteuid() != 0:
        skip("not root: the test starts sshd and logs in as root")
    missing = [p for p in PROGRAMS if not shutil.which(p, path=SBIN)]
    if missing:
        skip("%s not installed (%s)" % (", ".join(missing), INSTALL_HINT))
    build_root, gen, root = sys.argv[1:4]
    check = Checks()
    tmp = tempfile.mkdtemp(prefix="jsonbench-ssh-")
    os.chmod(tmp, 0o755)
    study = os.path.join(tmp, "study")
    os.makedirs(study)
    isolate = namespaces_work(tmp)
    if not isolate:
        print("note: unshare does not work here: both sshd see this machine's files, so the "
              "test cannot tell a returned shard folder from one written in place")
    sshds = Sshds(tmp, study, isolate)
    try:
        tiny = TinyStudy(build_root, gen, root, tmp)
        split, env, jb, opts = tiny.split, tiny.env, tiny.jb, tiny.opts
        sshds.start()
        env["PARALLEL_SSH"] = "ssh -F %s" % sshds.config
        t0 = time.time()
        r = subprocess.run(jb + ["parallel", "jb-a,jb-down,jb-b", "--shards", "3", "--out",
                                 study, "run"] + opts, env=env, capture_output=True, text=True)
        out = r.stdout + r.stderr
        print("parallel study: exit %d in %.0f s" % (r.returncode, time.time() - t0))
        check(r.returncode == 0, "scripts/jsonbench parallel exits 0:\n%s" % out[-4000:])
        check("host jb-down left out: ssh exited 255" in out and
              "host jb-a left out" not in out and "host jb-b left out" not in out,
              "the host nothing listens on is left out, with ssh's reason:\n%s" % out[-2000:])

        folders = [os.path.join(study, "shard-%d" % k) for k in (1, 2, 3)]
        check(all(os.path.exists(os.path.join(f, "index.json")) for f in folders),
              "3 shard folders with an index: %s" % os.listdir(study))
        by_login = {}
        for k, f in enumerate(folders, 1):
            if not os.path.exists(os.path.join(f, "env.json")):
                continue
            sh = read(os.path.join(f, "env.json")).get("shard") or {}
            login = sh.get("parallel_sshlogin")
            check(sh.get("index") == k and sh.get("count") == 3 and
                  sh.get("plan_hash") == split["plan_hash"] and login in ("jb-a", "jb-b") and
                  sh.get("cpu_model"), "shard %d's env.json names it and its sshlogin: %s"
                  % (k, sh))
            if login in ("jb-a", "jb-b"):
                by_login.setdefault(login, []).append((sh.get("measured") or [0, 0], k))
            if isolate and login in ("jb-a", "jb-b"):
                h = login[-1]
                check(sh.get("host") == "jb-node-" + h, "shard %d ran on jb-node-%s: %s"
                      % (k, h, sh.get("host")))
                remote = os.path.join(tmp, "remote-" + h, "shard-%d" % k)
                check(os.path.exists(os.path.join(remote, "index.json")),
                      "shard %d was written on jb-node-%s (%s) and returned here" % (k, h,
                                                                                    remote))
        check(sorted(by_login) == ["jb-a", "jb-b"], "both hosts ran shards: %s" % by_login)
        for login, iv in by_login.items():
            iv.sort()
            check(all(a[0][1] <= b[0][0] for a, b in zip(iv, iv[1:])),
                  "one shard at a time on %s: %s" % (login, iv))
        rows = open(os.path.join(study, "parallel", "joblog")).read().splitlines()[1:] \
            if os.path.exists(os.path.join(study, "parallel", "joblog")) else []
        check(len(rows) == 3 and all(x.split("\t")[6] == "0" for x in rows),
              "GNU parallel's joblog: 3 shards, exit 0: %s" % rows)

        merged = os.path.join(study, "merged")
        if tiny.check_results(check, folders, merged) is not None:
            md = os.path.join(merged, "report.md")
            text = open(md).read() if os.path.exists(md) else ""
            check("Environment" in text and "shard 3" in text and
                  (not isolate or ("jb-node-a" in text and "jb-node-b" in text)),
                  "merged report.md renders, naming the shards' nodes")

        # No usable host: nothing runs, nothing is merged.
        other = os.path.join(tmp, "study-down")
        r = subprocess.run(jb + ["parallel", "jb-down", "--shards", "2", "--out", other,
                                 "run"] + opts, env=env, capture_output=True, text=True)
        check(r.returncode != 0 and "no host can run a shard" in r.stderr and
              not os.path.exists(os.path.join(other, "merged")),
              "no usable host: an error, no merged folder (exit %d): %s"
              % (r.returncode, (r.stdout + r.stderr)[-800:]))
    except (RuntimeError, subprocess.CalledProcessError, OSError) as exc:
        check(False, "%s\nsshd a: %s\nsshd b: %s" % (exc, sshds.tail("a"), sshds.tail("b")))
    finally:
        sshds.stop()
        clean_up(check, tmp)
    return check.finish("ok: a 3-shard study over real ssh on 2 hosts, merged")


if __name__ == "__main__":
    sys.exit(main())
