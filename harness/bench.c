#include "bench.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void
bench_init(struct bench *b, const char *workload, int repetitions)
{
    memset(b, 0, sizeof *b);
    b->workload = workload;
    b->repetitions = repetitions;
}

void
bench_destroy(struct bench *b)
{
    UNCOUNTED({
        for (size_t i = 0; i < b->n_results; i++) {
            struct phase_result *r = &b->results[i];
            for (size_t j = 0; j < r->n_counters; j++) {
                free(r->counters[j].name);
            }
            free(r->counters);
            free(r->iters_ms);
            free(r->name);
        }
        free(b->results);
    });
    memset(b, 0, sizeof *b);
}

double
bench_now_ms(void)
{
    return metrics_now_s() * 1e3;
}

void
bench_phase_begin(struct bench *b, const char *phase)
{
    assert(!b->current);
    UNCOUNTED({
        if (b->n_results >= b->allocated_results) {
            b->allocated_results = b->allocated_results * 2 + 8;
            b->results = xrealloc(b->results, b->allocated_results
                                  * sizeof *b->results);
        }
        struct phase_result *r = &b->results[b->n_results++];
        memset(r, 0, sizeof *r);
        r->name = xasprintf("%s/%s", b->workload, phase);
        r->repetition = b->repetition;
        b->current = r;
    });
    metrics_reset_peak();
    metrics_take_start(&b->current->start);
}

void
bench_phase_iteration(struct bench *b, double ms)
{
    struct phase_result *r = b->current;
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
bench_phase_items(struct bench *b, uint64_t n)
{
    assert(b->current);
    b->current->items += n;
}

void
bench_phase_bytes_out(struct bench *b, uint64_t n)
{
    assert(b->current);
    b->current->bytes_out += n;
}

void
bench_phase_end(struct bench *b)
{
    assert(b->current);
    metrics_take_end(&b->current->end);
    b->current = NULL;
}

const struct phase_result *
bench_last(const struct bench *b)
{
    for (size_t i = b->n_results; i-- > 0;) {
        if (&b->results[i] != b->current) {
            return &b->results[i];
        }
    }
    return NULL;
}

void
bench_counter(struct bench *b, const char *name, double value)
{
    struct phase_result *r = b->current;
    if (!r) {
        assert(b->n_results);
        r = &b->results[b->n_results - 1];
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
