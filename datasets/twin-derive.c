/* Dataset twins (ovsdb-stats --profile): a profile derived from a database
 * file that describes its shape and none of its contents; see
 * twin-derive.h and datasets/README.md ("Dataset twins").
 *
 * Two passes over the live rows.  The first counts: rows, set and map
 * sizes, integer values, booleans, reals, how often each string value
 * occurs (by 64-bit hash, never its text), map keys, and how many times
 * each row is referenced from each column.  Then the structure is decided:
 * which tables are children of which column, which are shared pools, which
 * columns must be unique per row for the schema's indexes, and which string
 * values are frequent enough to be a template of their own.  The second pass
 * turns the other strings into shapes (twin-shape.c), and the profile is
 * written from the counts. */
#include "twin-derive.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db-counts.h"
#include "ds.h"
#include "json.h"
#include "ovsdb/datum.h"
#include "ovsdb/rng.h"
#include "shash.h"
#include "twin-shape.h"
#include "util.h"

/* Map keys seen in fewer rows than this share are values, not keys. */
#define KEY_MIN_SHARE 0.005
#define MAX_KEYS 512            /* More distinct keys: generated keys. */
#define MAX_TOP 8               /* Frequent values with their own template. */
#define MAX_TEMPLATES 30        /* What "oneof" takes. */
#define DIST_ITEMS 32

/* ---- Counting string values by hash. ---- */

#define SEEN_BIT (1ULL << 63)   /* Counted in pass 2 already. */

struct freq {
    struct freq_slot { uint64_t hash, count; } *slots;
    size_t mask, n;
};

static struct freq_slot *
freq_find(const struct freq *f, uint64_t h)
{
    if (!f->slots) {
        return NULL;
    }
    for (size_t i = mix64(h) & f->mask; f->slots[i].hash;
         i = (i + 1) & f->mask) {
        if (f->slots[i].hash == h) {
            return &f->slots[i];
        }
    }
    return NULL;
}

static void
freq_add(struct freq *f, uint64_t h)
{
    h = h ? h : 1;
    if ((f->n + 1) * 2 > f->mask + 1) {
        struct freq b = { .mask = f->mask ? 2 * f->mask + 1 : 63 };
        b.slots = xcalloc(b.mask + 1, sizeof *b.slots);
        for (size_t i = 0; f->slots && i <= f->mask; i++) {
            if (f->slots[i].hash) {
                size_t k = mix64(f->slots[i].hash) & b.mask;
                while (b.slots[k].hash) {
                    k = (k + 1) & b.mask;
                }
                b.slots[k] = f->slots[i];
                b.n++;
            }
        }
        free(f->slots);
        *f = b;
    }
    size_t i = mix64(h) & f->mask;
    while (f->slots[i].hash && f->slots[i].hash != h) {
        i = (i + 1) & f->mask;
    }
    if (!f->slots[i].hash) {
        f->slots[i].hash = h;
        f->n++;
    }
    f->slots[i].count++;
}

static uint64_t
string_hash(const char *s)
{
    uint64_t h = hash_bytes64(s, strlen(s));
    return h ? h : 1;
}

/* ---- What is counted. ---- */

/* A frequent string value: its own template, with the value's shape. */
struct top {
    uint64_t hash, count;
    struct shape shape;
    bool got;
};

/* The atoms of one kind in a column: its elements (or scalar), its map keys
 * or values, or the values of one map key. */
struct slot {
    const struct base_type *base;
    uint64_t n;
    struct i64_hist ints;
    double rmin, rmax;
    uint64_t n_true;
    uint64_t *enum_counts;      /* Per enum value. */
    struct freq freq;
    struct top *tops;
    size_t n_tops;
    struct shape_set shapes;
    uint32_t *hits;             /* References: per target row. */
    int ref_table;              /* -1 if not a reference. */
    bool strong;
    bool row_stable;            /* Shares values with another column. */
};

struct key_stat {
    char *key;
    uint64_t rows;
    struct slot value;
};

