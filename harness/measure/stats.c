/* Summary statistics (stats.h).  Sums run over the values in the order given
 * and the median over a sorted copy, so that the figures are the same, bit
 * for bit, as long as the input is. */
#include "measure/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static int
compare_doubles(const void *a_, const void *b_)
{
    double a = *(const double *) a_, b = *(const double *) b_;
    return (a > b) - (a < b);
}

void
stats_compute(struct stats *s, const double *values, size_t n)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    if (!n) {
        return;
    }

    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        sum += values[i];
    }
    s->mean = sum / n;

    if (n > 1) {
        double ss = 0;
        for (size_t i = 0; i < n; i++) {
            ss += (values[i] - s->mean) * (values[i] - s->mean);
        }
        s->stddev = sqrt(ss / (n - 1));
        s->cv = s->mean ? s->stddev / s->mean : 0;
    }

    double *sorted = xmemdup(values, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, compare_doubles);
    s->min = sorted[0];
    s->max = sorted[n - 1];
    s->median = (n % 2 ? sorted[n / 2]
                 : (sorted[n / 2 - 1] + sorted[n / 2]) / 2);
    xfree(sorted);
}
