/* The in-memory database model: tables, rows keyed by UUID, and the
 * operations the workloads apply to them (insert, modify, delete, lookup). */
#include "server/db.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "server/row-version.h"
#include "server/txn.h"
#include "util.h"

enum db_model db_model = DB_MODEL_FULL;
enum datum_copy datum_copy = DATUM_COPY_LAZY;
enum ref_columns ref_columns = REF_COLUMNS_REFS;
size_t n_weak_refs;

const char *const db_model_names[2] = { "full", "json-only" };
const char *const datum_copy_names[2] = { "lazy", "deep" };
const char *const ref_columns_names[2] = { "refs", "all" };

struct db *
db_create(struct db_schema *schema)
{
    struct db *db = xcalloc_as(XALLOC_MODEL, 1, sizeof *db);

    db->schema = schema;
    db->tables = xcalloc_as(XALLOC_MODEL,
                            schema->n_tables ? schema->n_tables : 1,
                            sizeof *db->tables);
    for (unsigned int i = 0; i < schema->n_tables; i++) {
        struct table *t = &db->tables[i];
        t->schema = schema->tables[i];
        t->mask = 0;
        t->buckets = xcalloc_as(XALLOC_INDEX, 1, sizeof *t->buckets);
        if (db_model == DB_MODEL_FULL && t->schema->n_indexes) {
            t->indexes = xmalloc(t->schema->n_indexes * sizeof *t->indexes);
            for (unsigned int j = 0; j < t->schema->n_indexes; j++) {
                hmap_init(&t->indexes[j]);
            }
        }
    }
    return db;
}

void
db_destroy(struct db *db)
{
    if (!db) {
        return;
    }
    /* What a clustered load keeps shares the rows' datums. */
    db_storage_destroy(db->storage);
    for (unsigned int i = 0; i < db->schema->n_tables; i++) {
        struct table *t = &db->tables[i];
        for (size_t b = 0; b <= t->mask; b++) {
            for (struct row *r = t->buckets[b], *next; r; r = next) {
                next = r->next;
                row_destroy(r, t->schema);
            }
        }
        xfree(t->buckets);
        if (t->indexes) {
            for (unsigned int j = 0; j < t->schema->n_indexes; j++) {
                hmap_destroy(&t->indexes[j]);
            }
            xfree(t->indexes);
        }
    }
    xfree(db->tables);
    db_schema_destroy(db->schema);
    xfree(db);
    string_pool_sweep();
}

size_t
db_n_rows(const struct db *db)
{
    size_t n = 0;
    for (unsigned int i = 0; i < db->schema->n_tables; i++) {
        n += db->tables[i].n_rows;
    }
    return n;
}

struct table *
db_find_table(struct db *db, const char *name)
{
    const struct table_schema *ts = db_schema_find_table(db->schema, name);
    return ts ? &db->tables[ts->index] : NULL;
}

bool row_uuid_datums = true;

static bool
row_has_uuid_datums(void)
{
    return db_model == DB_MODEL_FULL && row_uuid_datums;
}

struct row *
table_find_row(const struct table *t, const struct uuid *uuid)
{
    struct row *r = t->buckets[uuid_hash(uuid) & t->mask];

    if (row_has_uuid_datums()) {
        /* As ovsdb_table_get_row(): each candidate's UUID is read through
         * its _uuid datum, one more dependent load. */
        for (; r; r = r->next) {
            if (uuid_equals(&row_ovs(r)->uuid_key->uuid, uuid)) {
                return r;
            }
        }
        return NULL;
    }
    for (; r; r = r->next) {
        if (uuid_equals(&r->uuid, uuid)) {
            return r;
        }
    }
    return NULL;
}

static void
table_expand(struct table *t)
{
    size_t new_mask = t->mask * 2 + 1;
    struct row **buckets = xcalloc_as(XALLOC_INDEX, new_mask + 1,
                                      sizeof *buckets);  /* UUID index. */

    for (size_t b = 0; b <= t->mask; b++) {
        for (struct row *r = t->buckets[b], *next; r; r = next) {
            next = r->next;
            size_t nb = uuid_hash(&r->uuid) & new_mask;
            r->next = buckets[nb];
            buckets[nb] = r;
        }
    }
    xfree(t->buckets);
    t->buckets = buckets;
    t->mask = new_mask;
}