enum col_role {
    R_PLAIN,
    R_CHILDREN,                 /* Owns the rows it references. */
    R_COVER,                    /* References every row of a shared table. */
    R_UNIQUE_STRING,            /* Row-unique string (an index). */
    R_SEQ,                      /* Row-unique integer. */
    R_RANK,                     /* Position in its "per" group. */
    R_OWNER,                    /* The "per" group's parent row. */
    R_REF_ROW,                  /* Row-unique reference. */
};

struct col_stat {
    const struct column_schema *col;
    struct i64_hist sizes;      /* Sets and maps, per row, 0 included. */
    struct slot key, value;
    struct key_stat *keys;
    size_t n_keys;
    struct shash key_index;     /* key -> index + 1. */
    bool too_many_keys;
    enum col_role role;
};

enum table_mode { T_ROOT, T_CHILDREN, T_SHARED, T_PER, T_DROP };

struct table_stat {
    const struct table_schema *t;
    uint64_t rows;
    struct col_stat *cols;
    enum table_mode mode;
    int group_parent;           /* T_PER. */
    int group_col;              /* Its R_OWNER column. */
    bool emitted;

    /* String columns (scalars and sets), and in how many rows each
     * pair holds the same one value: columns that repeat each other. */
    size_t *eq_cols;
    size_t n_eq;
    uint64_t *eq;               /* n_eq x n_eq: equal in the same row. */
    uint64_t *eq_present;       /* Per column: rows with a value. */
};

struct deriver {
    const struct db_file *db;
    const struct db_schema *s;
    const struct twin_options *opt;
    struct table_stat *tables;
    uint32_t *ordinal;          /* Per store row: its index in its table. */
    struct ds notes;            /* Comments for the profile's head. */
};

/* ---- Pass 1: counting. ---- */

static void
slot_init(struct slot *sl, const struct base_type *b, struct deriver *d)
{
    memset(sl, 0, sizeof *sl);
    sl->base = b;
    sl->rmin = INFINITY;
    sl->rmax = -INFINITY;
    sl->ref_table = -1;
    if (b->enum_) {
        sl->enum_counts = xcalloc(b->enum_->n, sizeof *sl->enum_counts);
    }
    if (b->type == ATOMIC_UUID && b->u.uuid.ref_table) {
        sl->ref_table = b->u.uuid.ref_table->index;
        sl->strong = b->u.uuid.ref_type == REF_STRONG;
        sl->hits = xcalloc(d->tables[sl->ref_table].rows + 1,
                           sizeof *sl->hits);
    }
}

static void
slot_destroy(struct slot *sl)
{
    i64_hist_destroy(&sl->ints);
    free(sl->enum_counts);
    free(sl->freq.slots);
    for (size_t i = 0; i < sl->n_tops; i++) {
        for (size_t k = 0; k < sl->tops[i].shape.n_pieces; k++) {
            i64_hist_destroy(&sl->tops[i].shape.lens[k]);
        }
    }
    free(sl->tops);
    shape_set_destroy(&sl->shapes);
    free(sl->hits);
}

static void
count_enum(struct slot *sl, const struct json *a)
{
    const struct datum *e = sl->base->enum_;
    for (size_t i = 0; i < e->n; i++) {
        if (sl->base->type == ATOMIC_STRING
            ? (json_get_type(a) == JSON_STRING
               && !strcmp(json_string(e->keys[i].s), json_string(a)))
            : (json_get_type(a) == JSON_INTEGER
               && e->keys[i].integer == json_integer(a))) {
            sl->enum_counts[i]++;
            return;
        }
    }
}

