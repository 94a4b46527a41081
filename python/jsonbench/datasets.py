"""Datasets as jobs see them (dicts, see jsonbench.jobs): generated ones
through build.ensure_dataset (the one staleness rule: a cached file is
regenerated when ovsdb-gen, the profile or the schema is newer) and files
given by hand (--dataset).  The suite, the claims reproduction and the real
runner all come here."""

import os
import re

from . import build

# build.dataset_path()'s names: nb-s1-snapshot-seed1.ovsdb,
# nb-s0.1-cluster-sets-seed1-txns5000.ovsdb.
GENERATED_NAME = re.compile(r"^(nb|sb)-s([0-9.e+-]+)-(snapshot|log|cluster)(?:-([a-z]+))?"
                            r"-seed\d+(?:-txns\d+)?\.ovsdb$")
# ovsdb-gen's forms: snapshot (one transaction), log (then small ones),
# cluster (a one-server raft cluster: snapshot, then small ones as entries).
FORMS = ("snapshot", "log", "cluster")


class Error(Exception):
    pass


def label(kind, scale, form, log_shape=None):
    """nb-0.1, nb-0.1-log, nb-0.1-cluster, nb-0.1-cluster-sets."""
    return "%s-%g%s%s" % (kind, scale, "" if form == "snapshot" else "-" + form,
                          "-" + log_shape if log_shape else "")


def generated(kind, scale, form, seed=1, out_dir=None, txns=None, log_shape=None):
    """The dict of a generated dataset (not generated yet: ensure()).
    'txns' and 'log_shape' are ovsdb-gen's --txns and --log-shape (None:
    its defaults: 1000 for the log form, 0 for the cluster form)."""
    if form not in FORMS:
        raise Error("dataset form %r is not one of %s" % (form, ", ".join(FORMS)))
    ds = {"label": label(kind, scale, form, log_shape),
          "path": build.dataset_path(kind, scale, form, seed,
                                     out_dir or build.DATASETS_DIR, txns, log_shape),
          "kind": kind, "scale": scale, "form": form, "generated": True}
    if txns:
        ds["txns"] = txns
    if log_shape:
        ds["log_shape"] = log_shape
    return ds


def ensure(build_dir, ds, seed=1, who="jsonbench", **kw):
    """Generates a generated dataset unless an up-to-date copy is cached
    (build.ensure_dataset); returns its path.  Raises Error."""
    for key in ("txns", "log_shape"):
        if ds.get(key):
            kw.setdefault(key, ds[key])
    try:
        path = build.ensure_dataset(build_dir, ds["kind"], ds["scale"], ds["form"], seed,
                                    os.path.dirname(ds["path"]), who=who, **kw)
    except build.DatasetError as exc:
        raise Error(str(exc))
    ds["path"] = path
    return path


def schema_kind(path):
    """nb or sb from the schema record of an OVSDB file, else db."""
    with open(path, "rb") as f:
        head = f.read(4096).decode("utf-8", "replace")
    if "OVN_Southbound" in head:
        return "sb"
    if "OVN_Northbound" in head:
        return "nb"
    return "db"


def is_clustered(path):
    """Whether an OVSDB file is clustered (raft records)."""
    with open(path, "rb") as f:
        return f.read(14) == b"OVSDB CLUSTER "


def record_count(path, stop=3):
    """OVSDB records in a file, counting up to 'stop' (a standalone
    snapshot has 2: schema + one transaction; a log more)."""
    n = 0
    with open(path, "rb") as f:
        while n < stop:
            header = f.readline()
            if not header.startswith((b"OVSDB JSON ", b"OVSDB CLUSTER ")):
                break
            try:
                f.seek(int(header.split()[2]), 1)
            except (IndexError, ValueError):
                break
            n += 1
    return n


def from_files(paths):
    """Dataset dicts of files given by hand.  A file the generator named
    keeps the generated label (nb-0.01), so runs on it line up with other
    runs on it (model vs real OVS); when every other file has one form,
    they take any workload (form 'any').  Raises Error for a missing file."""
    out = []
    for p in paths:
        if not os.path.exists(p):
            raise Error("dataset %s not found" % p)
        m = GENERATED_NAME.match(os.path.basename(p))
        if m:
            kind, scale, form, shape = (m.group(1), float(m.group(2)), m.group(3),
                                        m.group(4))
            out.append({"label": label(kind, scale, form, shape), "path": os.path.abspath(p),
                        "kind": kind, "scale": scale, "form": form})
            continue
        form = ("cluster" if is_clustered(p)
                else "log" if record_count(p) > 2 else "snapshot")
        out.append({"label": os.path.basename(p).rsplit(".", 1)[0],
                    "path": os.path.abspath(p), "kind": schema_kind(p), "scale": None,
                    "form": form})
    forms = {d["form"] for d in out}
    for d in out:
        if len(forms) == 1 and d["scale"] is None:
            d["form"] = "any"
    return out
