/* The full model's "transact" request path (see transact.h). */
#include "transact.h"

#include <string.h>

#include "db.h"
#include "json.h"
#include "jsonrpc-reply.h"
#include "ovsdb/uuid.h"
#include "util.h"

/* One "update" operation, parsed and checked before anything changes (as
 * OVS parses the "row" into a scratch row first), so that applying it
 * cannot fail half-way. */
struct update_op {
    struct table *table;
    struct uuid uuid;               /* The row "where" names. */
    const struct column_schema **columns;
    struct datum *values;           /* Parsed new values, one per column. */
    size_t n;
};

static void
update_op_destroy(struct update_op *op)
{
    for (size_t i = 0; i < op->n; i++) {
        datum_destroy(&op->values[i], &op->columns[i]->type);
    }
    xfree(op->columns);
    xfree(op->values);
}

/* The UUID of a "where" that is exactly [["_uuid", "==", ["uuid", U]]]. */
static char *
where_uuid(const struct json *where, struct uuid *uuid)
{
    const struct json *cl, *arg;

    if (!where || json_get_type(where) != JSON_ARRAY
        || json_array_size(where) != 1
        || json_get_type(cl = json_array_at(where, 0)) != JSON_ARRAY
        || json_array_size(cl) != 3
        || json_get_type(json_array_at(cl, 0)) != JSON_STRING
        || strcmp(json_string(json_array_at(cl, 0)), "_uuid")
        || json_get_type(json_array_at(cl, 1)) != JSON_STRING
        || strcmp(json_string(json_array_at(cl, 1)), "==")
        || json_get_type(arg = json_array_at(cl, 2)) != JSON_ARRAY
        || json_array_size(arg) != 2
        || json_get_type(json_array_at(arg, 1)) != JSON_STRING) {
        return xstrdup("\"where\" is not [[\"_uuid\", \"==\", "
                       "[\"uuid\", U]]] (the only form supported)");
    }
    if (!uuid_from_string(uuid, json_string(json_array_at(arg, 1)))) {
        return xasprintf("\"where\": bad UUID \"%s\"",
                         json_string(json_array_at(arg, 1)));
    }
    return NULL;
}

static char *
parse_update(struct db *db, const struct json *op, struct update_op *u)
{
    const struct json *j = json_object_get(op, "op");

    memset(u, 0, sizeof *u);
    if (!j || json_get_type(j) != JSON_STRING
        || strcmp(json_string(j), "update")) {
        return xstrdup("\"op\" is not \"update\" (the only operation "
                       "supported)");
    }
    j = json_object_get(op, "table");
    if (!j || json_get_type(j) != JSON_STRING) {
        return xstrdup("no \"table\" string");
    }
    u->table = db_find_table(db, json_string(j));
    if (!u->table) {
        return xasprintf("no table \"%s\"", json_string(j));
    }
    const struct table_schema *ts = u->table->schema;
    char *error = where_uuid(json_object_get(op, "where"), &u->uuid);
    if (error) {
        return error;
    }
    const struct json *row = json_object_get(op, "row");
    if (!row || json_get_type(row) != JSON_OBJECT) {
        return xstrdup("no \"row\" object");
    }

    enum xalloc_category cat = xalloc_category_set(XALLOC_MODEL);
    size_t n = shash_count(json_object(row));
    u->columns = xmalloc((n ? n : 1) * sizeof *u->columns);
    u->values = xmalloc((n ? n : 1) * sizeof *u->values);
    xalloc_category_set(cat);

    struct shash_node *node;
    SHASH_FOR_EACH (node, json_object(row)) {
        const struct column_schema *c = table_schema_find_column(ts,
                                                                 node->name);
        if (!c) {
            return xasprintf("table %s has no column \"%s\"", ts->name,
                             node->name);
        }
        error = datum_from_json(&u->values[u->n], &c->type, node->data,
                                false);
        if (error) {
            char *e = xasprintf("column %s: %s", c->name, error);
            xfree(error);
            return e;
        }
        u->columns[u->n++] = c;
    }
    return NULL;
}

static char *
parse_request(const struct json *msg, const struct db *db,
              const struct json **params)
{
    const struct json *j;

    if (json_get_type(msg) != JSON_OBJECT
        || !(j = json_object_get(msg, "method"))
        || json_get_type(j) != JSON_STRING
        || strcmp(json_string(j), "transact")) {
        return xstrdup("not a JSON-RPC \"transact\" request");
    }
    if (!json_object_get(msg, "id")) {
        return xstrdup("request without \"id\"");
    }
    *params = json_object_get(msg, "params");
    if (!*params || json_get_type(*params) != JSON_ARRAY
        || !json_array_size(*params)
        || json_get_type(json_array_at(*params, 0)) != JSON_STRING) {
        return xstrdup("\"params\" is not [DB, OP...]");
    }
    const char *name = json_string(json_array_at(*params, 0));
    if (strcmp(name, db->schema->name)) {
        return xasprintf("unknown database \"%s\"", name);
    }
    return NULL;
}

char *
transact_run(struct db *db, const char *text, size_t n,
             txn_commit_cb *cb, void *aux, struct json **replyp)
{
    char *error = NULL;
    const struct json *params = NULL;
    struct json *msg = json_parse_buffer(text, n, &error);

    *replyp = NULL;
    if (!msg) {
        char *e = xasprintf("transact request: %s", error);
        xfree(error);
        return e;
    }
    error = parse_request(msg, db, &params);
    if (error) {
        goto out;
    }

    size_t n_ops = json_array_size(params) - 1;
    struct update_op *ops = xcalloc_as(XALLOC_MODEL, n_ops ? n_ops : 1,
                                       sizeof *ops);
    size_t i;
    for (i = 0; i < n_ops; i++) {
        error = parse_update(db, json_array_at(params, i + 1), &ops[i]);
        if (error) {
            char *e = xasprintf("transact operation %zu: %s", i, error);
            xfree(error);
            error = e;
            update_op_destroy(&ops[i]);
            break;
        }
    }

    if (!error) {
        /* Execute: each matched row becomes the transaction's writable
         * copy, which takes the new values; the commit gives the rows that
         * changed their new _version. */
        struct txn *txn = txn_create(db);
        struct json *results = json_array_create_empty();
        for (i = 0; i < n_ops; i++) {
            struct update_op *u = &ops[i];
            /* Looked up now: an earlier operation may have made the row
             * the transaction's copy. */
            struct row *row = table_find_row(u->table, &u->uuid);
            if (row) {
                const struct table_schema *ts = u->table->schema;
                row = txn_modify_row(txn, u->table, row);
                for (size_t k = 0; k < u->n; k++) {
                    unsigned int idx = u->columns[k]->index;
                    row_field_release(row, ts, idx);
                    row->fields[idx] = u->values[k];
                }
                u->n = 0;       /* The values now belong to the row. */
            }
            struct json *r = json_object_create();
            json_object_put(r, "count", json_integer_create(row ? 1 : 0));
            json_array_add(results, r);
        }
        error = txn_commit(txn, cb, aux);
        if (error) {
            json_destroy(results);
        } else {
            *replyp = jsonrpc_reply(json_clone(json_object_get(msg, "id")),
                                    results);
        }
    }
    for (size_t k = 0; k < i && k < n_ops; k++) {
        update_op_destroy(&ops[k]);
    }
    xfree(ops);

out:
    json_destroy(msg);
    return error;
}