/* One atom of pass 1 ('a' NULL: the scalar's default). */
static void
slot_count(struct deriver *d, struct slot *sl, const struct json *a)
{
    sl->n++;
    if (sl->enum_counts) {
        if (a) {
            count_enum(sl, a);
        }
        return;
    }
    switch (sl->base->type) {
    case ATOMIC_INTEGER:
        i64_hist_add(&sl->ints, a && json_get_type(a) == JSON_INTEGER
                                ? json_integer(a) : 0, 1);
        break;
    case ATOMIC_REAL: {
        double v = !a ? 0 : json_get_type(a) == JSON_REAL ? json_real(a)
                   : json_get_type(a) == JSON_INTEGER ? json_integer(a) : 0;
        sl->rmin = fmin(sl->rmin, v);
        sl->rmax = fmax(sl->rmax, v);
        break;
    }
    case ATOMIC_BOOLEAN:
        sl->n_true += a && json_get_type(a) == JSON_TRUE;
        break;
    case ATOMIC_STRING:
        freq_add(&sl->freq, string_hash(a && json_get_type(a) == JSON_STRING
                                        ? json_string(a) : ""));
        break;
    case ATOMIC_UUID:
        if (sl->ref_table >= 0 && a) {
            const struct db_row *r = db_file_find(d->db, sl->ref_table, a);
            if (r) {
                sl->hits[d->ordinal[r - d->db->store.rows]]++;
            }
        }
        break;
    case ATOMIC_VOID:
    case N_ATOMIC_TYPES:
    default:
        break;
    }
}

static struct key_stat *
find_key(struct deriver *d, struct col_stat *cs, const char *key, bool add)
{
    uintptr_t i = (uintptr_t) shash_find_data(&cs->key_index, key);
    if (i) {
        return &cs->keys[i - 1];
    }
    if (!add || cs->n_keys >= MAX_KEYS) {
        cs->too_many_keys |= add;
        return NULL;
    }
    cs->keys = xrealloc(cs->keys, (cs->n_keys + 1) * sizeof *cs->keys);
    struct key_stat *k = &cs->keys[cs->n_keys++];
    k->key = xstrdup(key);
    k->rows = 0;
    slot_init(&k->value, &cs->col->type.value, d);
    shash_add(&cs->key_index, key, (void *) (uintptr_t) cs->n_keys);
    return k;
}

/* Pass 2: the shape of one string that is not a frequent value. */
static void
slot_shape(struct slot *sl, const struct json *a)
{
    if (sl->base->type != ATOMIC_STRING || sl->enum_counts) {
        return;
    }
    const char *s = a && json_get_type(a) == JSON_STRING ? json_string(a) : "";
    uint64_t h = string_hash(s);
    for (size_t i = 0; i < sl->n_tops; i++) {
        struct top *t = &sl->tops[i];
        if (t->hash == h) {
            if (!t->got) {
                struct ds key = DS_EMPTY_INITIALIZER;
                t->shape.n_pieces = shape_of(s, strlen(s), t->shape.pieces,
                                             &key);
                for (size_t k = 0; k < t->shape.n_pieces; k++) {
                    i64_hist_add(&t->shape.lens[k], t->shape.pieces[k].len,
                                 1);
                }
                t->got = true;
                ds_destroy(&key);
            }
            return;
        }
    }
    struct freq_slot *f = freq_find(&sl->freq, h);
    bool first = f && !(f->count & SEEN_BIT);
    if (f) {
        f->count |= SEEN_BIT;
    }
    shape_set_add(&sl->shapes, s, strlen(s), first);
}

static void
visit_atom(struct deriver *d, struct slot *sl, const struct json *a,
           int pass)
{
    if (pass == 1) {
        slot_count(d, sl, a);
    } else {
        slot_shape(sl, a);
    }
}

/* One column of one row, in either pass. */
static void
visit_column(struct deriver *d, struct col_stat *cs, const struct json *v,
             int pass)
{
    const struct ovsdb_type *type = &cs->col->type;
    if (!v) {
        if (ovsdb_type_is_scalar(type)) {
            visit_atom(d, &cs->key, NULL, pass);
        } else if (pass == 1) {
            i64_hist_add(&cs->sizes, 0, 1);
        }
        return;
    }
    const struct json *elems;
    enum datum_form f = datum_form(v, &elems);
    size_t n = f == D_ATOM ? 1 : json_array_size(elems);
    if (pass == 1 && !ovsdb_type_is_scalar(type)) {
        i64_hist_add(&cs->sizes, n, 1);
    }
    for (size_t i = 0; i < n; i++) {
        const struct json *e = f == D_ATOM ? elems : json_array_at(elems, i);
        if (!ovsdb_type_is_map(type)) {
            visit_atom(d, &cs->key, e, pass);
            continue;
        }
        const struct json *k = json_array_at(e, 0), *val = json_array_at(e, 1);
        visit_atom(d, &cs->key, k, pass);
        visit_atom(d, &cs->value, val, pass);
        if (type->key.type == ATOMIC_STRING
            && json_get_type(k) == JSON_STRING) {
            struct key_stat *ks = find_key(d, cs, json_string(k), pass == 1);
            if (ks) {
                ks->rows += pass == 1;
                visit_atom(d, &ks->value, val, pass);
            }
        }
    }
}