/* Allocates a row of 'ts' in the current model, with undefined fields and
 * _version. */
static struct row *
row_alloc(const struct table_schema *ts)
{
    size_t fields = sizeof(struct row) + ts->n_columns * sizeof(struct datum);
    enum xalloc_category old = xalloc_category_set(XALLOC_MODEL);
    struct row *r;

    if (db_model == DB_MODEL_FULL) {
        size_t tail = (row_n_refcnts(ts) * sizeof(unsigned int *)
                       + ts->n_indexes * sizeof(struct hmap_node));
        size_t size = sizeof(struct row_ovs) + fields + tail;
        if (!row_uuid_datums) {
            /* The _version atom inline, after the index nodes. */
            size += sizeof(union atom);
        }
        struct row_ovs *ro = xmalloc(size);
        ro->table = NULL;
        ro->txn_row = NULL;
        hmap_init(&ro->dst_refs);
        ro->n_refs = 0;
        r = (struct row *) (ro + 1);
        if (row_uuid_datums) {
            ro->uuid_key = xmalloc(sizeof *ro->uuid_key);
            ro->version_key = xmalloc(sizeof *ro->version_key);
        } else {
            ro->uuid_key = NULL;
            ro->version_key = (union atom *) (void *) ((char *) r + fields
                                                       + tail);
        }
        memset(row_refcnts(r, ts), 0,
               row_n_refcnts(ts) * sizeof(unsigned int *));
    } else {
        r = xmalloc(fields);
    }
    xalloc_category_set(old);
    r->next = NULL;
    return r;
}

/* A new row: 'uuid', default values and, in the full model, the all-zero
 * _version that the commit of its insert replaces. */
struct row *
row_create(const struct table_schema *ts, const struct uuid *uuid)
{
    struct row *r = row_alloc(ts);

    r->uuid = *uuid;
    if (db_model == DB_MODEL_FULL) {
        if (row_uuid_datums) {
            row_ovs(r)->uuid_key->uuid = *uuid;
        }
        memset(&row_ovs(r)->version_key->uuid, 0, sizeof(struct uuid));
    }
    for (unsigned int i = 0; i < ts->n_columns; i++) {
        datum_init_default(&r->fields[i], &ts->columns[i]->type);
    }
    return r;
}

void
row_field_release(struct row *r, const struct table_schema *ts,
                  unsigned int i)
{
    if (db_model == DB_MODEL_FULL && datum_copy == DATUM_COPY_LAZY) {
        unsigned int **refcnt = &row_refcnts(r, ts)[i];
        if (*refcnt) {
            /* Shared: the last copy released frees the atoms. */
            shared_datum_release(&r->fields[i], *refcnt,
                                 &ts->columns[i]->type);
            *refcnt = NULL;
        } else {
            datum_destroy(&r->fields[i], &ts->columns[i]->type);
        }
    } else {
        datum_destroy(&r->fields[i], &ts->columns[i]->type);
    }
}

void
row_field_share(struct row *r, const struct table_schema *ts, unsigned int i,
                struct datum *dst, unsigned int **refcnt)
{
    if (datum_copy == DATUM_COPY_DEEP) {
        enum xalloc_category old = xalloc_category_set(XALLOC_MODEL);
        datum_clone(dst, &r->fields[i], &ts->columns[i]->type);
        xalloc_category_set(old);
        *refcnt = NULL;
        return;
    }
    unsigned int **rc = &row_refcnts(r, ts)[i];
    if (!*rc) {
        *rc = xmalloc_as(XALLOC_MODEL, sizeof **rc);
        **rc = 1;
    }
    (**rc)++;
    *dst = r->fields[i];
    *refcnt = *rc;
}

void
shared_datum_release(struct datum *d, unsigned int *refcnt,
                     const struct ovsdb_type *t)
{
    if (!refcnt) {
        datum_destroy(d, t);    /* DATUM_COPY_DEEP: a copy of its own. */
    } else if (!--*refcnt) {
        xfree(refcnt);
        datum_destroy(d, t);
    }
    datum_init_empty(d);
}

