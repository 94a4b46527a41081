/* Counting the rows of a loaded database; see db-counts.h. */
#include "db-counts.h"

#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "ovsdb/rng.h"
#include "shash.h"
#include "util.h"

const char *const len_bucket_names[N_LEN_BUCKETS] = {
    "0-7", "8-15", "16-23", "24-35", "36", "37-63", "64+"
};

int
len_bucket(size_t n)
{
    return n <= 7 ? 0 : n <= 15 ? 1 : n <= 23 ? 2 : n <= 35 ? 3
           : n == 36 ? 4 : n <= 63 ? 5 : 6;
}

const char *const size_bucket_names[N_SIZE_BUCKETS] = {
    "0", "1", "2", "3-4", "5-8", "9-16", "17-32", "33-49", "50-99", "100+"
};

int
size_bucket(size_t n)
{
    return n == 0 ? 0 : n == 1 ? 1 : n == 2 ? 2 : n <= 4 ? 3 : n <= 8 ? 4
           : n <= 16 ? 5 : n <= 32 ? 6 : n <= 49 ? 7 : n <= 99 ? 8 : 9;
}

bool
hash_set_add(struct hash_set *s, uint64_t v)
{
    v = v ? v : 1;
    if ((s->n + 1) * 2 > s->mask + 1) {
        struct hash_set b = { .mask = s->mask ? s->mask * 2 + 1 : 255 };
        b.slots = xcalloc(b.mask + 1, sizeof *b.slots);
        for (size_t i = 0; s->slots && i <= s->mask; i++) {
            if (s->slots[i]) {
                size_t h = mix64(s->slots[i]) & b.mask;
                while (b.slots[h]) {
                    h = (h + 1) & b.mask;
                }
                b.slots[h] = s->slots[i];
                b.n++;
            }
        }
        free(s->slots);
        *s = b;
    }
    size_t h = mix64(v) & s->mask;
    for (; s->slots[h]; h = (h + 1) & s->mask) {
        if (s->slots[h] == v) {
            return false;
        }
    }
    s->slots[h] = v;
    s->n++;
    return true;
}

uint64_t
hash_bytes64(const char *p, size_t n)
{
    uint64_t h = 0x84222325cbf29ce4ULL ^ n;
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = mix64(h ^ w) + 0x9e3779b97f4a7c15ULL;
        p += 8;
        n -= 8;
    }
    uint64_t w = 0;
    memcpy(&w, p, n);
    return mix64(h ^ w ^ 0xabcdef);
}

/* A row is counted into the whole file's counts and, optionally, its
 * table's: 'c[0]' and 'c[1]' (NULL if not per table). */
typedef struct counts *counts_pair[2];