/* The one non-empty string of a column, or NULL. */
static const char *
single_string(const struct json *v)
{
    const struct json *elems;
    if (!v) {
        return NULL;
    }
    enum datum_form f = datum_form(v, &elems);
    const struct json *a = (f == D_ATOM ? elems
                            : f == D_SET && json_array_size(elems) == 1
                            ? json_array_at(elems, 0) : NULL);
    return (a && json_get_type(a) == JSON_STRING && *json_string(a)
            ? json_string(a) : NULL);
}

static void
count_equal_columns(struct table_stat *ts, const struct json *row)
{
    const char *v[64];
    for (size_t i = 0; i < ts->n_eq; i++) {
        v[i] = single_string(json_object_get(
                   row, ts->cols[ts->eq_cols[i]].col->name));
        ts->eq_present[i] += v[i] != NULL;
    }
    for (size_t i = 0; i < ts->n_eq; i++) {
        for (size_t k = i + 1; v[i] && k < ts->n_eq; k++) {
            if (v[k] && !strcmp(v[i], v[k])) {
                ts->eq[i * ts->n_eq + k]++;
            }
        }
    }
}

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

static void
visit_rows(struct deriver *d, int pass)
{
    const struct db_file *db = d->db;
    for (size_t i = 0; i < db->store.n; i++) {
        const struct db_row *row = &db->store.rows[i];
        if (!row->text) {
            continue;
        }
        struct table_stat *ts = &d->tables[row->table];
        struct json *j = db_file_parse_row(db, row);
        for (size_t c = 0; c < ts->t->n_columns; c++) {
            struct col_stat *cs = &ts->cols[c];
            visit_column(d, cs, json_object_get(j, cs->col->name), pass);
        }
        if (pass == 1) {
            count_equal_columns(ts, j);
        }
        json_destroy(j);
    }
}

/* ---- Deciding the structure. ---- */

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

