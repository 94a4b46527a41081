/* ovsdb-stats: reads any OVSDB standalone database file (generated or real,
 * snapshot or log, with or without "_is_diff"), applies every record, and
 * reports rows and atoms per table, atoms by type, string lengths, distinct
 * strings and set/map sizes.  Atoms are counted as OVSDB counts them: one per
 * scalar or set element, two per map pair, including each row's _uuid and
 * _version and the default value of every scalar column.
 *
 * Memory: the file is mapped and each row is kept as the span of its JSON
 * text in the mapping (a modified row as new text), so memory is about the
 * file size plus ~50 bytes per row, not a JSON tree of the whole database. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ds.h"
#include "json.h"
#include "ovsdb/datum.h"
#include "ovsdb/mapped-reader.h"
#include "ovsdb/rng.h"
#include "ovsdb/uuid.h"
#include "ovsdb/schema.h"
#include "shash.h"
#include "util.h"

/* ---- Rows: (table, uuid) -> JSON text of the row object. ---- */

struct row {
    uint64_t uuid_hi, uuid_lo;
    const char *text;           /* NULL once deleted. */
    uint32_t len;
    int32_t table;
    bool owned;                 /* 'text' is heap memory. */
    uint32_t record;            /* Record that last wrote it, for errors
                                 * (fits in what was padding). */
};

struct row_store {
    struct row *rows;
    size_t n, allocated;
    uint32_t *slots;            /* Index + 1 into 'rows'; 0 is empty. */
    size_t mask;
};

static size_t
row_hash(int table, uint64_t hi, uint64_t lo)
{
    return mix64(hi ^ mix64(lo + table));
}

static void
store_rehash(struct row_store *s)
{
    size_t n_slots = s->mask ? (s->mask + 1) * 2 : 1024;
    free(s->slots);
    s->slots = xcalloc(n_slots, sizeof *s->slots);
    s->mask = n_slots - 1;
    for (size_t i = 0; i < s->n; i++) {
        const struct row *r = &s->rows[i];
        size_t h = row_hash(r->table, r->uuid_hi, r->uuid_lo) & s->mask;
        while (s->slots[h]) {
            h = (h + 1) & s->mask;
        }
        s->slots[h] = i + 1;
    }
}

/* Finds the row, or creates an empty (deleted) one. */
static struct row *
store_find(struct row_store *s, int table, uint64_t hi, uint64_t lo)
{
    if (!s->mask || (s->n + 1) * 2 > s->mask + 1) {
        store_rehash(s);
    }
    size_t h = row_hash(table, hi, lo) & s->mask;
    for (; s->slots[h]; h = (h + 1) & s->mask) {
        struct row *r = &s->rows[s->slots[h] - 1];
        if (r->uuid_hi == hi && r->uuid_lo == lo && r->table == table) {
            return r;
        }
    }
    if (s->n >= UINT32_MAX - 1) {
        ovs_fatal(0, "too many rows");
    }
    if (s->n >= s->allocated) {
        s->allocated = s->allocated ? s->allocated * 2 : 1024;
        s->rows = xrealloc(s->rows, s->allocated * sizeof *s->rows);
    }
    s->slots[h] = s->n + 1;
    struct row *r = &s->rows[s->n++];
    *r = (struct row) { .uuid_hi = hi, .uuid_lo = lo, .table = table };
    return r;
}

static void
row_set_text(struct row *r, const char *text, size_t len, bool owned)
{
    if (r->owned) {
        free(CONST_CAST(char *, r->text));
    }
    r->text = text;
    r->len = len;
    r->owned = owned;
}

/* ---- Scanning record text without building trees. ---- */

struct scan {
    const char *file;
    uint64_t record;
    const char *base;           /* Start of the record body. */
    size_t base_offset;         /* Its offset in the file. */
    const char *p, *end;
    char *error;
};

static void OVS_PRINTF_FORMAT(2, 3)
scan_error(struct scan *sc, const char *format, ...)
{
    if (sc->error) {
        return;
    }
    va_list args;
    va_start(args, format);
    char *msg = xvasprintf(format, args);
    va_end(args);
    sc->error = xasprintf("%s: record %"PRIu64" at byte offset %zu: %s",
                          sc->file, sc->record,
                          sc->base_offset + (size_t) (sc->p - sc->base), msg);
    free(msg);
}