#define FOR_EACH_COUNTS(X, PAIR) \
    for (struct counts **X##_p = (PAIR), *X; \
         X##_p < (PAIR) + 2 && (X = *X##_p) != NULL; X##_p++)

static void
count_string(counts_pair c, const char *s)
{
    size_t n = strlen(s);
    uint64_t h = hash_bytes64(s, n);
    FOR_EACH_COUNTS (x, c) {
        x->strings++;
        x->string_bytes += n;
        x->len_hist[len_bucket(n)]++;
        x->short_strings += n <= 23;
        hash_set_add(&x->distinct, h);
    }
}

static bool
count_atom(counts_pair c, enum atomic_type type, const struct json *a)
{
    enum json_type jt = json_get_type(a);
    switch (type) {
    case ATOMIC_STRING:
        if (jt != JSON_STRING) {
            return false;
        }
        count_string(c, json_string(a));
        break;
    case ATOMIC_INTEGER:
        if (jt != JSON_INTEGER) {
            return false;
        }
        break;
    case ATOMIC_REAL:
        if (jt != JSON_INTEGER && jt != JSON_REAL) {
            return false;
        }
        break;
    case ATOMIC_BOOLEAN:
        if (jt != JSON_TRUE && jt != JSON_FALSE) {
            return false;
        }
        break;
    case ATOMIC_UUID:
        if (jt != JSON_ARRAY || json_array_size(a) != 2) {
            return false;
        }
        break;
    case ATOMIC_VOID:
    case N_ATOMIC_TYPES:
    default:
        return false;
    }
    FOR_EACH_COUNTS (x, c) {
        x->by_type[type]++;
    }
    return true;
}

static void
count_size(counts_pair c, bool map, size_t n)
{
    FOR_EACH_COUNTS (x, c) {
        if (map) {
            x->map_sizes[size_bucket(n)]++;
            x->max_map = n > x->max_map ? n : x->max_map;
        } else {
            x->set_sizes[size_bucket(n)]++;
            x->max_set = n > x->max_set ? n : x->max_set;
        }
    }
}

/* Counts one column's value 'v' (NULL: left out, the default); returns its
 * atoms, or -1 if it does not match the column's type. */
static int64_t
count_column(counts_pair c, const struct column_schema *col,
             const struct json *v)
{
    bool map = ovsdb_type_is_map(&col->type);
    if (!v) {
        if (ovsdb_type_is_scalar(&col->type)) {
            /* The default atom: "", 0, false, 0.0 or the zero UUID. */
            FOR_EACH_COUNTS (x, c) {
                x->by_type[col->type.key.type]++;
            }
            if (col->type.key.type == ATOMIC_STRING) {
                count_string(c, "");
            }
            return 1;
        }
        count_size(c, map, 0);
        return 0;
    }
    const struct json *elems;
    enum datum_form f = datum_form(v, &elems);
    size_t n = f == D_ATOM ? 1 : json_array_size(elems);
    bool ok = true;
    if (map) {
        ok = f == D_MAP;
        for (size_t i = 0; ok && i < n; i++) {
            const struct json *pair = json_array_at(elems, i);
            ok = json_get_type(pair) == JSON_ARRAY
                 && json_array_size(pair) == 2
                 && count_atom(c, col->type.key.type, json_array_at(pair, 0))
                 && count_atom(c, col->type.value.type,
                               json_array_at(pair, 1));
        }
        count_size(c, true, n);
        return ok ? (int64_t) (2 * n) : -1;
    }
    ok = f != D_MAP && (f == D_SET || n == 1);
    for (size_t i = 0; ok && i < n; i++) {
        ok = count_atom(c, col->type.key.type,
                        f == D_ATOM ? elems : json_array_at(elems, i));
    }
    if (!ovsdb_type_is_scalar(&col->type)) {
        count_size(c, false, n);
    }
    return ok ? (int64_t) n : -1;
}

/* Counts one row; returns an error message or NULL. */
static char *
count_row(counts_pair c, const struct table_schema *t, const struct json *row,
          size_t len, uint64_t *atomsp)
{
    uint64_t atoms = 2;                 /* _uuid and _version. */
    FOR_EACH_COUNTS (x, c) {
        x->by_type[ATOMIC_UUID] += 2;
    }
    struct shash_node *node;
    SHASH_FOR_EACH (node, json_object(row)) {
        if (table_schema_column_index(t, node->name) < 0) {
            return xasprintf("table %s has no column \"%s\"", t->name,
                             node->name);
        }
    }
    for (size_t ci = 0; ci < t->n_columns; ci++) {
        const struct column_schema *col = t->columns[ci];
        int64_t n = count_column(c, col, json_object_get(row, col->name));
        if (n < 0) {
            return xasprintf("table %s, column %s: value does not match "
                             "the column type", t->name, col->name);
        }
        atoms += n;
    }
    FOR_EACH_COUNTS (x, c) {
        x->atoms += atoms;
        x->rows++;
        x->bytes += len;
    }
    *atomsp = atoms;
    return NULL;
}

void
db_counts_compute(struct db_counts *dc, const struct db_file *db,
                  bool per_table)
{
    memset(dc, 0, sizeof *dc);
    dc->n_tables = db->schema->n_tables;
    dc->tables = xcalloc(dc->n_tables, sizeof *dc->tables);
    for (size_t i = 0; i < db->store.n; i++) {
        const struct db_row *row = &db->store.rows[i];
        if (!row->text) {
            continue;
        }
        counts_pair c = { &dc->total,
                          per_table ? &dc->tables[row->table] : NULL };
        struct json *j = db_file_parse_row(db, row);
        uint64_t atoms = 0;
        char *err = count_row(c, db->schema->tables[row->table], j,
                              row->len, &atoms);
        json_destroy(j);
        if (err) {
            db_file_row_fatal(db, row, err);
        }
        if (!per_table) {
            /* Rows, atoms and bytes per table are always there. */
            struct counts *t = &dc->tables[row->table];
            t->rows++;
            t->atoms += atoms;
            t->bytes += row->len;
        }
    }
}

void
db_counts_destroy(struct db_counts *dc)
{
    free(dc->total.distinct.slots);
    for (size_t t = 0; t < dc->n_tables; t++) {
        free(dc->tables[t].distinct.slots);
    }
    free(dc->tables);
    memset(dc, 0, sizeof *dc);
}
