/* Phases and their measurements.  A workload brackets each phase with
 * phases_begin()/phases_end(); the recorder keeps one result per phase per
 * repetition, which results-json.h and results-table.h report. */
#ifndef HARNESS_PHASES_H
#define HARNESS_PHASES_H 1

#include <stddef.h>
#include <stdint.h>

#include "measure/metrics.h"

struct phase_counter {
    char *name;
    double value;
};

struct phase_result {
    char *name;                 /* "<workload>/<phase>". */
    int repetition;
    struct metrics_snapshot start, end;
    uint64_t items;             /* Workload-defined unit (rows, txns...). */
    uint64_t bytes_out;         /* Bytes of text produced. */
    double *iters_ms;           /* Inner iteration times. */
    size_t n_iters, allocated_iters;
    struct phase_counter *counters;
    size_t n_counters;
};

struct phases {
    const char *workload;
    int repetition;             /* Current one, from 0. */
    int repetitions;
    struct phase_result *results;
    size_t n_results, allocated_results;
    struct phase_result *current;   /* Open phase, or NULL. */
};

void phases_init(struct phases *, const char *workload, int repetitions);
void phases_destroy(struct phases *);

void phases_begin(struct phases *, const char *phase);
void phases_iteration(struct phases *, double ms);
void phases_items(struct phases *, uint64_t);
void phases_bytes_out(struct phases *, uint64_t);
void phases_end(struct phases *);
/* Sets a workload-specific counter on the open phase, or if none is open,
 * on the last phase that ended. */
void phases_counter(struct phases *, const char *name, double value);
/* The last phase that ended (for reading its figures), or NULL. */
const struct phase_result *phases_last(const struct phases *);
/* The CPU seconds (user + system) of the last phase that ended. */
double phases_last_cpu_s(const struct phases *);
/* Counters iter_cpu_{min,median,mean,max}_ms from the CPU milliseconds of
 * each of 'n' iterations (requests, batches) of the current phase. */
void phases_cpu_counters(struct phases *, const double *cpu_ms, size_t n);

#endif