static void
skip_ws(struct scan *sc)
{
    while (sc->p < sc->end && (*sc->p == ' ' || *sc->p == '\n'
                               || *sc->p == '\r' || *sc->p == '\t')) {
        sc->p++;
    }
}

static bool
expect_char(struct scan *sc, char c)
{
    skip_ws(sc);
    if (sc->p >= sc->end || *sc->p != c) {
        scan_error(sc, "expected '%c'", c);
        return false;
    }
    sc->p++;
    return true;
}

/* Scans a string; sets [*s, *e) to its raw (still escaped) contents. */
static bool
scan_string(struct scan *sc, const char **s, const char **e)
{
    skip_ws(sc);
    if (sc->p >= sc->end || *sc->p != '"') {
        scan_error(sc, "expected a string");
        return false;
    }
    const char *q = ++sc->p;
    while (q < sc->end && *q != '"') {
        q += *q == '\\' ? 2 : 1;
    }
    if (q >= sc->end) {
        scan_error(sc, "unterminated string");
        return false;
    }
    *s = sc->p;
    *e = q;
    sc->p = q + 1;
    return true;
}

/* Skips one JSON value (structure only: the rows are fully parsed later). */
static bool
skip_value(struct scan *sc)
{
    skip_ws(sc);
    int depth = 0;
    const char *start = sc->p;
    while (sc->p < sc->end) {
        char c = *sc->p;
        if (c == '"') {
            const char *s, *e;
            if (!scan_string(sc, &s, &e)) {
                return false;
            }
        } else if (c == '{' || c == '[') {
            if (++depth > 1000) {
                scan_error(sc, "nested too deep");
                return false;
            }
            sc->p++;
        } else if (c == '}' || c == ']') {
            if (!depth) {
                break;
            }
            depth--;
            sc->p++;
        } else if (!depth && (c == ',' || c == ' ' || c == '\n'
                              || c == '\r' || c == '\t')) {
            break;
        } else {
            sc->p++;
        }
        if (!depth && sc->p > start && (c == '"' || c == '}' || c == ']')) {
            break;
        }
    }
    if (depth) {
        scan_error(sc, "unterminated object or array");
        return false;
    }
    if (sc->p == start) {
        scan_error(sc, "expected a value");
        return false;
    }
    return true;
}

static bool
parse_uuid(const char *s, size_t n, uint64_t *hi, uint64_t *lo)
{
    struct uuid u;
    if (!uuid_from_buffer(&u, s, n)) {
        return false;
    }
    *hi = (uint64_t) u.parts[0] << 32 | u.parts[1];
    *lo = (uint64_t) u.parts[2] << 32 | u.parts[3];
    return true;
}

/* ---- Datums (as JSON) and diffs. ---- */

enum datum_form { D_ATOM, D_SET, D_MAP };

/* The elements of a datum: a bare atom, ["set",[...]] or ["map",[...]]. */
static enum datum_form
datum_form(const struct json *j, const struct json **elems)
{
    if (json_get_type(j) == JSON_ARRAY && json_array_size(j) == 2
        && json_get_type(json_array_at(j, 0)) == JSON_STRING) {
        const char *tag = json_string(json_array_at(j, 0));
        const struct json *e = json_array_at(j, 1);
        if (json_get_type(e) == JSON_ARRAY) {
            if (!strcmp(tag, "set")) {
                *elems = e;
                return D_SET;
            }
            if (!strcmp(tag, "map")) {
                *elems = e;
                return D_MAP;
            }
        }
    }
    *elems = j;
    return D_ATOM;
}

/* Applies an OVSDB diff ("_is_diff") to the set or map value 'old' (NULL:
 * the column's default), with the semantics of datum_apply_diff().  Returns
 * the new value, or NULL with a malloc'd '*errorp'. */
static struct json *
apply_diff(const struct column_schema *c, const struct json *old,
           const struct json *diff, char **errorp)
{
    struct datum datum, change;

    if (old) {
        *errorp = datum_from_json(&datum, &c->type, old, true);
    } else {
        datum_init_default(&datum, &c->type);
    }
    if (*errorp) {
        return NULL;
    }
    *errorp = datum_from_json(&change, &c->type, diff, true);
    if (*errorp) {
        datum_destroy(&datum, &c->type);
        return NULL;
    }
    datum_apply_diff(&datum, &change, &c->type);
    struct json *value = datum_to_json(&datum, &c->type);
    datum_destroy(&datum, &c->type);
    return value;
}

