/* Dataset twins, what is counted: two passes over the live rows of a
 * database.  The first counts rows, set and map sizes, integers, booleans,
 * reals, how often each string value occurs (by hash), map keys, how many
 * times each row is referenced from each column, and which columns repeat
 * each other's value in a row; the second turns the strings that are not
 * frequent values into shapes (twin-shape.c).  See twin-stats.h. */
#include "twin-stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db-counts.h"
#include "json.h"
#include "ovsdb/datum.h"
#include "ovsdb/rng.h"
#include "util.h"

#define SEEN_BIT (1ULL << 63)   /* Counted in pass 2 already. */

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

void
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

void
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

void
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
