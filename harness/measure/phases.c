/* The phase recorder: what a workload reports while it runs (phases, their
 * inner iterations, items, bytes and counters), kept per repetition for
 * results-json.c and results-table.c.  Its own allocations are UNCOUNTED, so
 * that they never show up in the figures of the phase being measured. */
#include "measure/phases.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "measure/mem-breakdown.h"
#include "measure/stats.h"
#include "util.h"

void
phases_init(struct phases *p, const char *workload, int repetitions)
{
    memset(p, 0, sizeof *p);
    p->workload = workload;
    p->repetitions = repetitions;
}

void
phases_destroy(struct phases *p)
{
    UNCOUNTED({
        for (size_t i = 0; i < p->n_results; i++) {
            struct phase_result *r = &p->results[i];
            for (size_t j = 0; j < r->n_counters; j++) {
                xfree(r->counters[j].name);
            }
            xfree(r->counters);
            xfree(r->iters_ms);
            xfree(r->name);
        }
        xfree(p->results);
    });
    memset(p, 0, sizeof *p);
}

void
phases_begin(struct phases *p, const char *phase)
{
    assert(!p->current);
    UNCOUNTED({
        if (p->n_results >= p->allocated_results) {
            p->allocated_results = p->allocated_results * 2 + 8;
            p->results = xrealloc(p->results, p->allocated_results
                                  * sizeof *p->results);
        }
        struct phase_result *r = &p->results[p->n_results++];
        memset(r, 0, sizeof *r);
        r->name = xasprintf("%s/%s", p->workload, phase);
        r->repetition = p->repetition;
        p->current = r;
    });
    metrics_reset_peak();
    xalloc_breakdown_reset_peak();
    metrics_take_start(&p->current->start);
}

void
phases_iteration(struct phases *p, double ms)
{
    struct phase_result *r = p->current;
    assert(r);
    if (r->n_iters >= r->allocated_iters) {
        UNCOUNTED({
            r->allocated_iters = r->allocated_iters * 2 + 64;
            r->iters_ms = xrealloc(r->iters_ms, r->allocated_iters
                                   * sizeof *r->iters_ms);
        });
    }
    r->iters_ms[r->n_iters++] = ms;
}

void
phases_items(struct phases *p, uint64_t n)
{
    assert(p->current);
    p->current->items += n;
}

void
phases_bytes_out(struct phases *p, uint64_t n)
{
    assert(p->current);
    p->current->bytes_out += n;
}

void
phases_end(struct phases *p)
{
    assert(p->current);
    metrics_take_end(&p->current->end);
    p->current = NULL;
    /* Read right after the snapshot: nothing has allocated since. */
    mem_breakdown_counters(p, &phases_last(p)->end);
}

const struct phase_result *
phases_last(const struct phases *p)
{
    for (size_t i = p->n_results; i-- > 0;) {
        if (&p->results[i] != p->current) {
            return &p->results[i];
        }
    }
    return NULL;
}

double
phases_last_cpu_s(const struct phases *p)
{
    const struct phase_result *r = phases_last(p);

    return (r->end.user_s - r->start.user_s) + (r->end.sys_s
                                                - r->start.sys_s);
}

void
phases_cpu_counters(struct phases *p, const double *cpu_ms, size_t n)
{
    struct stats st;

    stats_compute(&st, cpu_ms, n);
    phases_counter(p, "iter_cpu_min_ms", st.min);
    phases_counter(p, "iter_cpu_median_ms", st.median);
    phases_counter(p, "iter_cpu_mean_ms", st.mean);
    phases_counter(p, "iter_cpu_max_ms", st.max);
}

void
phases_counter(struct phases *p, const char *name, double value)
{
    struct phase_result *r = p->current;
    if (!r) {
        assert(p->n_results);
        r = &p->results[p->n_results - 1];
    }
    for (size_t i = 0; i < r->n_counters; i++) {
        if (!strcmp(r->counters[i].name, name)) {
            r->counters[i].value = value;
            return;
        }
    }
    UNCOUNTED({
        r->counters = xrealloc(r->counters,
                               (r->n_counters + 1) * sizeof *r->counters);
        r->counters[r->n_counters].name = xstrdup(name);
        r->counters[r->n_counters].value = value;
        r->n_counters++;
    });
}
