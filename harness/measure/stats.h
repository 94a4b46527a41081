/* Summary statistics of a sample of figures (one value per repetition, or
 * per inner iteration), the ones google-benchmark reports as aggregates plus
 * its coefficient of variation.  Any number of values. */
#ifndef HARNESS_STATS_H
#define HARNESS_STATS_H 1

#include <stddef.h>

struct stats {
    size_t n;                   /* Number of values. */
    double mean;
    double median;              /* Mean of the two middle values if n even. */
    double stddev;              /* Sample standard deviation (n - 1); 0 if
                                 * n < 2. */
    double min, max;
    double cv;                  /* stddev / mean; 0 if n < 2 or mean is 0. */
};

/* Computes 's' over values[0..n-1] (left unchanged).  All zeros if n == 0. */
void stats_compute(struct stats *s, const double *values, size_t n);

#endif
