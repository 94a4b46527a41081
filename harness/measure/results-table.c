/* The human-readable results table (results-table.h), from the statistics in
 * summary.h. */
#include "measure/results-table.h"

#include "measure/phases.h"
#include "measure/summary.h"

#define MB (1024.0 * 1024.0)

void
results_print_table(const struct phases *p, FILE *stream)
{
    struct summary s;

    summary_init(&s, p);
    fprintf(stream, "%-22s %10s %10s %10s %10s %10s %12s %12s\n",
            "phase (median)", "wall ms", "cpu ms", "rss MB", "peak MB",
            "heap MB", "alloc calls", "bytes out");
    for (size_t i = 0; i < s.n_phases; i++) {
        const struct phase_summary *ps = &s.phases[i];
        const struct stats *st = ps->stats;

        fprintf(stream, "%-22s %10.1f %10.1f %10.1f %10.1f %10.1f %12.0f "
                "%12.0f\n", ps->name, st[FIG_REAL_TIME].median,
                st[FIG_CPU_TIME].median, st[FIG_RSS].median / MB,
                st[FIG_PEAK_RSS].median / MB,
                st[FIG_HEAP_ALLOCATED].median / MB,
                st[FIG_ALLOC_CALLS].median, st[FIG_BYTES_OUT].median);

        /* Inner iterations and counters: the last repetition's. */
        const struct phase_result *last = ps->runs[ps->n_runs - 1];
        const struct figures *f = &ps->figures[ps->n_runs - 1];
        if (last->n_iters) {
            fprintf(stream, "%-22s iterations %zu: min %.3f median %.3f max "
                    "%.3f ms\n", "", last->n_iters, f->v[FIG_ITER_MIN],
                    f->v[FIG_ITER_MEDIAN], f->v[FIG_ITER_MAX]);
        }
        for (size_t k = 0; k < last->n_counters; k++) {
            fprintf(stream, "%-22s %s = %.10g\n", "", last->counters[k].name,
                    last->counters[k].value);
        }
    }
    summary_destroy(&s);
}
