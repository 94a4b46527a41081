/* Profile resolution: row counts, groups and children segments for a
 * scale and seed; see profile.h. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "profile-parse.h"

static void
scale_pools(struct atom_spec *a, double scale)
{
    for (size_t k = 0; k < a->n_tmpls; k++) {
        struct tmpl *t = &a->tmpls[k];
        if (t->pool_base > 0) {
            t->pool = (uint64_t) fmax(1, llround(t->pool_base * scale));
        }
        for (size_t i = 0; i < a->tmpls[k].n; i++) {
            struct piece *pc = &a->tmpls[k].pieces[i];
            if (pc->pool_base > 0) {
                pc->pool = (uint64_t) fmax(1, llround(pc->pool_base * scale));
            }
        }
    }
}

/* Collects the children segments, in schema order for determinism. */
static void
collect_segments(struct profile *p)
{
    for (size_t i = 0; i < p->n_segments; i++) {
        free(p->segments[i].start);
    }
    free(p->segments);
    p->segments = NULL;
    p->n_segments = 0;
    for (size_t t = 0; t < p->schema->n_tables; t++) {
        struct table_spec *ts = p->tables[t];
        for (size_t c = 0; ts && c < ts->n_cols; c++) {
            if (ts->cols[c].elem.kind == S_CHILDREN) {
                p->segments = xrealloc(p->segments, (p->n_segments + 1)
                                       * sizeof *p->segments);
                ts->cols[c].elem.segment = p->n_segments;
                p->segments[p->n_segments++] = (struct segment) {
                    .parent_table = t, .col_spec = c,
                    .child_table = ts->cols[c].elem.ref_table,
                };
            }
        }
    }
}

/* Pools grow with the rows, so the share of distinct strings does not
 * depend on the scale. */
static void
scale_all_pools(struct profile *p, double scale)
{
    for (size_t t = 0; t < p->schema->n_tables; t++) {
        struct table_spec *ts = p->tables[t];
        for (size_t c = 0; ts && c < ts->n_cols; c++) {
            struct col_spec *cs = &ts->cols[c];
            scale_pools(&cs->elem, scale);
            scale_pools(&cs->value, scale);
            for (size_t e = 0; e < cs->n_entries; e++) {
                scale_pools(&cs->entries[e].value, scale);
            }
        }
    }
    for (size_t i = 0; i < p->n_ops; i++) {
        scale_pools(&p->ops[i].value, scale);
    }
}

/* Row counts of the tables that depend on no other; returns which tables
 * are known. */
static bool *
count_independent_rows(struct profile *p, double scale)
{
    bool *known = xcalloc(p->schema->n_tables, sizeof *known);
    for (size_t t = 0; t < p->schema->n_tables; t++) {
        struct table_spec *ts = p->tables[t];
        if (!ts) {
            known[t] = true;
        } else if (ts->group_parent >= 0) {
            ts->n_rows = 0;
        } else if (!ts->children) {
            double rows = ts->fixed ? ts->rows : ts->rows * scale;
            ts->n_rows = ts->rows == 0 ? 0 : (uint64_t) fmax(1, llround(rows));
            known[t] = true;
        } else {
            ts->n_rows = 0;
        }
    }
    return known;
}

/* "per PARENT DIST": where each parent row's group starts. */
static void
resolve_groups(struct table_spec *ts, const struct table_spec *ps,
               uint64_t seed, bool even)
{
    free(ts->group_start);
    ts->n_group_parents = ps->n_rows;
    ts->group_start = xmalloc((ps->n_rows + 1) * sizeof *ts->group_start);
    ts->group_start[0] = 0;
    for (uint64_t r = 0; r < ps->n_rows; r++) {
        struct rng rng = rng_derive(seed, ts->salt, r, 0x67727570);
        int64_t n = (even
                     ? dist_quantile(&ts->group_size,
                                     strat_uniform(seed, ts->salt, r,
                                                   ps->n_rows))
                     : dist_sample(&ts->group_size, &rng));
        ts->group_start[r + 1] = ts->group_start[r] + n;
    }
    ts->n_rows = ts->group_start[ps->n_rows];
}

/* How many children each parent row owns through segment 'sg'. */
static void
resolve_segment(struct profile *p, struct segment *sg, uint64_t seed)
{
    struct table_spec *ps = p->tables[sg->parent_table];
    const struct col_spec *cs = &ps->cols[sg->col_spec];

    sg->n_parents = ps->n_rows;
    sg->start = xmalloc((sg->n_parents + 1) * sizeof *sg->start);
    sg->start[0] = 0;
    for (uint64_t r = 0; r < sg->n_parents; r++) {
        struct rng rng = rng_derive(seed, ps->salt, r, cs->salt);
        int64_t n = (p->even
                     ? dist_quantile(&cs->size,
                                     strat_uniform(seed, ps->salt ^ cs->salt,
                                                   r, sg->n_parents))
                     : dist_sample(&cs->size, &rng));
        if (n < (int64_t) cs->col->type.n_min) {
            n = cs->col->type.n_min;
        }
        if ((uint64_t) n > cs->col->type.n_max) {
            n = cs->col->type.n_max;
        }
        sg->start[r + 1] = sg->start[r] + n;
    }
    struct table_spec *cts = p->tables[sg->child_table];
    sg->base = cts->n_rows;
    cts->n_rows += sg->start[sg->n_parents];
}