/* Merges the columns of 'change' into the row text 'old'; returns new text
 * or NULL with '*errorp'. */
static char *
merge_row(const struct table_schema *t, const char *old, size_t old_len,
          const char *change, size_t change_len, bool is_diff, size_t *lenp,
          char **errorp)
{
    char *err = NULL;
    struct json *row = json_parse_buffer(old, old_len, &err);
    if (!row) {
        *errorp = err;
        return NULL;
    }
    struct json *ch = json_parse_buffer(change, change_len, &err);
    if (!ch) {
        json_destroy(row);
        *errorp = err;
        return NULL;
    }
    if (json_get_type(ch) != JSON_OBJECT) {
        json_destroy(row);
        json_destroy(ch);
        *errorp = xstrdup("row must be an object or null");
        return NULL;
    }
    struct json *merged = json_object_create();
    struct shash_node *node;
    SHASH_FOR_EACH (node, json_object(row)) {
        json_object_put(merged, node->name, json_clone(node->data));
    }
    SHASH_FOR_EACH (node, json_object(ch)) {
        int ci = table_schema_column_index(t, node->name);
        if (ci < 0) {
            *errorp = xasprintf("table %s has no column \"%s\"", t->name,
                                node->name);
            json_destroy(merged);
            json_destroy(row);
            json_destroy(ch);
            return NULL;
        }
        const struct column_schema *c = t->columns[ci];
        struct json *value;
        if (is_diff && !ovsdb_type_is_scalar(&c->type)) {
            value = apply_diff(c, json_object_get(row, node->name),
                               node->data, &err);
            if (!value) {
                *errorp = xasprintf("table %s, column %s: %s", t->name,
                                    c->name, err);
                free(err);
                json_destroy(merged);
                json_destroy(row);
                json_destroy(ch);
                return NULL;
            }
        } else {
            value = json_clone(node->data);
        }
        json_object_put(merged, node->name, value);
    }
    struct ds text = DS_EMPTY_INITIALIZER;
    json_to_ds(merged, 0, &text);
    json_destroy(merged);
    json_destroy(row);
    json_destroy(ch);
    *lenp = text.length;
    return ds_steal_cstr(&text);
}

/* ---- Applying records. ---- */

struct stats_ctx {
    const char *file;
    struct db_schema *schema;
    struct row_store store;
    uint64_t n_records, n_txns, n_inserts, n_modifies, n_deletes;
};

static bool
apply_table(struct stats_ctx *ctx, struct scan *sc, int ti, bool is_diff)
{
    const struct table_schema *t = ctx->schema->tables[ti];
    if (!expect_char(sc, '{')) {
        return false;
    }
    skip_ws(sc);
    if (sc->p < sc->end && *sc->p == '}') {
        sc->p++;
        return true;
    }
    for (;;) {
        const char *ks, *ke;
        if (!scan_string(sc, &ks, &ke) || !expect_char(sc, ':')) {
            return false;
        }
        uint64_t hi, lo;
        if (!parse_uuid(ks, ke - ks, &hi, &lo)) {
            sc->p = ks;
            scan_error(sc, "table %s: \"%.*s\" is not a UUID", t->name,
                       (int) (ke - ks > 40 ? 40 : ke - ks), ks);
            return false;
        }
        skip_ws(sc);
        const char *vs = sc->p;
        if (!skip_value(sc)) {
            return false;
        }
        size_t vlen = sc->p - vs;
        struct row *r = store_find(&ctx->store, ti, hi, lo);
        if (vlen == 4 && !memcmp(vs, "null", 4)) {
            if (!r->text) {
                sc->p = vs;
                scan_error(sc, "table %s: deletes row %.36s, which does "
                           "not exist", t->name, ks);
                return false;
            }
            row_set_text(r, NULL, 0, false);
            ctx->n_deletes++;
        } else if (*vs != '{') {
            sc->p = vs;
            scan_error(sc, "table %s, row %.36s: expected an object or null",
                       t->name, ks);
            return false;
        } else if (!r->text) {
            if (vlen > UINT32_MAX) {
                scan_error(sc, "row too large");
                return false;
            }
            row_set_text(r, vs, vlen, false);
            r->record = sc->record;
            ctx->n_inserts++;
        } else {
            char *err = NULL;
            size_t len;
            char *text = merge_row(t, r->text, r->len, vs, vlen, is_diff,
                                   &len, &err);
            if (!text) {
                sc->p = vs;
                scan_error(sc, "table %s, row %.36s: %s", t->name, ks, err);
                free(err);
                return false;
            }
            row_set_text(r, text, len, true);
            r->record = sc->record;
            ctx->n_modifies++;
        }
        skip_ws(sc);
        if (sc->p < sc->end && *sc->p == ',') {
            sc->p++;
            continue;
        }
        return expect_char(sc, '}');
    }
}