void
row_field_unshare(struct row *r, const struct table_schema *ts,
                  unsigned int i)
{
    if (db_model != DB_MODEL_FULL || datum_copy == DATUM_COPY_DEEP) {
        return;
    }
    unsigned int **refcnt = &row_refcnts(r, ts)[i];
    if (*refcnt && **refcnt > 1) {
        struct datum copy;
        enum xalloc_category old = xalloc_category_set(XALLOC_MODEL);
        datum_clone(&copy, &r->fields[i], &ts->columns[i]->type);
        xalloc_category_set(old);
        r->fields[i] = copy;
        --**refcnt;
        *refcnt = NULL;
    }
}

bool weak_refs_slim;

size_t
weak_ref_size(const struct ovsdb_type *t)
{
    return (!weak_refs_slim ? sizeof(struct weak_ref)
            : ovsdb_type_is_map(t) ? offsetof(struct weak_ref, dst)
            : offsetof(struct weak_ref, value));
}

void
weak_ref_destroy(struct weak_ref *w)
{
    const struct ovsdb_type *t = weak_ref_type(w);

    atom_destroy(&w->key, t->key.type);
    if (t->value.type != ATOMIC_VOID) {
        atom_destroy(&w->value, t->value.type);
    }
    if (!weak_refs_slim) {
        ovsdb_type_destroy(&w->type);
    }
    xfree(w);
    n_weak_refs--;
}

uint32_t
weak_ref_hash(const struct weak_ref *w)
{
    return uuid_hash(&w->src);
}

void
row_destroy(struct row *r, const struct table_schema *ts)
{
    if (!r) {
        return;
    }
    for (unsigned int i = 0; i < ts->n_columns; i++) {
        row_field_release(r, ts, i);
    }
    if (db_model == DB_MODEL_FULL) {
        struct row_ovs *ro = row_ovs(r);
        struct hmap_node *node, *next;
        for (node = hmap_first(&ro->dst_refs); node; node = next) {
            next = hmap_next(&ro->dst_refs, node);
            weak_ref_destroy(CONTAINER_OF(node, struct weak_ref, dst_node));
        }
        hmap_destroy(&ro->dst_refs);
        for (unsigned int i = ts->n_columns; i < row_n_refcnts(ts); i++) {
            /* The counts of _uuid and _version, with REF_COLUMNS_ALL. */
            xfree(row_refcnts(r, ts)[i]);
        }
        if (row_uuid_datums) {
            xfree(ro->uuid_key);
            xfree(ro->version_key);
        }
        xfree(ro);
    } else {
        xfree(r);
    }
}

/* Full model: 'dst' takes the _uuid and _version atoms of 'src'. */
static void
copy_uuid_datums(struct row *dst, const struct row *src)
{
    if (row_uuid_datums) {
        *row_ovs(dst)->uuid_key = *row_ovs(src)->uuid_key;
    }
    *row_ovs(dst)->version_key = *row_ovs(src)->version_key;
}

void
row_new_version(struct row *r)
{
    if (db_model == DB_MODEL_FULL) {
        row_version_generate(&row_ovs(r)->version_key->uuid);
    }
}

struct row *
row_clone(const struct row *src, const struct table_schema *ts)
{
    struct row *r = row_alloc(ts);

    r->uuid = src->uuid;
    enum xalloc_category old = xalloc_category_set(XALLOC_MODEL);
    for (unsigned int i = 0; i < ts->n_columns; i++) {
        datum_clone(&r->fields[i], &src->fields[i], &ts->columns[i]->type);
    }
    xalloc_category_set(old);
    if (db_model == DB_MODEL_FULL) {
        row_ovs(r)->table = row_ovs(src)->table;
        copy_uuid_datums(r, src);
    }
    return r;
}

struct row *
row_clone_datums(const struct row *src_, const struct table_schema *ts)
{
    struct row *src = (struct row *) src_;
    struct row *r = row_alloc(ts);
    unsigned int **refcnts = row_refcnts(r, ts);

    r->uuid = src->uuid;
    row_ovs(r)->table = row_ovs(src)->table;
    copy_uuid_datums(r, src);
    for (unsigned int i = 0; i < ts->n_columns; i++) {
        unsigned int *unused;
        row_field_share(src, ts, i, &r->fields[i],
                        datum_copy == DATUM_COPY_LAZY ? &refcnts[i] : &unused);
    }
    return r;
}

