#!/usr/bin/env python3
"""What `scripts/deps.sh` installs by default (the README's two commands
run it) ships no service: no systemd unit (system or user) and no init
script, neither in the packages it names nor in the packages they depend
on.  Three checks:

1. No package of `scripts/deps.sh --list` is a known daemon package (the
   committed list below: the ones the engines step brings and others a
   dependency could pull in).  Holds with nothing installed.
2. Every package of the list that is installed, and every installed
   package of its Depends/Pre-Depends closure, is read with `dpkg -L`: a
   unit or init script fails, except the two closure members named in
   ALLOWED with the reason they are harmless.
3. The check itself works: the --engines packages (slurmd, munge, sshd)
   are found by it when installed, and are in the known list.

Also fails if deps.sh itself enables or starts a service.

usage: check-deps-no-services.py SOURCE_ROOT"""

import os
import re
import shutil
import subprocess
import sys

# Packages that ship a daemon's service, by name, so that check 1 does
# not depend on what this machine has installed.
DAEMONS = {
    "openssh-server", "slurmctld", "slurmd", "slurmdbd", "munge", "ovn-central",
    "ovn-host", "ovn-ic", "openvswitch-switch", "rsync", "cron", "at", "apache2",
    "nginx", "postgresql", "mariadb-server", "redis-server", "dbus", "avahi-daemon",
    "cups-daemon", "docker.io", "containerd", "exim4-daemon-light", "postfix",
}
# Closure members with a unit or init script that start no daemon.
ALLOWED = {
    # Essential: on every Debian system before deps.sh runs; its timer is
    # the daily backup of dpkg's own database.
    "dpkg": "Essential, already on every Debian system",
    # Its init script creates /tmp/.X11-unix and /tmp/.ICE-unix at boot and
    # starts no process (a dependency of python3-matplotlib's Tk backend).
    "x11-common": "init script makes /tmp/.X11-unix, starts nothing",
}
SERVICE_PATH = re.compile(r"^(/usr)?/lib/systemd/(system|user)/[^/]+\.(service|socket|timer|"
                          r"path)$|^/etc/init\.d/[^/]+$")

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def deps_list(root, *opts):
    out = subprocess.run([os.path.join(root, "scripts", "deps.sh"), "--list"] + list(opts),
                         capture_output=True, text=True, check=True).stdout
    return [p for p in out.split() if p]


def installed_packages():
    """Names of the packages dpkg has fully installed (no architecture)."""
    out = subprocess.run(["dpkg-query", "-W", "-f=${Package}\t${Status}\n"],
                         capture_output=True, text=True).stdout
    return {ln.split("\t")[0] for ln in out.splitlines()
            if ln.endswith("install ok installed")}


def service_owners():
    """{installed package: [its unit files and init scripts]}, from one
    dpkg -S over the folders units and init scripts live in."""
    globs = ["/lib/systemd/system/*", "/usr/lib/systemd/system/*", "/lib/systemd/user/*",
             "/usr/lib/systemd/user/*", "/etc/init.d/*"]
    out = subprocess.run(["dpkg", "-S"] + globs, capture_output=True, text=True).stdout
    owners = {}
    for ln in out.splitlines():
        if ": /" not in ln or ln.startswith("diversion "):
            continue
        pkgs, path = ln.split(": ", 1)
        if not SERVICE_PATH.match(path):
            continue
        for p in pkgs.split(", "):
            owners.setdefault(p.split(":")[0], []).append(path)
    return owners


def closure(pkgs, have):
    """Installed packages pkgs depend on (Depends, Pre-Depends), recursively."""
    r = subprocess.run(["apt-cache", "depends", "--recurse", "--installed", "--no-recommends",
                        "--no-suggests", "--no-conflicts", "--no-breaks", "--no-replaces",
                        "--no-enhances"] + pkgs, capture_output=True, text=True)
    names = {ln.strip().split(":")[0] for ln in r.stdout.splitlines()
             if ln and not ln.startswith(" ")}
    return sorted(n for n in names if n in have)


def main():
    root = sys.argv[1]
    default = deps_list(root)
    engines = [p for p in deps_list(root, "--engines") if p not in default]
    if not default or "meson" not in default or not engines:
        fail("scripts/deps.sh --list gives no usable list: %s / %s" % (default, engines))
        return
    print("default packages: %s" % " ".join(default))

    for p in default:
        if p in DAEMONS:
            fail("%s is a daemon package and scripts/deps.sh installs it by default "
                 "(move it to --engines or take only the files needed)" % p)

    installed = installed_packages()
    owners = service_owners()
    have = [p for p in default if p in installed]
    if not have:
        print("SKIP: none of the default packages is installed: only the known list checked")
        sys.exit(77 if not failures else 1)
    for p in closure(have, installed):
        found = owners.get(p)
        if found and p not in ALLOWED:
            why = "one of the default packages" if p in default else \
                "a dependency of the default packages"
            fail("%s (%s) ships a service: %s" % (p, why, ", ".join(found)))
    print("checked %d installed default packages and their installed dependencies"
          % len(have))

    # The check finds what it is meant to: the engines' daemons.
    for p in ("slurmd", "munge", "openssh-server"):
        if p not in engines:
            fail("%s is not in scripts/deps.sh --engines" % p)
        if p not in DAEMONS:
            fail("%s missing from the known daemon list" % p)
        if p in installed and not owners.get(p):
            fail("%s is installed but the check finds no unit or init script in it" % p)

    script = open(os.path.join(root, "scripts", "deps.sh")).read()
    code = "\n".join(ln for ln in script.splitlines() if not ln.lstrip().startswith("#"))
    for bad in (r"systemctl\b.*\b(enable|start|restart|reenable|unmask)\b", r"--now\b",
                r"\bservice\s+\S+\s+(start|restart)\b", r"invoke-rc\.d\s+\S+\s+start",
                r"update-rc\.d\s+\S+\s+(defaults|enable)"):
        for ln in code.splitlines():
            if re.search(bad, ln):
                fail("scripts/deps.sh enables or starts a service: %s" % ln.strip())
    if not shutil.which("apt-cache"):
        fail("apt-cache not found: not a Debian system?")


if __name__ == "__main__":
    main()
    if failures:
        sys.exit(1)
    print("ok: what scripts/deps.sh installs by default ships no service")