struct span {
    const char *key, *key_end;
    const char *value;
};

static bool
apply_txn(struct stats_ctx *ctx, const struct mapped_record *rec,
          char **errorp)
{
    struct scan sc = {
        .file = ctx->file, .record = rec->index, .base = rec->body,
        .base_offset = rec->body_offset, .p = rec->body,
        .end = rec->body + rec->length,
    };
    /* First pass: the members, since "_is_diff" may come last. */
    struct span *spans = NULL;
    size_t n = 0, allocated = 0;
    bool is_diff = false;
    if (expect_char(&sc, '{')) {
        skip_ws(&sc);
        if (sc.p < sc.end && *sc.p == '}') {
            sc.p++;
        } else {
            for (;;) {
                struct span s;
                if (!scan_string(&sc, &s.key, &s.key_end)
                    || !expect_char(&sc, ':')) {
                    break;
                }
                skip_ws(&sc);
                s.value = sc.p;
                if (!skip_value(&sc)) {
                    break;
                }
                size_t klen = s.key_end - s.key;
                if (klen == 8 && !memcmp(s.key, "_is_diff", 8)) {
                    is_diff = sc.p - s.value == 4
                              && !memcmp(s.value, "true", 4);
                } else if (klen && s.key[0] != '_') {
                    if (n >= allocated) {
                        allocated = allocated ? allocated * 2 : 8;
                        spans = xrealloc(spans, allocated * sizeof *spans);
                    }
                    spans[n++] = s;
                }
                skip_ws(&sc);
                if (sc.p < sc.end && *sc.p == ',') {
                    sc.p++;
                    continue;
                }
                expect_char(&sc, '}');
                break;
            }
        }
        skip_ws(&sc);
        if (!sc.error && sc.p != sc.end) {
            scan_error(&sc, "unexpected text after the transaction");
        }
    }
    for (size_t i = 0; i < n && !sc.error; i++) {
        char *name = xmemdup0(spans[i].key, spans[i].key_end - spans[i].key);
        int ti = db_schema_table_index(ctx->schema, name);
        if (ti < 0) {
            sc.p = spans[i].key;
            scan_error(&sc, "no table \"%s\" in schema %s", name,
                       ctx->schema->name);
        } else {
            sc.p = spans[i].value;
            apply_table(ctx, &sc, ti, is_diff);
        }
        free(name);
    }
    free(spans);
    if (sc.error) {
        *errorp = sc.error;
        return false;
    }
    ctx->n_txns++;
    return true;
}

/* ---- Counting. ---- */

#define N_LEN_BUCKETS 7
static const char *const len_bucket_names[N_LEN_BUCKETS] = {
    "0-7", "8-15", "16-23", "24-35", "36", "37-63", "64+"
};

static int
len_bucket(size_t n)
{
    return n <= 7 ? 0 : n <= 15 ? 1 : n <= 23 ? 2 : n <= 35 ? 3
           : n == 36 ? 4 : n <= 63 ? 5 : 6;
}

#define N_SIZE_BUCKETS 10
static const char *const size_bucket_names[N_SIZE_BUCKETS] = {
    "0", "1", "2", "3-4", "5-8", "9-16", "17-32", "33-49", "50-99", "100+"
};

static int
size_bucket(size_t n)
{
    return n == 0 ? 0 : n == 1 ? 1 : n == 2 ? 2 : n <= 4 ? 3 : n <= 8 ? 4
           : n <= 16 ? 5 : n <= 32 ? 6 : n <= 49 ? 7 : n <= 99 ? 8 : 9;
}

