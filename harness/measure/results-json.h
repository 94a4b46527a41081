/* Writing results in google-benchmark's JSON format, so that its compare.py
 * (and scripts/) read them: a "context" of how and on what the harness ran,
 * and "benchmarks": every run of every phase, then each phase's mean, median,
 * stddev, min and max over the repetitions (summary.h). */
#ifndef HARNESS_RESULTS_JSON_H
#define HARNESS_RESULTS_JSON_H 1

#include <stddef.h>

#include "measure/summary.h"

struct phases;

/* How and on what the harness ran; NULL dataset and sha256 read as "". */
struct results_context {
    const char *executable;
    const char *impl;
    const char *allocator;
    const char *workload;
    const char *params;
    const char *dataset;
    const char *dataset_sha256;
    const char *build_type;
    const char *compiler;
    const char *cflags;
    const char *git_commit;
    size_t node_size;
    const char *model;          /* --model: "full" or "json-only". */
};

/* Writes 'file' atomically.  Returns NULL or a malloc'd error. */
HARNESS_COLD char *results_write(const struct phases *,
                                 const struct results_context *,
                                 const char *file);

#endif
