/* Phases and their measurements.  A workload brackets each phase with
 * bench_phase_begin()/bench_phase_end(); the bench keeps one result per
 * phase per repetition and later writes them (results.h). */
#ifndef HARNESS_BENCH_H
#define HARNESS_BENCH_H 1

#include <stddef.h>
#include <stdint.h>

#include "metrics.h"

struct bench_counter {
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
    struct bench_counter *counters;
    size_t n_counters;
};

struct bench {
    const char *workload;
    int repetition;             /* Current one, from 0. */
    int repetitions;
    struct phase_result *results;
    size_t n_results, allocated_results;
    struct phase_result *current;   /* Open phase, or NULL. */
};

void bench_init(struct bench *, const char *workload, int repetitions);
void bench_destroy(struct bench *);

void bench_phase_begin(struct bench *, const char *phase);
void bench_phase_iteration(struct bench *, double ms);
void bench_phase_items(struct bench *, uint64_t);
void bench_phase_bytes_out(struct bench *, uint64_t);
void bench_phase_end(struct bench *);
/* Sets a workload-specific counter on the open phase, or if none is open,
 * on the last phase that ended. */
void bench_counter(struct bench *, const char *name, double value);
/* The last phase that ended (for reading its figures), or NULL. */
const struct phase_result *bench_last(const struct bench *);

/* Helpers for inner-iteration timing. */
double bench_now_ms(void);

#endif