struct hash_set {
    uint64_t *slots;
    size_t mask, n;
};

static void
hash_set_add(struct hash_set *s, uint64_t v)
{
    v = v ? v : 1;
    if ((s->n + 1) * 2 > s->mask + 1) {
        struct hash_set b = { .mask = s->mask ? s->mask * 2 + 1 : 4095 };
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
            return;
        }
    }
    s->slots[h] = v;
    s->n++;
}

struct counts {
    uint64_t *rows, *atoms, *bytes;         /* Per table. */
    uint64_t by_type[N_ATOMIC_TYPES];
    uint64_t len_hist[N_LEN_BUCKETS];
    uint64_t strings, string_bytes, short_strings;
    struct hash_set distinct;
    uint64_t set_sizes[N_SIZE_BUCKETS], map_sizes[N_SIZE_BUCKETS];
    uint64_t max_set, max_map;
};

static uint64_t
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

static void
count_string(struct counts *c, const char *s)
{
    size_t n = strlen(s);
    c->strings++;
    c->string_bytes += n;
    c->len_hist[len_bucket(n)]++;
    c->short_strings += n <= 23;
    hash_set_add(&c->distinct, hash_bytes64(s, n));
}

static bool
count_atom(struct counts *c, enum atomic_type type, const struct json *a)
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
    c->by_type[type]++;
    return true;
}

/* Counts one row; returns an error message or NULL. */
static char *
count_row(struct counts *c, const struct table_schema *t, int ti,
          const struct row *r)
{
    char *err = NULL;
    struct json *row = json_parse_buffer(r->text, r->len, &err);
    if (!row) {
        return err;
    }
    if (json_get_type(row) != JSON_OBJECT) {
        json_destroy(row);
        return xstrdup("row is not an object");
    }
    uint64_t atoms = 2;                 /* _uuid and _version. */
    c->by_type[ATOMIC_UUID] += 2;
    struct shash_node *node;
    SHASH_FOR_EACH (node, json_object(row)) {
        if (table_schema_column_index(t, node->name) < 0) {
            /* The message first: the name lives in 'row'. */
            char *error = xasprintf("table %s has no column \"%s\"",
                                    t->name, node->name);
            json_destroy(row);
            return error;
        }
    }
    for (size_t ci = 0; ci < t->n_columns; ci++) {
        const struct column_schema *col = t->columns[ci];
        const struct json *v = json_object_get(row, col->name);
        if (!v) {
            if (ovsdb_type_is_scalar(&col->type)) {
                /* The default atom: "", 0, false, 0.0 or the zero UUID. */
                atoms++;
                c->by_type[col->type.key.type]++;
                if (col->type.key.type == ATOMIC_STRING) {
                    count_string(c, "");
                }
            } else if (ovsdb_type_is_map(&col->type)) {
                c->map_sizes[0]++;
            } else {
                c->set_sizes[0]++;
            }
            continue;
        }
        const struct json *elems;
        enum datum_form f = datum_form(v, &elems);
        size_t n = f == D_ATOM ? 1 : json_array_size(elems);
        bool ok = true;
        if (ovsdb_type_is_map(&col->type)) {
            ok = f == D_MAP;
            for (size_t i = 0; ok && i < n; i++) {
                const struct json *pair = json_array_at(elems, i);
                ok = json_get_type(pair) == JSON_ARRAY
                     && json_array_size(pair) == 2
                     && count_atom(c, col->type.key.type,
                                   json_array_at(pair, 0))
                     && count_atom(c, col->type.value.type,
                                   json_array_at(pair, 1));
            }
            atoms += 2 * n;
            c->map_sizes[size_bucket(n)]++;
            c->max_map = n > c->max_map ? n : c->max_map;
        } else {
            ok = f != D_MAP && (f == D_SET || n == 1);
            for (size_t i = 0; ok && i < n; i++) {
                ok = count_atom(c, col->type.key.type, f == D_ATOM
                                ? elems : json_array_at(elems, i));
            }
            atoms += n;
            if (!ovsdb_type_is_scalar(&col->type)) {
                c->set_sizes[size_bucket(n)]++;
                c->max_set = n > c->max_set ? n : c->max_set;
            }
        }
        if (!ok) {
            json_destroy(row);
            return xasprintf("table %s, column %s: value does not match "
                             "the column type", t->name, col->name);
        }
    }
    json_destroy(row);
    c->atoms[ti] += atoms;
    c->rows[ti]++;
    c->bytes[ti] += r->len;
    return NULL;
}

