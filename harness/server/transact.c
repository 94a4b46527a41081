/* The full model's "transact" request path (see transact.h). */
#include "server/transact.h"

#include <string.h>

#include "server/condition.h"
#include "server/db.h"
#include "json.h"
#include "server/jsonrpc-reply.h"
#include "ovsdb/uuid.h"
#include "util.h"

/* One "update" operation, parsed and checked before anything changes, as
 * OVS executes it: the operation's members checked (each one known and
 * used), the "where" parsed as a condition, and the "row" parsed into a
 * scratch row of every column of the table, whose named columns are then
 * copied into each row the condition selects. */
struct update_op {
    struct table *table;
    struct condition where;
    struct row *scratch;            /* Every column, defaults but 'columns'. */
    const struct column_schema **columns;   /* The columns "row" names. */
    size_t n;
};

static void
update_op_destroy(struct update_op *op)
{
    if (op->table) {
        condition_destroy(&op->where);
        if (op->scratch) {
            row_destroy(op->scratch, op->table->schema);
        }
    }
    xfree(op->columns);
}

/* The members an "update" may have; any other is an error, as OVS's
 * parser reports members it did not use. */
static char *
check_members(const struct json *op)
{
    static const char *const known[] = { "op", "table", "where", "row" };
    struct shash_node *node;

    SHASH_FOR_EACH (node, json_object(op)) {
        size_t i;
        for (i = 0; i < ARRAY_SIZE(known); i++) {
            if (!strcmp(node->name, known[i])) {
                break;
            }
        }
        if (i == ARRAY_SIZE(known)) {
            return xasprintf("member \"%s\" is not allowed in an update",
                             node->name);
        }
    }
    return NULL;
}

static char *
parse_update(struct db *db, const struct json *op, struct update_op *u)
{
    memset(u, 0, sizeof *u);
    if (json_get_type(op) != JSON_OBJECT) {
        return xstrdup("not an object");
    }
    const struct json *j = json_object_get(op, "op");
    if (!j || json_get_type(j) != JSON_STRING
        || strcmp(json_string(j), "update")) {
        return xstrdup("\"op\" is not \"update\" (the only operation "
                       "supported)");
    }
    char *error = check_members(op);
    if (error) {
        return error;
    }
    j = json_object_get(op, "table");
    if (!j || json_get_type(j) != JSON_STRING) {
        return xstrdup("no \"table\" string");
    }
    struct table *table = db_find_table(db, json_string(j));
    if (!table) {
        return xasprintf("no table \"%s\"", json_string(j));
    }
    const struct table_schema *ts = table->schema;
    const struct json *where = json_object_get(op, "where");
    if (!where) {
        return xstrdup("no \"where\"");
    }
    error = condition_from_json(&u->where, ts, where, CONDITION_WHERE);
    if (error) {
        char *e = xasprintf("\"where\": %s", error);
        xfree(error);
        return e;
    }
    u->table = table;               /* From here on, destroy frees. */
    const struct json *row = json_object_get(op, "row");
    if (!row || json_get_type(row) != JSON_OBJECT) {
        return xstrdup("no \"row\" object");
    }

    enum xalloc_category cat = xalloc_category_set(XALLOC_MODEL);
    static const struct uuid no_uuid;
    u->scratch = row_create(ts, &no_uuid);
    size_t n = shash_count(json_object(row));
    u->columns = xmalloc((n ? n : 1) * sizeof *u->columns);
    xalloc_category_set(cat);

    struct shash_node *node;
    SHASH_FOR_EACH (node, json_object(row)) {
        const struct column_schema *c = table_schema_find_column(ts,
                                                                 node->name);
        if (!c) {
            return xasprintf("table %s has no column \"%s\"", ts->name,
                             node->name);
        }
        struct datum value;
        error = datum_from_json(&value, &c->type, node->data, false);
        if (error) {
            char *e = xasprintf("column %s: %s", c->name, error);
            xfree(error);
            return e;
        }
        datum_destroy(&u->scratch->fields[c->index], &c->type);
        u->scratch->fields[c->index] = value;
        u->columns[u->n++] = c;
    }
    return NULL;
}

/* The rows of 'u''s table that its "where" selects, as OVS's query finds
 * them: through the hash map when a clause names the row's UUID (then the
 * whole condition is tested on that row), else by testing every row.
 * Returns a malloc'd array of '*n' rows. */
static struct row **
query(const struct update_op *u, size_t *n)
{
    const struct uuid *uuid = condition_uuid_eq(&u->where);
    struct row **rows;

    *n = 0;
    if (uuid) {
        rows = xmalloc(sizeof *rows);
        struct row *row = table_find_row(u->table, uuid);
        if (row && condition_matches(&u->where, row)) {
            rows[(*n)++] = row;
        }
        return rows;
    }
    rows = table_sorted_rows(u->table);
    for (size_t i = 0; i < u->table->n_rows; i++) {
        if (condition_matches(&u->where, rows[i])) {
            rows[(*n)++] = rows[i];
        }
    }
    return rows;
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
            const struct table_schema *ts = u->table->schema;
            size_t n_rows;
            struct row **rows = query(u, &n_rows);
            for (size_t r = 0; r < n_rows; r++) {
                /* The transaction's writable copy (an earlier operation
                 * may have made it already), given the named columns. */
                struct row *row = txn_modify_row(txn, u->table, rows[r]);
                for (size_t k = 0; k < u->n; k++) {
                    const struct column_schema *c = u->columns[k];
                    row_field_release(row, ts, c->index);
                    datum_clone(&row->fields[c->index],
                                &u->scratch->fields[c->index], &c->type);
                }
            }
            xfree(rows);
            struct json *r = json_object_create();
            json_object_put(r, "count", json_integer_create(n_rows));
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