static bool
target_usable(const struct deriver *d, int table)
{
    return table >= 0 && d->tables[table].rows
           && d->tables[table].mode != T_DROP;
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

static void
decide(struct deriver *d)
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

/* ---- Writing the profile. ---- */

static int
cmp_shape_n(const void *a_, const void *b_)
{
    const struct shape *const *a = a_, *const *b = b_;
    return (*a)->n < (*b)->n ? 1 : (*a)->n > (*b)->n ? -1 : 0;
}

/* The templates of a string slot: frequent values, the most common shapes,
 * and one text template for the rest. */
static void
put_string_spec(struct slot *sl, bool unique, struct ds *out)
{
    struct ds tmpl = DS_EMPTY_INITIALIZER;
    struct ds specs = DS_EMPTY_INITIALIZER;
    size_t n = 0;

    for (size_t i = 0; i < sl->n_tops; i++) {
        if (sl->tops[i].got) {
            ds_clear(&tmpl);
            shape_put_template(&sl->tops[i].shape, UNIQUE_NO, false, 1, true,
                               &tmpl);
            ds_put_char(&specs, ' ');
            put_profile_quoted(&specs, ds_cstr(&tmpl));
            ds_put_format(&specs, " %"PRIu64, sl->tops[i].count);
            n++;
        }
    }
    const struct shape **order = xmalloc((sl->shapes.n + 1) * sizeof *order);
    for (size_t i = 0; i < sl->shapes.n; i++) {
        order[i] = &sl->shapes.v[i];
    }
    qsort(order, sl->shapes.n, sizeof *order, cmp_shape_n);
    size_t room = MAX_TEMPLATES - n;
    struct shape rest;
    memset(&rest, 0, sizeof rest);
    rest.n_pieces = 1;
    rest.pieces[0].kind = SH_TEXT;
    for (size_t i = 0; i < sl->shapes.n; i++) {
        const struct shape *sh = order[i];
        if (i + 1 < room || sl->shapes.n <= room) {
            ds_clear(&tmpl);
            shape_put_template(sh, unique ? UNIQUE_ROW : UNIQUE_NO,
                               sl->row_stable, unique ? 0 : pool_for(sh->n, sh->distinct),
                               false, &tmpl);
            ds_put_char(&specs, ' ');
            put_profile_quoted(&specs, ds_cstr(&tmpl));
            ds_put_format(&specs, " %"PRIu64, sh->n);
            n++;
            continue;
        }
        /* The rest as text of their whole lengths. */
        rest.n += sh->n;
        rest.distinct += sh->distinct;
        for (size_t k = 0; k < sh->lens[0].mask + 1 && sh->n_pieces == 1
                           && sh->lens[0].slots; k++) {
            const struct i64_count *c = &sh->lens[0].slots[k];
            if (c->n) {
                i64_hist_add(&rest.lens[0], c->v, c->n);
            }
        }
        if (sh->n_pieces != 1) {
            /* Total length of a many-piece shape: the sum of its pieces'
             * most common lengths is close enough for a rare shape. */
            int64_t len = 0;
            for (size_t k = 0; k < sh->n_pieces; k++) {
                len += sh->pieces[k].len;
            }
            i64_hist_add(&rest.lens[0], len, sh->n);
        }
    }
    if (rest.n) {
        ds_clear(&tmpl);
        shape_put_template(&rest, unique ? UNIQUE_ROW : UNIQUE_NO,
                           sl->row_stable, unique ? 0 : pool_for(rest.n, rest.distinct),
                           false, &tmpl);
        ds_put_char(&specs, ' ');
        put_profile_quoted(&specs, ds_cstr(&tmpl));
        ds_put_format(&specs, " %"PRIu64, rest.n);
        n++;
        i64_hist_destroy(&rest.lens[0]);
    }
    free(order);
    ds_put_format(out, "oneof %zu%s", n, ds_cstr(&specs));
    ds_destroy(&tmpl);
    ds_destroy(&specs);
}

/* JSON text of enum value 'i', as a profile token. */
static void
put_enum_pick(const struct slot *sl, struct ds *out)
{
    const struct datum *e = sl->base->enum_;
    size_t n = 0;
    for (size_t i = 0; i < e->n; i++) {
        n += sl->enum_counts[i] > 0;
    }
    ds_put_format(out, "pick %zu", n);
    for (size_t i = 0; i < e->n; i++) {
        if (!sl->enum_counts[i]) {
            continue;
        }
        ds_put_char(out, ' ');
        if (sl->base->type == ATOMIC_STRING) {
            put_profile_quoted(out, json_string(e->keys[i].s));
        } else {
            ds_put_format(out, "%"PRId64, e->keys[i].integer);
        }
        ds_put_format(out, " %"PRIu64, sl->enum_counts[i]);
    }
}

/* The value spec of a slot; false if there is nothing to write. */
static bool
put_value_spec(const struct deriver *d, struct slot *sl, enum col_role role,
               int own_table, struct ds *out)
{
    if (!sl->n) {
        return false;
    }
    if (sl->enum_counts) {
        for (size_t i = 0; i < sl->base->enum_->n; i++) {
            if (sl->enum_counts[i]) {
                put_enum_pick(sl, out);
                return true;
            }
        }
        return false;
    }
    switch (sl->base->type) {
    case ATOMIC_STRING:
        put_string_spec(sl, role == R_UNIQUE_STRING, out);
        return true;
    case ATOMIC_INTEGER:
        /* Only magnitudes: integer values are contents too. */
        ds_put_cstr(out, "int ");
        i64_hist_put_magnitudes(&sl->ints, sl->base->u.integer.min,
                                sl->base->u.integer.max, out);
        return true;
    case ATOMIC_REAL:
        /* The powers of ten around the values, not the values. */
        ds_put_format(out, "real %.17g %.17g",
                      sl->rmin >= 0 ? 0 : -pow(10, ceil(log10(-sl->rmin))),
                      sl->rmax <= 0 ? 0 : pow(10, ceil(log10(sl->rmax))));
        return true;
    case ATOMIC_BOOLEAN:
        ds_put_format(out, "bool %.6f", (double) sl->n_true / sl->n);
        return true;
    case ATOMIC_UUID: {
        int t = sl->ref_table >= 0 ? sl->ref_table : own_table;
        if (!target_usable(d, t)) {
            return false;
        }
        ds_put_format(out, "ref %s%s", d->s->tables[t]->name,
                      role == R_COVER ? " cover" : "");
        return true;
    }
    case ATOMIC_VOID:
    case N_ATOMIC_TYPES:
    default:
        return false;
    }
}

static bool
only_zero(const struct i64_hist *h)
{
    return !h->n || (h->n == 1 && i64_hist_max(h) == 0);
}

static int64_t
int_start(const struct base_type *b)
{
    return b->u.integer.min <= 1 && b->u.integer.max >= 1
           ? 1 : b->u.integer.min;
}

/* A synthetic key of the same length ("--drop-keys"). */
static char *
synthetic_key(size_t i, size_t len)
{
    struct ds k = DS_EMPTY_INITIALIZER;
    ds_put_char(&k, 'k');
    do {
        ds_put_char(&k, 'a' + i % 26);
        i /= 26;
    } while (i);
    while (k.length < len) {
        ds_put_char(&k, 'x');
    }
    return ds_steal_cstr(&k);
}

/* A key that a profile line can hold (no line breaks or controls). */
static bool
profile_safe(const char *s)
{
    for (; *s; s++) {
        if ((unsigned char) *s < 0x20) {
            return false;
        }
    }
    return true;
}

/* "map" with key lines, if the keys repeat; false for "mapgen". */
static bool
put_map_keys(const struct deriver *d, const struct table_stat *ts,
             struct col_stat *cs, struct ds *out)
{
    if (cs->too_many_keys || !cs->n_keys
        || cs->col->type.key.type != ATOMIC_STRING || cs->col->type.key.enum_) {
        return false;
    }
    uint64_t nonempty = ts->rows;
    uint64_t pairs = 0, kept_pairs = 0;
    uint64_t min_rows = ts->rows < 2 ? ts->rows : 2;
    bool *kept = xcalloc(cs->n_keys, sizeof *kept);
    for (size_t k = 0; k < cs->n_keys; k++) {
        const struct key_stat *ks = &cs->keys[k];
        pairs += ks->rows;
        kept[k] = ks->rows >= min_rows
                  && ks->rows >= KEY_MIN_SHARE * nonempty;
        kept_pairs += kept[k] ? ks->rows : 0;
    }
    if (!kept_pairs || kept_pairs < 0.9 * pairs) {
        free(kept);
        return false;
    }
    struct ds lines = DS_EMPTY_INITIALIZER;
    size_t n_lines = 0;
    for (size_t k = 0; k < cs->n_keys; k++) {
        struct key_stat *ks = &cs->keys[k];
        struct ds v = DS_EMPTY_INITIALIZER;
        if (!kept[k] || !put_value_spec(d, &ks->value, R_PLAIN,
                                        ts->t->index, &v)) {
            ds_destroy(&v);
            continue;
        }
        char *name = (d->opt->drop_keys || !profile_safe(ks->key)
                      ? synthetic_key(k, strlen(ks->key))
                      : xstrdup(ks->key));
        ds_put_cstr(&lines, "    key ");
        put_profile_quoted(&lines, name);
        ds_put_format(&lines, " %.6f %s\n",
                      fmin(1.0, (double) ks->rows / ts->rows), ds_cstr(&v));
        free(name);
        ds_destroy(&v);
        n_lines++;
    }
    free(kept);
    if (n_lines) {
        ds_put_format(out, "  %s map\n%s", cs->col->name, ds_cstr(&lines));
    }
    ds_destroy(&lines);
    return n_lines > 0;
}

static void
put_column(const struct deriver *d, const struct table_stat *ts,
           struct col_stat *cs, struct ds *out)
{
    const struct ovsdb_type *type = &cs->col->type;
    const char *name = cs->col->name;
    struct ds v = DS_EMPTY_INITIALIZER;

    if (cs->col->ephemeral) {
        return;
    }
    switch (cs->role) {
    case R_SEQ:
        ds_put_format(out, "  %s seq %"PRId64"\n", name,
                      int_start(&type->key));
        return;
    case R_RANK:
        ds_put_format(out, "  %s rank %"PRId64"\n", name,
                      int_start(&type->key));
        return;
    case R_OWNER:
        ds_put_format(out, "  %s ref %s owner\n", name,
                      d->s->tables[ts->group_parent]->name);
        return;
    case R_REF_ROW:
        ds_put_format(out, "  %s ref %s row\n", name,
                      d->s->tables[cs->key.ref_table]->name);
        return;
    case R_CHILDREN:
        if (!only_zero(&cs->sizes)) {
            ds_put_format(out, "  %s children ", name);
            i64_hist_put_dist(&cs->sizes, DIST_ITEMS, out);
            ds_put_format(out, " %s\n",
                          d->s->tables[cs->key.ref_table]->name);
        }
        return;
    case R_PLAIN:
    case R_COVER:
    case R_UNIQUE_STRING:
        break;
    }

    if (ovsdb_type_is_scalar(type)) {
        if (put_value_spec(d, &cs->key, cs->role, ts->t->index, &v)) {
            ds_put_format(out, "  %s %s\n", name, ds_cstr(&v));
        }
    } else if (only_zero(&cs->sizes)) {
        /* Always empty: the default. */
    } else if (!ovsdb_type_is_map(type)) {
        if (put_value_spec(d, &cs->key, cs->role, ts->t->index, &v)) {
            ds_put_format(out, "  %s set ", name);
            i64_hist_put_dist(&cs->sizes, DIST_ITEMS, out);
            ds_put_format(out, " %s\n", ds_cstr(&v));
        }
    } else if (!put_map_keys(d, ts, cs, out)) {
        struct ds kv = DS_EMPTY_INITIALIZER;
        if (put_value_spec(d, &cs->key, R_PLAIN, ts->t->index, &kv)
            && put_value_spec(d, &cs->value, R_PLAIN, ts->t->index, &v)) {
            ds_put_format(out, "  %s mapgen ", name);
            i64_hist_put_dist(&cs->sizes, DIST_ITEMS, out);
            ds_put_format(out, " %s %s\n", ds_cstr(&kv), ds_cstr(&v));
        }
        ds_destroy(&kv);
    }
    ds_destroy(&v);
}

static void
put_table(struct deriver *d, struct table_stat *ts, struct ds *out)
{
    const char *name = ts->t->name;
    ts->emitted = true;
    switch (ts->mode) {
    case T_DROP:
        return;
    case T_ROOT:
    case T_SHARED:
        if (!ts->rows) {
            return;
        }
        ds_put_format(out, "\ntable %s %"PRIu64"%s\n", name, ts->rows,
                      ts->t->max_rows ? " fixed" : "");
        break;
    case T_CHILDREN:
        ds_put_format(out, "\ntable %s children\n", name);
        break;
    case T_PER: {
        ds_put_format(out, "\ntable %s per %s ", name,
                      d->s->tables[ts->group_parent]->name);
        const struct slot *owner = &ts->cols[ts->group_col].key;
        struct i64_hist groups = { 0 };
        for (uint64_t r = 0; r < d->tables[ts->group_parent].rows; r++) {
            i64_hist_add(&groups, owner->hits[r], 1);
        }
        i64_hist_put_dist(&groups, DIST_ITEMS, out);
        i64_hist_destroy(&groups);
        ds_put_char(out, '\n');
        break;
    }
    }
    for (size_t c = 0; c < ts->t->n_columns; c++) {
        put_column(d, ts, &ts->cols[c], out);
    }
}

static void
put_profile(struct deriver *d, struct ds *out)
{
    ds_put_format(out, "# Dataset twin of a %s %s database, derived by "
                  "ovsdb-stats --profile%s.\n", d->s->name, d->s->version,
                  d->opt->drop_keys ? " --drop-keys" : "");
    ds_put_cstr(out, "# It holds row counts, distributions (sizes, "
                "lengths, integers, fan-outs),\n# string templates and "
                "map key names; no string value of the file.\n");
    ds_put_cstr(out, ds_cstr(&d->notes));
    ds_put_format(out, "profile twin-%s\ndraws even\n", d->s->name);
    for (size_t t = 0; t < d->s->n_tables; t++) {
        if (d->tables[t].mode != T_PER) {
            put_table(d, &d->tables[t], out);
        }
    }
    /* "per" tables after their parents. */
    for (bool progress = true; progress; ) {
        progress = false;
        for (size_t t = 0; t < d->s->n_tables; t++) {
            struct table_stat *ts = &d->tables[t];
            if (!ts->emitted && d->tables[ts->group_parent].emitted) {
                put_table(d, ts, out);
                progress = true;
            }
        }
    }
}

/* ---- Setup. ---- */

static void
deriver_init(struct deriver *d, const struct db_file *db,
             const struct twin_options *opt)
{
    memset(d, 0, sizeof *d);
    d->db = db;
    d->s = db->schema;
    d->opt = opt;
    ds_init(&d->notes);
    d->tables = xcalloc(d->s->n_tables, sizeof *d->tables);
    d->ordinal = xcalloc(db->store.n + 1, sizeof *d->ordinal);
    for (size_t i = 0; i < db->store.n; i++) {
        const struct db_row *r = &db->store.rows[i];
        if (r->text) {
            d->ordinal[i] = d->tables[r->table].rows++;
        }
    }
    for (size_t t = 0; t < d->s->n_tables; t++) {
        struct table_stat *ts = &d->tables[t];
        ts->t = d->s->tables[t];
        ts->group_parent = -1;
        ts->cols = xcalloc(ts->t->n_columns, sizeof *ts->cols);
        for (size_t c = 0; c < ts->t->n_columns; c++) {
            struct col_stat *cs = &ts->cols[c];
            cs->col = ts->t->columns[c];
            slot_init(&cs->key, &cs->col->type.key, d);
            slot_init(&cs->value, &cs->col->type.value, d);
            shash_init(&cs->key_index);
            const struct ovsdb_type *type = &cs->col->type;
            if (type->key.type == ATOMIC_STRING && !type->key.enum_
                && !ovsdb_type_is_map(type)
                && ts->n_eq < 64) {
                ts->eq_cols = xrealloc(ts->eq_cols,
                                       (ts->n_eq + 1) * sizeof *ts->eq_cols);
                ts->eq_cols[ts->n_eq++] = c;
            }
        }
        ts->eq = xcalloc(ts->n_eq * ts->n_eq + 1, sizeof *ts->eq);
        ts->eq_present = xcalloc(ts->n_eq + 1, sizeof *ts->eq_present);
    }
}

static void
deriver_destroy(struct deriver *d)
{
    for (size_t t = 0; t < d->s->n_tables; t++) {
        struct table_stat *ts = &d->tables[t];
        for (size_t c = 0; c < ts->t->n_columns; c++) {
            struct col_stat *cs = &ts->cols[c];
            i64_hist_destroy(&cs->sizes);
            slot_destroy(&cs->key);
            slot_destroy(&cs->value);
            for (size_t k = 0; k < cs->n_keys; k++) {
                free(cs->keys[k].key);
                slot_destroy(&cs->keys[k].value);
            }
            free(cs->keys);
            shash_destroy(&cs->key_index);
        }
        free(ts->cols);
        free(ts->eq_cols);
        free(ts->eq);
        free(ts->eq_present);
    }
    free(d->tables);
    free(d->ordinal);
    ds_destroy(&d->notes);
}

void
twin_derive(const struct db_file *db, const struct twin_options *opt,
            struct ds *out)
{
    /* Every row checked against the schema first (an error names file,
     * record and byte offset), so the passes can trust the types. */
    struct db_counts dc;
    db_counts_compute(&dc, db, false);
    db_counts_destroy(&dc);

    struct deriver d;
    deriver_init(&d, db, opt);
    visit_rows(&d, 1);
    decide(&d);
    visit_rows(&d, 2);
    put_profile(&d, out);
    deriver_destroy(&d);
}
