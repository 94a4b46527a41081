/* Dataset twins, the structure decided from the counts: which tables are
 * children of which column, shared pools or dropped; which columns are made
 * unique per row for the schema's indexes (string, "per" group and rank,
 * sequence, row reference); which columns repeat each other's values; and
 * which string values are frequent enough for a template of their own.  See
 * twin-stats.h. */
#include "twin-stats.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "util.h"

/* Columns that hold the same mostly distinct value in the same row (a
 * port's addresses and port security) draw their pieces per row. */
static void
decide_row_stable(struct table_stat *ts)
{
    for (size_t i = 0; i < ts->n_eq; i++) {
        for (size_t k = i + 1; k < ts->n_eq; k++) {
            struct slot *a = &ts->cols[ts->eq_cols[i]].key;
            struct slot *b = &ts->cols[ts->eq_cols[k]].key;
            uint64_t both = (ts->eq_present[i] < ts->eq_present[k]
                             ? ts->eq_present[i] : ts->eq_present[k]);
            uint64_t eq = ts->eq[i * ts->n_eq + k];
            if (eq >= 2 && eq * 2 >= both
                && a->freq.n * 10 >= a->n * 9 && b->freq.n * 10 >= b->n * 9) {
                a->row_stable = b->row_stable = true;
            }
        }
    }
}

static bool
is_set_column(const struct column_schema *c)
{
    return !ovsdb_type_is_map(&c->type) && !ovsdb_type_is_scalar(&c->type);
}

