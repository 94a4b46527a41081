/* Loading an OVSDB standalone database file (snapshot or log, with or
 * without "_is_diff") for ovsdb-stats: the file is mapped and every live row
 * is kept as the span of its JSON text in the mapping (a modified row as new
 * text merged with the JSON API), so memory is about the file size plus ~50
 * bytes per row.  Errors name the file, the record and the byte offset, and
 * exit. */
#include "db-load.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ds.h"
#include "json.h"
#include "ovsdb/datum.h"
#include "ovsdb/rng.h"
#include "ovsdb/uuid.h"
#include "shash.h"
#include "util.h"

/* ---- Rows: (table, uuid) -> JSON text of the row object. ---- */

static size_t
row_hash(int table, uint64_t hi, uint64_t lo)
{
    return mix64(hi ^ mix64(lo + table));
}

static void
store_rehash(struct db_row_store *s)
{
    size_t n_slots = s->mask ? (s->mask + 1) * 2 : 1024;
    free(s->slots);
    s->slots = xcalloc(n_slots, sizeof *s->slots);
    s->mask = n_slots - 1;
    for (size_t i = 0; i < s->n; i++) {
        const struct db_row *r = &s->rows[i];
        size_t h = row_hash(r->table, r->uuid_hi, r->uuid_lo) & s->mask;
        while (s->slots[h]) {
            h = (h + 1) & s->mask;
        }
        s->slots[h] = i + 1;
    }
}

/* Finds the row, or creates an empty (deleted) one. */
static struct db_row *
store_find(struct db_row_store *s, int table, uint64_t hi, uint64_t lo)
{
    if (!s->mask || (s->n + 1) * 2 > s->mask + 1) {
        store_rehash(s);
    }
    size_t h = row_hash(table, hi, lo) & s->mask;
    for (; s->slots[h]; h = (h + 1) & s->mask) {
        struct db_row *r = &s->rows[s->slots[h] - 1];
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
    struct db_row *r = &s->rows[s->n++];
    *r = (struct db_row) { .uuid_hi = hi, .uuid_lo = lo, .table = table };
    return r;
}

static void
row_set_text(struct db_row *r, const char *text, size_t len, bool owned)
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

/* The elements of a datum: a bare atom, ["set",[...]] or ["map",[...]]. */
enum datum_form
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

static bool
apply_table(struct db_file *ctx, struct scan *sc, int ti, bool is_diff)
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
        struct db_row *r = store_find(&ctx->store, ti, hi, lo);
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
apply_txn(struct db_file *ctx, const struct mapped_record *rec,
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

/* The schema record. */
static void
read_schema(struct db_file *ctx, const struct mapped_record *rec)
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
read_records(struct db_file *ctx, struct mapped_reader *f)
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

void
db_file_load(struct db_file *db, const char *file_name)
{
    memset(db, 0, sizeof *db);
    db->file = file_name;
    char *err = mapped_reader_open(&db->f, file_name);
    if (err) {
        ovs_fatal(0, "%s", err);
    }
    read_records(db, &db->f);
    if (!db->schema) {
        ovs_fatal(0, "%s: no schema record", file_name);
    }
}

void
db_file_close(struct db_file *db)
{
    for (size_t i = 0; i < db->store.n; i++) {
        row_set_text(&db->store.rows[i], NULL, 0, false);
    }
    free(db->store.rows);
    free(db->store.slots);
    db_schema_destroy(db->schema);
    mapped_reader_close(&db->f);
    memset(db, 0, sizeof *db);
}

const struct db_row *
db_file_find(const struct db_file *db, int table, const struct json *atom)
{
    const struct db_row_store *s = &db->store;
    uint64_t hi, lo;

    if (json_get_type(atom) != JSON_ARRAY || json_array_size(atom) != 2
        || json_get_type(json_array_at(atom, 1)) != JSON_STRING || !s->mask) {
        return NULL;
    }
    const char *text = json_string(json_array_at(atom, 1));
    if (!parse_uuid(text, strlen(text), &hi, &lo)) {
        return NULL;
    }
    size_t h = row_hash(table, hi, lo) & s->mask;
    for (; s->slots[h]; h = (h + 1) & s->mask) {
        const struct db_row *r = &s->rows[s->slots[h] - 1];
        if (r->uuid_hi == hi && r->uuid_lo == lo && r->table == table) {
            return r->text ? r : NULL;
        }
    }
    return NULL;
}

void
db_file_row_fatal(const struct db_file *db, const struct db_row *row,
                  const char *msg)
{
    const char *table = db->schema->tables[row->table]->name;
    if (row->owned) {
        /* Merged from several records: no one offset. */
        ovs_fatal(0, "%s: record %"PRIu32" (last change of a %s row): %s",
                  db->file, row->record, table, msg);
    }
    ovs_fatal(0, "%s: record %"PRIu32", %s row at byte offset %zu: %s",
              db->file, row->record, table,
              (size_t) (row->text - db->f.data), msg);
}

struct json *
db_file_parse_row(const struct db_file *db, const struct db_row *row)
{
    char *err = NULL;
    struct json *j = json_parse_buffer(row->text, row->len, &err);
    if (!j) {
        db_file_row_fatal(db, row, err);
    }
    if (json_get_type(j) != JSON_OBJECT) {
        db_file_row_fatal(db, row, "row is not an object");
    }
    return j;
}