/* ---- Output. ---- */

static double
pct(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * part / whole : 0.0;
}

static void
print_text(const struct stats_ctx *ctx, const struct counts *c,
           uint64_t file_size)
{
    const struct db_schema *s = ctx->schema;
    uint64_t rows = 0, atoms = 0;
    printf("file: %s (%"PRIu64" bytes, %"PRIu64" records, %"PRIu64
           " transactions)\n", ctx->file, file_size, ctx->n_records,
           ctx->n_txns);
    printf("schema: %s %s\n", s->name, s->version);
    printf("applied: %"PRIu64" inserts, %"PRIu64" modifies, %"PRIu64
           " deletes\n\n", ctx->n_inserts, ctx->n_modifies, ctx->n_deletes);
    printf("%-32s %12s %14s %14s\n", "table", "rows", "atoms",
           "row bytes");
    for (size_t t = 0; t < s->n_tables; t++) {
        if (c->rows[t]) {
            printf("%-32s %12"PRIu64" %14"PRIu64" %14"PRIu64"\n",
                   s->tables[t]->name, c->rows[t], c->atoms[t], c->bytes[t]);
            rows += c->rows[t];
            atoms += c->atoms[t];
        }
    }
    printf("%-32s %12"PRIu64" %14"PRIu64"\n\n", "total", rows, atoms);
    printf("atoms by type:");
    for (int t = ATOMIC_INTEGER; t < N_ATOMIC_TYPES; t++) {
        printf("  %s %"PRIu64" (%.1f%%)", atomic_type_to_string(t),
               c->by_type[t], pct(c->by_type[t], atoms));
    }
    printf("\n  (uuid includes 2 per row for _uuid and _version: "
           "%.1f%% without them)\n", pct(c->by_type[ATOMIC_UUID] - 2 * rows,
                                         atoms - 2 * rows));
    printf("\nstrings: %"PRIu64", %"PRIu64" distinct (%.1f%%), mean length "
           "%.1f, <= 23 bytes: %.1f%%\n", c->strings, (uint64_t) c->distinct.n,
           pct(c->distinct.n, c->strings),
           c->strings ? (double) c->string_bytes / c->strings : 0.0,
           pct(c->short_strings, c->strings));
    printf("string length (bytes):");
    for (int b = 0; b < N_LEN_BUCKETS; b++) {
        printf("  %s: %.1f%%", len_bucket_names[b],
               pct(c->len_hist[b], c->strings));
    }
    uint64_t sets = 0, maps = 0;
    for (int b = 1; b < N_SIZE_BUCKETS; b++) {
        sets += c->set_sizes[b];
        maps += c->map_sizes[b];
    }
    printf("\n\nset sizes (%"PRIu64" non-empty of %"PRIu64"; %% of "
           "non-empty; max %"PRIu64"):\n ", sets, sets + c->set_sizes[0],
           c->max_set);
    for (int b = 1; b < N_SIZE_BUCKETS; b++) {
        printf(" %s: %.1f%%", size_bucket_names[b],
               pct(c->set_sizes[b], sets));
    }
    printf("\nmap sizes (%"PRIu64" non-empty of %"PRIu64"; %% of "
           "non-empty; max %"PRIu64"):\n ", maps, maps + c->map_sizes[0],
           c->max_map);
    for (int b = 1; b < N_SIZE_BUCKETS; b++) {
        printf(" %s: %.1f%%", size_bucket_names[b],
               pct(c->map_sizes[b], maps));
    }
    printf("\n");
}

static void
json_key(struct ds *d, const char *name)
{
    json_string_escape(name, d);
    ds_put_cstr(d, ": ");
}