/* Resolves groups and segments whose parent is known, until nothing
 * changes; a child table is known once all its segments are. */
static void
resolve_dependent_rows(struct profile *p, uint64_t seed, bool *known)
{
    const struct db_schema *s = p->schema;
    bool *done = xcalloc(p->n_segments ? p->n_segments : 1, sizeof *done);

    for (bool progress = true; progress; ) {
        progress = false;
        for (size_t t = 0; t < s->n_tables; t++) {
            struct table_spec *ts = p->tables[t];
            if (!known[t] && ts && ts->group_parent >= 0
                && known[ts->group_parent]) {
                resolve_groups(ts, p->tables[ts->group_parent], seed,
                               p->even);
                known[t] = progress = true;
            }
        }
        for (size_t i = 0; i < p->n_segments; i++) {
            struct segment *sg = &p->segments[i];
            if (done[i] || !known[sg->parent_table]) {
                continue;
            }
            resolve_segment(p, sg, seed);
            done[i] = progress = true;
            bool all = true;
            for (size_t j = 0; j < p->n_segments; j++) {
                if (p->segments[j].child_table == sg->child_table
                    && !done[j]) {
                    all = false;
                }
            }
            known[sg->child_table] = all;
        }
    }
    free(done);
}

/* Every table resolved (no cycle) and within the schema's maxRows. */
static char *
check_row_counts(const struct profile *p, const bool *known)
{
    const struct db_schema *s = p->schema;

    for (size_t t = 0; t < s->n_tables; t++) {
        if (!known[t]) {
            return xasprintf("%s: table %s: children form a cycle",
                             p->file_name, s->tables[t]->name);
        } else if (p->tables[t] && s->tables[t]->max_rows > 0
                   && p->tables[t]->n_rows
                      > (uint64_t) s->tables[t]->max_rows) {
            return xasprintf("%s: table %s: %"PRIu64" rows, but the schema "
                             "allows at most %lld", p->file_name,
                             s->tables[t]->name, p->tables[t]->n_rows,
                             s->tables[t]->max_rows);
        }
    }
    return NULL;
}

/* Sequences and ranks stay within the column's range; "owner" references
 * and required references have rows to point to. */
static char *
check_column_values(const struct profile *p, const struct table_spec *ts,
                    const struct col_spec *cs)
{
    const struct atom_spec *a = &cs->elem;
    const char *file = p->file_name, *table = ts->t->name;
    const char *column = cs->col->name;

    if (a->kind == S_SEQ && ts->n_rows
        && (int64_t) (a->a + ts->n_rows - 1) > a->base->u.integer.max) {
        return xasprintf("%s: %s.%s: seq %"PRId64" + %"PRIu64" rows exceeds "
                         "the maximum %"PRId64, file, table, column, a->a,
                         ts->n_rows, a->base->u.integer.max);
    }
    if (a->kind == S_RANK && ts->group_parent < 0) {
        return xasprintf("%s: %s.%s: rank needs a \"per\" table", file,
                         table, column);
    } else if (a->kind == S_RANK
               && a->a + dist_max(&ts->group_size) - 1
                  > a->base->u.integer.max) {
        return xasprintf("%s: %s.%s: rank %"PRId64" + group size exceeds "
                         "the maximum %"PRId64, file, table, column, a->a,
                         a->base->u.integer.max);
    } else if (a->kind == S_REF && a->ref_mode == REF_OWNER
               && a->ref_table != ts->group_parent) {
        return xasprintf("%s: %s.%s: \"owner\" must reference the table's "
                         "\"per\" parent", file, table, column);
    }
    if (a->kind == S_REF && ts->n_rows && !p->tables[a->ref_table]->n_rows
        && cs->col->type.n_min > 0) {
        return xasprintf("%s: %s.%s needs a reference but %s has no rows",
                         file, table, column,
                         p->schema->tables[a->ref_table]->name);
    }
    return NULL;
}

bool
profile_resolve(struct profile *p, double scale, uint64_t seed,
                char **errorp)
{
    collect_segments(p);
    scale_all_pools(p, scale);
    bool *known = count_independent_rows(p, scale);
    resolve_dependent_rows(p, seed, known);

    *errorp = check_row_counts(p, known);
    free(known);
    for (size_t t = 0; t < p->schema->n_tables && !*errorp; t++) {
        const struct table_spec *ts = p->tables[t];
        for (size_t c = 0; ts && c < ts->n_cols && !*errorp; c++) {
            *errorp = check_column_values(p, ts, &ts->cols[c]);
        }
    }
    return !*errorp;
}

uint64_t
table_group_owner(const struct table_spec *ts, uint64_t row)
{
    uint64_t lo = 0, hi = ts->n_group_parents;
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (ts->group_start[mid] <= row) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

double
row_uniform(uint64_t seed, const struct table_spec *ts, uint64_t row)
{
    struct rng r = rng_derive(seed, ts->salt, row, 0x726f77);
    return (double) (rng_next(&r) >> 11) * 0x1.0p-53;
}
