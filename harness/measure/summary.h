/* The recorded phases grouped by name: each phase's runs over the
 * repetitions, their figures and counters, and the statistics of each over
 * the runs.  What both reporters (results-json.h, results-table.h) read. */
#ifndef HARNESS_SUMMARY_H
#define HARNESS_SUMMARY_H 1

#include <stddef.h>

#include "measure/figures.h"
#include "measure/stats.h"

struct phase_result;
struct phases;

/* For the reporters and the summary they read, which run once, after every
 * measured phase.  With LTO the whole program shares one inlining budget
 * (--param inline-unit-growth); in cold code GCC inlines only what does not
 * grow it, so that reporting code does not take inlining away from the
 * measured code (whose instruction counts the gate compares). */
#define HARNESS_COLD __attribute__((cold))

/* A counter's statistics over the runs of a phase. */
struct counter_summary {
    const char *name;
    struct stats stats;
};

struct phase_summary {
    const char *name;                   /* "<workload>/<phase>". */
    const struct phase_result **runs;   /* Every repetition, in order. */
    struct figures *figures;            /* figures[i] is of runs[i]. */
    size_t n_runs;
    struct stats stats[N_FIGURES];      /* Of each figure over the runs. */
    /* The first run's counters, in its order; a later run without one
     * counts as 0 (and one the first run lacks is left out). */
    struct counter_summary *counters;
    size_t n_counters;
};

struct summary {
    struct phase_summary *phases;       /* In order of first appearance. */
    size_t n_phases;
};

HARNESS_COLD void summary_init(struct summary *, const struct phases *);
HARNESS_COLD void summary_destroy(struct summary *);

#endif
