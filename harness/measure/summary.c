/* Grouping the recorded phases by name and computing their statistics over
 * the repetitions (summary.h). */
#include "measure/summary.h"

#include <stdlib.h>
#include <string.h>

#include "measure/phases.h"
#include "util.h"

/* The value of counter 'name' in 'r', or 0 if 'r' has none: a workload may
 * set a counter in one repetition only (e.g. after an early exit). */
static double
counter_value(const struct phase_result *r, const char *name)
{
    for (size_t i = 0; i < r->n_counters; i++) {
        if (!strcmp(r->counters[i].name, name)) {
            return r->counters[i].value;
        }
    }
    return 0;
}

static void
summarize_phase(struct phase_summary *ps)
{
    double *column = xmalloc((ps->n_runs + 1) * sizeof *column);

    ps->figures = xmalloc((ps->n_runs + 1) * sizeof *ps->figures);
    for (size_t i = 0; i < ps->n_runs; i++) {
        figures_of_run(&ps->figures[i], ps->runs[i]);
    }
    for (size_t k = 0; k < N_FIGURES; k++) {
        for (size_t i = 0; i < ps->n_runs; i++) {
            column[i] = ps->figures[i].v[k];
        }
        stats_compute(&ps->stats[k], column, ps->n_runs);
    }

    const struct phase_result *first = ps->runs[0];
    ps->n_counters = first->n_counters;
    ps->counters = xmalloc((ps->n_counters + 1) * sizeof *ps->counters);
    for (size_t c = 0; c < ps->n_counters; c++) {
        struct counter_summary *cs = &ps->counters[c];
        cs->name = first->counters[c].name;
        for (size_t i = 0; i < ps->n_runs; i++) {
            column[i] = counter_value(ps->runs[i], cs->name);
        }
        stats_compute(&cs->stats, column, ps->n_runs);
    }
    xfree(column);
}

void
summary_init(struct summary *s, const struct phases *p)
{
    memset(s, 0, sizeof *s);
    s->phases = xmalloc((p->n_results + 1) * sizeof *s->phases);
    for (size_t i = 0; i < p->n_results; i++) {
        const struct phase_result *r = &p->results[i];
        struct phase_summary *ps = NULL;

        for (size_t j = 0; j < s->n_phases; j++) {
            if (!strcmp(s->phases[j].name, r->name)) {
                ps = &s->phases[j];
                break;
            }
        }
        if (!ps) {
            ps = &s->phases[s->n_phases++];
            memset(ps, 0, sizeof *ps);
            ps->name = r->name;
            ps->runs = xmalloc(p->n_results * sizeof *ps->runs);
        }
        ps->runs[ps->n_runs++] = r;
    }
    for (size_t j = 0; j < s->n_phases; j++) {
        summarize_phase(&s->phases[j]);
    }
}

void
summary_destroy(struct summary *s)
{
    for (size_t j = 0; j < s->n_phases; j++) {
        struct phase_summary *ps = &s->phases[j];
        xfree(ps->runs);
        xfree(ps->figures);
        xfree(ps->counters);
    }
    xfree(s->phases);
    memset(s, 0, sizeof *s);
}
