/* The standard figures of one phase run, by name: what the phase recorder's
 * snapshots and totals amount to, in the units the results use. */
#ifndef HARNESS_FIGURES_H
#define HARNESS_FIGURES_H 1

#include <stddef.h>

struct phase_result;

/* In results order: google-benchmark's real_time and cpu_time first. */
enum figure {
    FIG_REAL_TIME,              /* Wall time, ms. */
    FIG_CPU_TIME,               /* User + system CPU, ms. */
    FIG_USER_CPU,               /* s. */
    FIG_SYS_CPU,                /* s. */
    FIG_MINOR_FAULTS,           /* Page faults during the phase: where its */
    FIG_MAJOR_FAULTS,           /* system CPU went (first touch of memory). */
    FIG_RSS,                    /* Bytes resident at the phase's end. */
    FIG_PEAK_RSS,               /* Bytes, peak during the phase. */
    FIG_HEAP_ALLOCATED,         /* Bytes, at the phase's end. */
    FIG_HEAP_ACTIVE,
    FIG_HEAP_RESIDENT,
    FIG_ALLOC_CALLS,            /* x*alloc calls during the phase. */
    FIG_ALLOC_BYTES,
    FIG_FREES,
    FIG_BYTES_OUT,
    FIG_ITEMS,
    FIG_ITER_MIN,               /* Inner iterations, ms (0 if none). */
    FIG_ITER_MEDIAN,
    FIG_ITER_MAX,
    N_FIGURES
};

struct figures {
    double v[N_FIGURES];
};

/* The key of 'f' in google-benchmark JSON, e.g. "peak_rss_bytes". */
const char *figure_key(enum figure f);

void figures_of_run(struct figures *, const struct phase_result *);

#endif
