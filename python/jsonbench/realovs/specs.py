"""Target specs, REF[+PATCH...][@VARIANT]: REF is a commit of the tree
(anything git rev-parse takes), each PATCH a patch file, an mbox or a
directory holding a format-patch series (patches.py), applied in order;
VARIANT the name of a configure variant declared as NAME=ARGS (suite and
runner: --ovs-configure), whose ARGS are added to configure
(docs/patches.md).  Parsing, labels, names in results and the A/B pairs
of --ovs-patch; build.build_spec() builds one."""

import re
import shlex

from . import patches as patches_mod
from .target import BuildError


_VARIANT = re.compile(r"@([A-Za-z0-9_.-]+)$")


class SpecError(BuildError):
    pass


def parse_spec(spec):
    """(ref, [patch paths], variant or None) of a spec."""
    s = spec.strip()
    variant = None
    m = _VARIANT.search(s)
    if m and "+" not in m.group(1):
        variant, s = m.group(1), s[:m.start()]
    parts = s.split("+")
    if not parts[0]:
        raise SpecError("target %r: no ref before '+'" % spec)
    return parts[0], [p for p in parts[1:] if p], variant


def make_spec(ref, patch_paths=(), variant=None):
    return ref + "".join("+" + p for p in patch_paths) + \
        ("@" + variant if variant else "")


def spec_label(ref, patch_paths=(), variant=None):
    """REF+NAME[+NAME...][@VARIANT], NAME the series directory's name or the
    patch file's name without its extension."""
    return ref + "".join("+" + patches_mod.name_of(p) for p in patch_paths) \
        + ("@" + variant if variant else "")


def expand_specs(refs, patch_paths):
    """The specs to build for --ovs-ref R,... --ovs-patch P...: each R, then
    R with every patch (base and patched side by side, an A/B pair)."""
    out = []
    for r in refs:
        out.append(r)
        if patch_paths:
            ref, pp, variant = parse_spec(r)
            out.append(make_spec(ref, pp + list(patch_paths), variant))
    return out


def parse_variants(values):
    """{name: [configure args]} of --ovs-configure NAME=ARGS values."""
    out = {}
    for v in values or []:
        name, sep, argv = v.partition("=")
        name = name.strip()
        if not sep or not re.match(r"^[A-Za-z0-9_.-]+$", name):
            raise SpecError("--ovs-configure %r: expected NAME=ARGS, e.g. "
                            "jemalloc='LIBS=-ljemalloc'" % v)
        try:
            out[name] = shlex.split(argv)
        except ValueError as exc:
            raise SpecError("--ovs-configure %r: %s" % (v, exc))
    return out


def variant_args(variant, variants):
    if not variant:
        return []
    if variant not in (variants or {}):
        raise SpecError("configure variant @%s is not declared (declare it "
                        "with --ovs-configure %s=ARGS)" % (variant, variant))
    return variants[variant]


def _safe(text):
    return re.sub(r"[^A-Za-z0-9._-]", "_", text)


def spec_name(spec):
    """The target's name in results: ovs-REF[+NAME...][@VARIANT], file-name
    safe (9669b50f5^ becomes ovs-9669b50f5-parent)."""
    ref, patch_paths, variant = parse_spec(spec)
    name = "ovs-" + _safe(ref.replace("^", "-parent").replace("~", "-back"))
    name += "".join("+" + _safe(patches_mod.name_of(p)) for p in patch_paths)
    return name + ("@" + _safe(variant) if variant else "")