static void
print_json(const struct stats_ctx *ctx, const struct counts *c,
           uint64_t file_size)
{
    const struct db_schema *s = ctx->schema;
    struct ds d = DS_EMPTY_INITIALIZER;
    uint64_t rows = 0, atoms = 0;
    ds_put_cstr(&d, "{\n  ");
    json_key(&d, "file");
    json_string_escape(ctx->file, &d);
    ds_put_format(&d, ",\n  \"bytes\": %"PRIu64",\n  \"records\": %"PRIu64
                  ",\n  \"transactions\": %"PRIu64",\n", file_size,
                  ctx->n_records, ctx->n_txns);
    ds_put_cstr(&d, "  \"schema\": ");
    json_string_escape(s->name, &d);
    ds_put_cstr(&d, ",\n  \"schema_version\": ");
    json_string_escape(s->version, &d);
    ds_put_format(&d, ",\n  \"inserts\": %"PRIu64", \"modifies\": %"PRIu64
                  ", \"deletes\": %"PRIu64",\n", ctx->n_inserts,
                  ctx->n_modifies, ctx->n_deletes);
    for (int pass = 0; pass < 3; pass++) {
        static const char *const names[] = { "rows", "atoms", "row_bytes" };
        const uint64_t *v = pass == 0 ? c->rows : pass == 1 ? c->atoms
                            : c->bytes;
        ds_put_format(&d, "  \"%s\": {", names[pass]);
        bool first = true;
        for (size_t t = 0; t < s->n_tables; t++) {
            if (c->rows[t]) {
                ds_put_cstr(&d, first ? "\n    " : ",\n    ");
                json_key(&d, s->tables[t]->name);
                ds_put_format(&d, "%"PRIu64, v[t]);
                if (pass == 1) {
                    atoms += c->atoms[t];
                } else if (pass == 0) {
                    rows += c->rows[t];
                }
                first = false;
            }
        }
        ds_put_cstr(&d, "\n  },\n");
    }
    ds_put_format(&d, "  \"rows_total\": %"PRIu64",\n  \"atoms_total\": "
                  "%"PRIu64",\n  \"atoms_by_type\": {", rows, atoms);
    for (int t = ATOMIC_INTEGER; t < N_ATOMIC_TYPES; t++) {
        ds_put_format(&d, "%s\"%s\": %"PRIu64, t == ATOMIC_INTEGER ? "" : ", ",
                      atomic_type_to_string(t), c->by_type[t]);
    }
    ds_put_format(&d, "},\n  \"strings\": %"PRIu64",\n  \"strings_distinct\": "
                  "%"PRIu64",\n  \"string_bytes\": %"PRIu64",\n"
                  "  \"strings_le_23\": %"PRIu64",\n  \"string_length\": {",
                  c->strings, (uint64_t) c->distinct.n, c->string_bytes,
                  c->short_strings);
    for (int b = 0; b < N_LEN_BUCKETS; b++) {
        ds_put_format(&d, "%s\"%s\": %"PRIu64, b ? ", " : "",
                      len_bucket_names[b], c->len_hist[b]);
    }
    for (int pass = 0; pass < 2; pass++) {
        const uint64_t *h = pass ? c->map_sizes : c->set_sizes;
        ds_put_format(&d, "},\n  \"%s_sizes\": {", pass ? "map" : "set");
        for (int b = 0; b < N_SIZE_BUCKETS; b++) {
            ds_put_format(&d, "%s\"%s\": %"PRIu64, b ? ", " : "",
                          size_bucket_names[b], h[b]);
        }
    }
    ds_put_format(&d, "},\n  \"max_set_size\": %"PRIu64",\n  \"max_map_size\":"
                  " %"PRIu64"\n}\n", c->max_set, c->max_map);
    fwrite(d.string, 1, d.length, stdout);
    ds_destroy(&d);
}

static void
usage(void)
{
    printf("\
usage: ovsdb-stats [--json] FILE\n\
Reads an OVSDB standalone database file (any schema, snapshot or log),\n\
applies every record, and prints rows and atoms per table, atoms by type,\n\
string-length histogram, distinct strings, and set/map size distributions.\n\
Atoms count as in OVSDB: 1 per scalar or set element, 2 per map pair,\n\
including _uuid, _version and default values.\n\
\n\
  --json      machine-readable output\n\
  -h, --help  this help\n");
}

