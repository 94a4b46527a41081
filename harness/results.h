/* Writing results in google-benchmark's JSON format (so its compare.py reads
 * them) and as a short human-readable table. */
#ifndef HARNESS_RESULTS_H
#define HARNESS_RESULTS_H 1

#include <stddef.h>
#include <stdio.h>

struct bench;

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
};

/* Writes 'file' atomically.  Returns NULL or a malloc'd error. */
char *results_write(const struct bench *, const struct results_context *,
                    const char *file);
void results_print_table(const struct bench *, FILE *);

#endif
