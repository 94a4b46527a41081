"""A real OVS to measure: where its four programs are and how it was made,
or the error that says why it could not be made (BuildError)."""

import os
import shutil
import subprocess

PROGRAMS = ("ovsdb-server", "ovsdb-tool", "ovsdb-client", "ovs-appctl")
# Where each program sits in a built source tree.
TREE_PATHS = {
    "ovsdb-server": "ovsdb/ovsdb-server",
    "ovsdb-tool": "ovsdb/ovsdb-tool",
    "ovsdb-client": "ovsdb/ovsdb-client",
    "ovs-appctl": "utilities/ovs-appctl",
}


class BuildError(Exception):
    """A target that cannot be made (realovs/build.py and its specs)."""


class Target:
    def __init__(self, name, programs, version, commit="", source="",
                 configure_flags=None, compiler="", representation=None,
                 server_era=None):
        self.name = name            # Used as the "impl" of its results.
        self.programs = programs    # Program name -> absolute path.
        self.version = version
        self.commit = commit
        self.source = source
        self.configure_flags = configure_flags or []
        self.compiler = compiler
        # The model impl of the same JSON representation (representation.py).
        self.representation = representation
        # The server code era, "current" or "pre-2024" (representation.py):
        # whether the model's load path was calibrated against such code.
        self.server_era = server_era
        # Patches applied on top of 'commit' ([{"file", "sha256",
        # "subjects"}]) and the configure variant's name (build.py).
        self.patches = []
        self.variant = ""
        self.allocator = "glibc"

    def path(self, program):
        return self.programs[program]

    def context(self):
        """What goes into the results' context about this build."""
        ctx = {
            "ovs_version": self.version,
            "ovs_commit": self.commit,
            "ovs_source": self.source,
            "configure_flags": " ".join(self.configure_flags),
            "compiler": self.compiler,
            "ovs_representation": self.representation or "",
            "ovs_server_era": self.server_era or "",
        }
        if self.patches:
            ctx["ovs_patches"] = "; ".join(
                "%s sha256:%s" % (os.path.basename(p["file"]), p["sha256"])
                for p in self.patches)
        if self.variant:
            ctx["ovs_configure_variant"] = self.variant
        if self.allocator != "glibc":
            ctx["allocator"] = self.allocator
        return ctx


def _version(server):
    try:
        out = subprocess.run([server, "--version"], capture_output=True,
                             text=True, timeout=10).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ""
    first = out.splitlines()[0] if out else ""
    return first.split()[-1] if first else ""


def installed(name="ovs-debian"):
    """The packaged binaries on PATH (Debian's openvswitch-common et al.)."""
    programs = {}
    search = os.environ.get("PATH", "") + ":/usr/sbin:/sbin"
    for p in PROGRAMS:
        path = shutil.which(p, path=search)
        if not path:
            raise FileNotFoundError("%s is not installed (apt-get install "
                                    "openvswitch-switch)" % p)
        programs[p] = path
    version = _version(programs["ovsdb-server"])
    from .representation import of_version, server_era_of_version
    return Target(name, programs, version, source="installed",
                  compiler="distribution package",
                  representation=of_version(version),
                  server_era=server_era_of_version(version))


def from_build(root, meta):
    src = os.path.join(root, "src")
    programs = {p: os.path.join(src, rel) for p, rel in TREE_PATHS.items()}
    missing = [p for p in programs.values() if not os.access(p, os.X_OK)]
    if missing:
        raise FileNotFoundError("build %s lacks %s" % (root, missing))
    name = meta.get("name") or "ovs-" + meta["key"][:10]
    t = Target(name, programs, _version(programs["ovsdb-server"]),
               commit=meta.get("commit") or meta["key"],
               source=meta.get("source", ""),
               configure_flags=meta.get("configure_flags"),
               compiler=meta.get("compiler", ""))
    t.patches = meta.get("patches") or []
    t.variant = meta.get("configure_variant") or ""
    t.allocator = allocator_of(meta.get("configure_flags") or [])
    return t


def allocator_of(configure_flags):
    """The allocator a build links (LIBS=-ljemalloc, OVS's documented way
    to use jemalloc; likewise tcmalloc), else glibc."""
    text = " ".join(configure_flags)
    for lib in ("jemalloc", "tcmalloc"):
        if "-l" + lib in text:
            return lib
    return "glibc"
