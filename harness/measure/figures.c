/* A phase run's standard figures (figures.h), from its start and end
 * snapshots, its totals and its inner iterations. */
#include "measure/figures.h"

#include <assert.h>

#include "measure/phases.h"
#include "measure/stats.h"
#include "util.h"

static const char *const figure_keys[N_FIGURES] = {
    [FIG_REAL_TIME] = "real_time",
    [FIG_CPU_TIME] = "cpu_time",
    [FIG_USER_CPU] = "user_cpu_s",
    [FIG_SYS_CPU] = "sys_cpu_s",
    [FIG_MINOR_FAULTS] = "minor_faults",
    [FIG_MAJOR_FAULTS] = "major_faults",
    [FIG_RSS] = "rss_bytes",
    [FIG_PEAK_RSS] = "peak_rss_bytes",
    [FIG_HEAP_ALLOCATED] = "heap_allocated_bytes",
    [FIG_HEAP_ACTIVE] = "heap_active_bytes",
    [FIG_HEAP_RESIDENT] = "heap_resident_bytes",
    [FIG_ALLOC_CALLS] = "alloc_calls",
    [FIG_ALLOC_BYTES] = "alloc_bytes",
    [FIG_FREES] = "frees",
    [FIG_BYTES_OUT] = "bytes_out",
    [FIG_ITEMS] = "items",
    [FIG_ITER_MIN] = "iter_min_ms",
    [FIG_ITER_MEDIAN] = "iter_median_ms",
    [FIG_ITER_MAX] = "iter_max_ms",
};

const char *
figure_key(enum figure f)
{
    assert(f < N_FIGURES);
    return figure_keys[f];
}

void
figures_of_run(struct figures *f, const struct phase_result *r)
{
    const struct metrics_snapshot *s = &r->start, *e = &r->end;
    double user = e->user_s - s->user_s, sys = e->sys_s - s->sys_s;
    struct stats iters;

    stats_compute(&iters, r->iters_ms, r->n_iters);
    f->v[FIG_REAL_TIME] = (e->wall_s - s->wall_s) * 1e3;
    f->v[FIG_CPU_TIME] = (user + sys) * 1e3;
    f->v[FIG_USER_CPU] = user;
    f->v[FIG_SYS_CPU] = sys;
    f->v[FIG_MINOR_FAULTS] = e->minor_faults - s->minor_faults;
    f->v[FIG_MAJOR_FAULTS] = e->major_faults - s->major_faults;
    f->v[FIG_RSS] = e->rss_bytes;
    f->v[FIG_PEAK_RSS] = e->peak_rss_bytes;
    f->v[FIG_HEAP_ALLOCATED] = e->heap_allocated;
    f->v[FIG_HEAP_ACTIVE] = e->heap_active;
    f->v[FIG_HEAP_RESIDENT] = e->heap_resident;
    f->v[FIG_ALLOC_CALLS] = e->alloc.calls - s->alloc.calls;
    f->v[FIG_ALLOC_BYTES] = e->alloc.bytes - s->alloc.bytes;
    f->v[FIG_FREES] = e->alloc.frees - s->alloc.frees;
    f->v[FIG_BYTES_OUT] = r->bytes_out;
    f->v[FIG_ITEMS] = r->items;
    f->v[FIG_ITER_MIN] = iters.min;
    f->v[FIG_ITER_MEDIAN] = iters.median;
    f->v[FIG_ITER_MAX] = iters.max;
}
