"""Report sections, in the order they appear.  Each module has
build(ctx) -> document.Section or None (None: nothing to show for this run).
A new section is a new module plus one line here."""

from . import (claims, overview, before_after, model_vs_real, real_ab, predictions,
               workloads, scaling, distributions, processes, micro, environment,
               counters, summary, breakdown, cpu_split, allocators)

# The summary comes first: the report leads with its answer.
SECTIONS = [summary, claims, overview, before_after, model_vs_real, real_ab,
            predictions, workloads, cpu_split, breakdown, scaling, distributions, counters,
            processes,
            micro, environment]

# Studies whose folder (env.json "study") gets a report of its own: title
# and sections.
STUDY_SECTIONS = {
    "allocators": ("ovsdb-jsonbench: glibc against jemalloc", [allocators, environment]),
}