struct row *
row_clone_shared(const struct row *src_, const struct table_schema *ts)
{
    struct row *src = (struct row *) src_;
    struct row *r = row_clone_datums(src_, ts);

    struct hmap *dst_refs = &row_ovs(src)->dst_refs;
    for (struct hmap_node *node = hmap_first(dst_refs); node;
         node = hmap_next(dst_refs, node)) {
        struct weak_ref *w = weak_ref_clone(CONTAINER_OF(node, struct weak_ref,
                                                         dst_node));
        enum xalloc_category old = xalloc_category_set(XALLOC_INDEX);
        hmap_insert(&row_ovs(r)->dst_refs, &w->dst_node, weak_ref_hash(w));
        xalloc_category_set(old);
    }
    return r;
}

void
table_link_row(struct table *t, struct row *r)
{
    if (t->n_rows > t->mask) {
        table_expand(t);
    }
    size_t b = uuid_hash(&r->uuid) & t->mask;
    r->next = t->buckets[b];
    t->buckets[b] = r;
    t->n_rows++;
    if (db_model == DB_MODEL_FULL) {
        row_ovs(r)->table = t;
    }
}

struct row *
table_insert_row(struct table *t, const struct uuid *uuid)
{
    assert(!table_find_row(t, uuid));
    struct row *r = row_create(t->schema, uuid);
    table_link_row(t, r);
    return r;
}

static struct row **
table_find_slot(struct table *t, const struct row *row)
{
    struct row **p = &t->buckets[uuid_hash(&row->uuid) & t->mask];
    while (*p != row) {
        p = &(*p)->next;
    }
    return p;
}

void
table_unlink_row(struct table *t, struct row *row)
{
    struct row **p = table_find_slot(t, row);
    *p = row->next;
    row->next = NULL;
    t->n_rows--;
}

void
table_replace_row(struct table *t, struct row *old, struct row *new)
{
    struct row **p = table_find_slot(t, old);
    new->next = old->next;
    old->next = NULL;
    *p = new;
}

void
table_delete_row(struct table *t, struct row *row)
{
    table_unlink_row(t, row);
    row_destroy(row, t->schema);
}

static int
compare_rows(const void *a_, const void *b_)
{
    const struct row *const *a = a_;
    const struct row *const *b = b_;
    return uuid_compare(&(*a)->uuid, &(*b)->uuid);
}

struct row **
table_sorted_rows(const struct table *t)
{
    struct row **rows = xmalloc((t->n_rows ? t->n_rows : 1) * sizeof *rows);
    size_t n = 0;

    for (size_t b = 0; b <= t->mask; b++) {
        for (struct row *r = t->buckets[b]; r; r = r->next) {
            rows[n++] = r;
        }
    }
    qsort(rows, n, sizeof *rows, compare_rows);
    return rows;
}

bool db_converting;

char *
row_set_from_json(struct row *row, const struct table_schema *ts,
                  const struct json *json, bool is_diff)
{
    struct shash_node *node;

    SHASH_FOR_EACH (node, json_object(json)) {
        const struct column_schema *c = table_schema_find_column(ts,
                                                                 node->name);
        if (!c) {
            if (db_converting) {
                continue;
            }
            return xasprintf("no column \"%s\"", node->name);
        }
        /* As in OVS, only columns that may hold more than one element
         * carry diffs; for the others the "diff" is the new value. */
        bool diff = is_diff && c->type.n_max > 1;
        struct datum value;
        char *error = datum_from_json(&value, &c->type, node->data, diff);
        if (error) {
            char *e = xasprintf("column %s: %s", c->name, error);
            xfree(error);
            return e;
        }
        struct datum *field = &row->fields[c->index];
        if (diff) {
            row_field_unshare(row, ts, c->index);
            datum_apply_diff(field, &value, &c->type);
            error = datum_check_size(field, &c->type);
            if (error) {
                char *e = xasprintf("column %s: after diff: %s", c->name,
                                    error);
                xfree(error);
                return e;
            }
        } else {
            row_field_release(row, ts, c->index);
            *field = value;
        }
    }
    return NULL;
}

