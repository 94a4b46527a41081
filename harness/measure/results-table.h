/* A short human-readable table of the results, printed when no --results
 * file is asked for: per phase the medians over the repetitions, and the
 * inner iterations and counters of the last repetition. */
#ifndef HARNESS_RESULTS_TABLE_H
#define HARNESS_RESULTS_TABLE_H 1

#include <stdio.h>

#include "measure/summary.h"

struct phases;

HARNESS_COLD void results_print_table(const struct phases *, FILE *);

#endif