/* Returns whether --json was given; exits on a usage error. */
static bool
parse_options(int argc, char *argv[])
{
    static const struct option options[] = {
        { "json", no_argument, NULL, 'j' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    bool as_json = false;
    opterr = 0;                 /* One message of our own, naming it. */
    for (;;) {
        int c = getopt_long(argc, argv, "h", options, NULL);
        if (c == -1) {
            break;
        }
        switch (c) {
        case 'j': as_json = true; break;
        case 'h': usage(); exit(0);
        default:
            if (optopt) {
                fprintf(stderr, "ovsdb-stats: unknown option -%c (use "
                        "--help)\n", optopt);
            } else {
                fprintf(stderr, "ovsdb-stats: unknown option %s (use "
                        "--help)\n", argv[optind - 1]);
            }
            exit(2);
        }
    }
    if (argc - optind != 1) {
        fprintf(stderr, "ovsdb-stats: expected one FILE (use --help)\n");
        exit(2);
    }
    return as_json;
}

/* The schema record. */
static void
read_schema(struct stats_ctx *ctx, const struct mapped_record *rec)
{
    char *error = NULL;
    struct json *j = json_parse_buffer(rec->body, rec->length, &error);
    if (!j) {
        ovs_fatal(0, "%s: record 0 at byte offset %zu: invalid JSON: %s",
                  ctx->file, rec->body_offset, error);
    }
    error = db_schema_from_json(j, &ctx->schema);
    json_destroy(j);
    if (error) {
        ovs_fatal(0, "%s: record 0 at byte offset %zu: invalid schema: %s",
                  ctx->file, rec->body_offset, error);
    }
}

/* Applies every record of 'f' to the row store. */
static void
read_records(struct stats_ctx *ctx, struct mapped_reader *f)
{
    struct mapped_record rec;
    char *error;
    int r;

    while ((r = mapped_reader_next(f, &rec, &error)) > 0) {
        ctx->n_records++;
        if (rec.index == 0) {
            read_schema(ctx, &rec);
        } else if (!apply_txn(ctx, &rec, &error)) {
            ovs_fatal(0, "%s", error);
        }
    }
    if (r < 0) {
        ovs_fatal(0, "%s", error);
    }
}

/* Counts each live row once. */
static void
count_rows(const struct stats_ctx *ctx, const struct mapped_reader *f,
           struct counts *c)
{
    size_t nt = ctx->schema->n_tables;
    c->rows = xcalloc(nt, sizeof *c->rows);
    c->atoms = xcalloc(nt, sizeof *c->atoms);
    c->bytes = xcalloc(nt, sizeof *c->bytes);
    for (size_t i = 0; i < ctx->store.n; i++) {
        const struct row *row = &ctx->store.rows[i];
        if (!row->text) {
            continue;
        }
        char *cerr = count_row(c, ctx->schema->tables[row->table],
                               row->table, row);
        if (cerr && row->owned) {
            /* Merged from several records: no one offset. */
            ovs_fatal(0, "%s: record %"PRIu32" (last change of a %s row): "
                      "%s", ctx->file, row->record,
                      ctx->schema->tables[row->table]->name, cerr);
        } else if (cerr) {
            ovs_fatal(0, "%s: record %"PRIu32", %s row at byte offset %zu: "
                      "%s", ctx->file, row->record,
                      ctx->schema->tables[row->table]->name,
                      (size_t) (row->text - f->data), cerr);
        }
    }
}

int
main(int argc, char *argv[])
{
    bool as_json = parse_options(argc, argv);
    const char *file_name = argv[optind];
    struct mapped_reader f;
    char *err = mapped_reader_open(&f, file_name);
    if (err) {
        ovs_fatal(0, "%s", err);
    }
    struct stats_ctx ctx = { .file = file_name };
    read_records(&ctx, &f);

    struct counts c = { 0 };
    count_rows(&ctx, &f, &c);
    if (as_json) {
        print_json(&ctx, &c, f.size);
    } else {
        print_text(&ctx, &c, f.size);
    }

    for (size_t i = 0; i < ctx.store.n; i++) {
        row_set_text(&ctx.store.rows[i], NULL, 0, false);
    }
    free(ctx.store.rows);
    free(ctx.store.slots);
    free(c.rows);
    free(c.atoms);
    free(c.bytes);
    free(c.distinct.slots);
    db_schema_destroy(ctx.schema);
    mapped_reader_close(&f);
    if (fflush(stdout) || ferror(stdout)) {
        ovs_fatal(errno, "standard output: write error");
    }
    return 0;
}