/* Applies the rows of one table of a record to 't' through 'ops'. */
static char *
table_apply_rows(struct table *t, const struct json *rows, bool is_diff,
                 const struct row_ops *ops, void *aux)
{
    struct shash_node *node;

    if (json_get_type(rows) != JSON_OBJECT) {
        return xasprintf("table %s: expected an object of rows",
                         t->schema->name);
    }
    SHASH_FOR_EACH (node, json_object(rows)) {
        struct uuid uuid;
        const struct json *rj = node->data;
        char *error = NULL;

        if (!uuid_from_string(&uuid, node->name)) {
            return xasprintf("table %s: \"%s\" is not a UUID",
                             t->schema->name, node->name);
        }
        struct row *row = table_find_row(t, &uuid);
        if (json_get_type(rj) == JSON_NULL) {
            if (!row) {
                error = xasprintf("deletes a row that does not exist");
            } else {
                ops->delete_row(aux, t, row);
            }
        } else if (json_get_type(rj) != JSON_OBJECT) {
            error = xasprintf("row must be an object or null");
        } else if (row) {
            row = ops->modify_row(aux, t, row);
            error = row_set_from_json(row, t->schema, rj, is_diff);
        } else {
            /* A new row is written whole, never as a diff against the
             * defaults. */
            row = row_create(t->schema, &uuid);
            error = row_set_from_json(row, t->schema, rj, false);
            if (error) {
                row_destroy(row, t->schema);
            } else {
                ops->insert_row(aux, t, row);
            }
        }
        if (error) {
            char *e = xasprintf("table %s row %s: %s", t->schema->name,
                                node->name, error);
            xfree(error);
            return e;
        }
    }
    return NULL;
}

char *
db_apply_rows(struct db *db, const struct json *json,
              const struct row_ops *ops, void *aux)
{
    const struct json *is_diff_json = json_object_get(json, "_is_diff");
    bool is_diff = is_diff_json && json_get_type(is_diff_json) == JSON_TRUE;

    struct shash_node *node;
    SHASH_FOR_EACH (node, json_object(json)) {
        if (!strcmp(node->name, "_date") || !strcmp(node->name, "_comment")
            || !strcmp(node->name, "_is_diff")) {
            continue;
        }
        struct table *t = db_find_table(db, node->name);
        if (!t && db_converting) {
            continue;
        }
        if (!t) {
            return xasprintf("no table \"%s\" in schema %s", node->name,
                             db->schema->name);
        }
        char *error = table_apply_rows(t, node->data, is_diff, ops, aux);
        if (error) {
            return error;
        }
    }
    return NULL;
}

/* The json-only model changes the table's rows in place. */
static void
plain_delete_row(void *aux OVS_UNUSED, struct table *t, struct row *row)
{
    table_delete_row(t, row);
}

static struct row *
plain_modify_row(void *aux OVS_UNUSED, struct table *t OVS_UNUSED,
                 struct row *row)
{
    return row;
}

static void
plain_insert_row(void *aux OVS_UNUSED, struct table *t, struct row *row)
{
    table_link_row(t, row);
}

static const struct row_ops plain_row_ops = {
    plain_delete_row, plain_modify_row, plain_insert_row,
};

char *
db_apply_record(struct db *db, const struct json *json)
{
    if (json_get_type(json) != JSON_OBJECT) {
        return xasprintf("transaction record must be a JSON object");
    }
    if (db_model == DB_MODEL_FULL) {
        return txn_apply_record(db, json);
    }
    char *error = db_apply_rows(db, json, &plain_row_ops, NULL);
    if (!error) {
        db->n_txns++;
    }
    return error;
}

struct json *
row_to_json(const struct row *row, const struct table_schema *ts,
            bool all_columns, bool with_uuid)
{
    struct json *obj = json_object_create();

    for (unsigned int i = 0; i < ts->n_columns; i++) {
        const struct column_schema *c = ts->columns[i];
        if (all_columns || !datum_is_default(&row->fields[i], &c->type)) {
            json_object_put(obj, c->name,
                            datum_to_json(&row->fields[i], &c->type));
        }
    }
    if (with_uuid) {
        union atom a = { .uuid = row->uuid };
        json_object_put(obj, "_uuid", atom_to_json(&a, ATOMIC_UUID));
        a.uuid = *row_version(row);
        json_object_put(obj, "_version", atom_to_json(&a, ATOMIC_UUID));
    }
    return obj;
}