/* Calls 'cb' for every column slot that references 'target'. */
#define FOR_EACH_REF_SLOT(D, TARGET, TS, CS, SL, IS_KEY)                     \
    for (size_t TS##_i = 0; TS##_i < (D)->s->n_tables; TS##_i++)            \
        for (struct table_stat *TS = &(D)->tables[TS##_i]; TS; TS = NULL)   \
            for (size_t CS##_i = 0; CS##_i < TS->t->n_columns; CS##_i++)    \
                for (struct col_stat *CS = &TS->cols[CS##_i]; CS; CS = NULL)\
                    for (int IS_KEY = 1; IS_KEY >= 0; IS_KEY--)             \
                        for (struct slot *SL = IS_KEY ? &CS->key            \
                                                      : &CS->value;         \
                             SL; SL = NULL)                                 \
                            if (SL->ref_table == (int) (TARGET))

/* Children if every row is strongly referenced at most once, from set
 * columns; a shared pool if strongly referenced; dropped (OVSDB would
 * collect its rows) if not. */
static void
decide_table_mode(struct deriver *d, size_t t)
{
    struct table_stat *T = &d->tables[t];
    if (T->t->is_root || !T->rows) {
        T->mode = T->rows || T->t->is_root ? T_ROOT : T_DROP;
        return;
    }
    uint32_t *total = xcalloc(T->rows, sizeof *total);
    bool any = false, all_sets = true;
    struct col_stat *best = NULL;
    uint64_t best_hits = 0;
    FOR_EACH_REF_SLOT (d, t, ts, cs, sl, is_key) {
        if (!sl->strong || ts->mode == T_DROP) {
            continue;
        }
        uint64_t hits = 0;
        for (uint64_t r = 0; r < T->rows; r++) {
            total[r] += sl->hits[r];
            hits += sl->hits[r];
        }
        any = true;
        all_sets &= is_key && is_set_column(cs->col);
        if (is_key && hits > best_hits) {
            best = cs;
            best_hits = hits;
        }
    }
    uint32_t max = 0, unreferenced = 0;
    for (uint64_t r = 0; r < T->rows; r++) {
        max = total[r] > max ? total[r] : max;
        unreferenced += !total[r];
    }
    free(total);
    if (!any || !best) {
        T->mode = T_DROP;
        ds_put_format(&d->notes, "# %s: %"PRIu64" rows that nothing "
                      "references strongly (OVSDB drops them): left out\n",
                      T->t->name, T->rows);
    } else if (max <= 1 && all_sets) {
        T->mode = T_CHILDREN;
        FOR_EACH_REF_SLOT (d, t, ts, cs, sl, is_key) {
            if (sl->strong && is_key) {
                cs->role = R_CHILDREN;
            }
        }
        if (unreferenced) {
            ds_put_format(&d->notes, "# %s: %"PRIu32" rows not owned by "
                          "any row: left out\n", T->t->name, unreferenced);
        }
    } else {
        T->mode = T_SHARED;
        best->role = R_COVER;
    }
}

static const struct json *
table_indexes(const struct deriver *d, const struct table_schema *t)
{
    const struct json *tables = json_object_get(d->s->json, "tables");
    const struct json *tj = tables ? json_object_get(tables, t->name) : NULL;
    const struct json *ix = tj ? json_object_get(tj, "indexes") : NULL;
    return ix && json_get_type(ix) == JSON_ARRAY ? ix : NULL;
}

static struct col_stat *
col_by_name(struct table_stat *ts, const char *name)
{
    int c = table_schema_column_index(ts->t, name);
    return c >= 0 ? &ts->cols[c] : NULL;
}

static bool
plain_scalar(const struct col_stat *cs, enum atomic_type type)
{
    return cs && ovsdb_type_is_scalar(&cs->col->type)
           && cs->col->type.key.type == type && !cs->col->type.key.enum_
           && cs->role == R_PLAIN;
}

/* Makes one index of table 'ts' unique per row: a string column made
 * unique, a reference and an integer as a "per" group and its rank, an
 * integer sequence, or a reference to the row of the same index. */
static void
decide_index(struct deriver *d, struct table_stat *ts, const struct json *ix)
{
    struct col_stat *cols[16];
    size_t n = 0;
    for (size_t i = 0; i < json_array_size(ix) && n < ARRAY_SIZE(cols); i++) {
        const struct json *name = json_array_at(ix, i);
        struct col_stat *cs = json_get_type(name) == JSON_STRING
                              ? col_by_name(ts, json_string(name)) : NULL;
        if (cs) {
            cols[n++] = cs;
        }
    }
    /* Unique already: a column unique per row, or a group and its rank. */
    bool owner = false, rank = false;
    struct col_stat *owner_col = NULL;
    for (size_t i = 0; i < n; i++) {
        enum col_role r = cols[i]->role;
        if (r == R_UNIQUE_STRING || r == R_SEQ || r == R_REF_ROW) {
            return;
        }
        owner |= r == R_OWNER;
        owner_col = r == R_OWNER ? cols[i] : owner_col;
        rank |= r == R_RANK;
    }
    if (owner && rank) {
        return;
    }
    struct col_stat *str = NULL, *num = NULL, *ref = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!str && plain_scalar(cols[i], ATOMIC_STRING)) {
            str = cols[i];
        } else if (!num && plain_scalar(cols[i], ATOMIC_INTEGER)) {
            num = cols[i];
        } else if (!ref && plain_scalar(cols[i], ATOMIC_UUID)
                   && cols[i]->key.ref_table >= 0
                   && cols[i]->key.ref_table != (int) ts->t->index
                   && target_usable(d, cols[i]->key.ref_table)) {
            ref = cols[i];
        }
    }
    if (str) {
        str->role = R_UNIQUE_STRING;
    } else if (num && owner_col) {
        num->role = R_RANK;     /* Unique within the group. */
    } else if (num && ref && ts->mode == T_ROOT && ts->group_parent < 0
               && !ts->t->max_rows) {
        ts->mode = T_PER;
        ts->group_parent = ref->key.ref_table;
        ts->group_col = ref - ts->cols;
        ref->role = R_OWNER;
        num->role = R_RANK;
    } else if (num) {
        num->role = R_SEQ;
    } else if (ref) {
        ref->role = R_REF_ROW;
    } else if (n) {
        ds_put_format(&d->notes, "# %s: an index without a column that "
                      "can be made unique\n", ts->t->name);
    }
}

/* The frequent values of a string slot get their own template. */
static void
choose_tops(struct slot *sl)
{
    if (sl->base->type != ATOMIC_STRING || sl->enum_counts || !sl->n) {
        return;
    }
    uint64_t min = sl->n / 100 > 3 ? sl->n / 100 : 3;
    for (size_t i = 0; sl->freq.slots && i <= sl->freq.mask; i++) {
        const struct freq_slot *f = &sl->freq.slots[i];
        if (!f->hash || f->count < min) {
            continue;
        }
        size_t at = sl->n_tops;
        if (at == MAX_TOP) {
            if (f->count <= sl->tops[MAX_TOP - 1].count) {
                continue;
            }
            at = MAX_TOP - 1;
        } else {
            sl->tops = xrealloc(sl->tops, (at + 1) * sizeof *sl->tops);
            sl->n_tops++;
        }
        while (at > 0 && sl->tops[at - 1].count < f->count) {
            sl->tops[at] = sl->tops[at - 1];
            at--;
        }
        memset(&sl->tops[at], 0, sizeof sl->tops[at]);
        sl->tops[at].hash = f->hash;
        sl->tops[at].count = f->count;
    }
}

void
twin_decide(struct deriver *d)
{
    for (size_t t = 0; t < d->s->n_tables; t++) {
        d->tables[t].group_parent = -1;
    }
    /* Twice: a table that is dropped drops its references. */
    for (int round = 0; round < 2; round++) {
        for (size_t t = 0; t < d->s->n_tables; t++) {
            for (size_t c = 0; c < d->tables[t].t->n_columns; c++) {
                d->tables[t].cols[c].role = R_PLAIN;
            }
        }
        for (size_t t = 0; t < d->s->n_tables; t++) {
            decide_table_mode(d, t);
        }
    }
    for (size_t t = 0; t < d->s->n_tables; t++) {
        struct table_stat *ts = &d->tables[t];
        const struct json *ix = table_indexes(d, ts->t);
        for (size_t i = 0; ix && i < json_array_size(ix); i++) {
            if (json_get_type(json_array_at(ix, i)) == JSON_ARRAY) {
                decide_index(d, ts, json_array_at(ix, i));
            }
        }
    }
    for (size_t t = 0; t < d->s->n_tables; t++) {
        struct table_stat *ts = &d->tables[t];
        decide_row_stable(ts);
        for (size_t c = 0; c < ts->t->n_columns; c++) {
            struct col_stat *cs = &ts->cols[c];
            if (cs->role != R_UNIQUE_STRING) {
                choose_tops(&cs->key);
            }
            choose_tops(&cs->value);
            for (size_t k = 0; k < cs->n_keys; k++) {
                choose_tops(&cs->keys[k].value);
            }
        }
    }
}
