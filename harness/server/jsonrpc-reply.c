/* Building the server's replies, notifications and snapshot record from the
 * in-memory database (jsonrpc-reply.h).  Members are added in the order the
 * server sends them, so that impls keeping insertion order serialize them
 * the same way. */
#include "server/jsonrpc-reply.h"

#include <stdbool.h>
#include <stdlib.h>

#include "ovsdb/datum.h"
#include "server/db.h"
#include "ds.h"
#include "json.h"
#include "ovsdb/schema.h"
#include "util.h"
#include "ovsdb/uuid.h"

struct json *
jsonrpc_reply(struct json *id, struct json *result)
{
    struct json *reply = json_object_create();

    json_object_put(reply, "id", id);
    json_object_put(reply, "result", result);
    json_object_put(reply, "error", json_null_create());
    return reply;
}

struct json *
dump_reply(const struct db *db, long long id)
{
    struct json *result = json_array_create_empty();

    for (unsigned int i = 0; i < db->schema->n_tables; i++) {
        const struct table *t = &db->tables[i];
        /* One array of the table's size, as ovsdb_row_set_to_json() makes
         * it: the sorted rows' own array, each row replaced by its JSON.
         * Growing it row by row, or a second array next to it, would leave
         * freed blocks beside it, and freeing it then merges them into a
         * chunk large enough to make glibc consolidate every small block
         * of the reply, which the server's free of the reply never does. */
        struct row **rows = table_sorted_rows(t);
        struct json **elems = (struct json **) (void *) rows;
        for (size_t j = 0; j < t->n_rows; j++) {
            const struct row *row = rows[j];
            elems[j] = row_to_json(row, t->schema, true, true);
        }

        struct json *op = json_object_create();
        json_object_put(op, "rows", json_array_create(elems, t->n_rows));
        json_array_add(result, op);
    }
    return jsonrpc_reply(json_integer_create(id), result);
}

struct json *
insert_reply(const struct json *id, const struct uuid *uuid)
{
    union atom a = { .uuid = *uuid };
    struct json *result = json_object_create();

    json_object_put(result, "uuid", atom_to_json(&a, ATOMIC_UUID));
    return jsonrpc_reply(json_clone(id), json_array_create_1(result));
}

struct json *
update2_rows_tree(const struct table_schema *ts, struct row **rows, size_t n,
                  const struct column_schema *modified)
{
    struct json *tu = json_object_create();

    for (size_t i = 0; i < n; i++) {
        struct json *cols;
        if (!modified) {
            cols = row_to_json(rows[i], ts, false, false);
        } else {
            cols = json_object_create();
            json_object_put(cols, modified->name,
                            datum_to_json(&rows[i]->fields[modified->index],
                                          &modified->type));
        }
        /* `ovsdb-client monitor-cond` monitors _version too. */
        union atom v = { .uuid = *row_version(rows[i]) };
        json_object_put(cols, "_version", atom_to_json(&v, ATOMIC_UUID));
        struct json *update = json_object_create();
        json_object_put(update, modified ? "modify" : "initial", cols);
        char uuid[UUID_LEN + 1];
        uuid_format_printf(&rows[i]->uuid, uuid);   /* As OVS does. */
        json_object_put(tu, uuid, update);
    }
    return tu;
}

struct json *
update2_rows_direct(const struct table_schema *ts, struct row **rows,
                    size_t n, const struct column_schema *modified)
{
    struct json *tu = json_object_create();

    for (size_t i = 0; i < n; i++) {
        struct ds text = DS_EMPTY_INITIALIZER;
        bool first = true;

        ds_put_format(&text, "{\"%s\":{", modified ? "modify" : "initial");
        for (unsigned int j = 0; j < ts->n_columns; j++) {
            const struct column_schema *c = ts->columns[j];
            const struct datum *d = &rows[i]->fields[j];
            if (modified ? c != modified : datum_is_default(d, &c->type)) {
                continue;
            }
            if (!first) {
                ds_put_char(&text, ',');
            }
            first = false;
            ds_put_format(&text, "\"%s\":", c->name);
            datum_to_ds(d, &c->type, &text);
        }
        char v[UUID_LEN + 1];
        uuid_format(row_version(rows[i]), v);
        ds_put_format(&text, "%s\"_version\":[\"uuid\",\"%s\"]}}",
                      first ? "" : ",", v);

        char uuid[UUID_LEN + 1];
        uuid_format_printf(&rows[i]->uuid, uuid);   /* As OVS does. */
        json_object_put(tu, uuid,
                        json_serialized_object_create_nocopy(
                            ds_steal_cstr(&text)));
    }
    return tu;
}

struct json *
update2_table_updates(const char *table, struct json *rows)
{
    struct json *tu = json_object_create();

    json_object_put(tu, table, rows);
    return tu;
}

struct json *
update2_notification(struct json *table_updates)
{
    struct json *msg = json_object_create();

    json_object_put(msg, "id", json_null_create());
    json_object_put_string(msg, "method", "update2");
    json_object_put(msg, "params",
                    json_array_create_2(json_string_create("monid"),
                                        table_updates));
    return msg;
}

struct json *
snapshot_record(const struct db *db)
{
    struct json *txn = json_object_create();

    for (unsigned int i = 0; i < db->schema->n_tables; i++) {
        const struct table *t = &db->tables[i];
        if (!t->n_rows) {
            continue;
        }
        struct row **rows = table_sorted_rows(t);
        struct json *rows_json = json_object_create();
        for (size_t j = 0; j < t->n_rows; j++) {
            char uuid[UUID_LEN + 1];
            uuid_format_printf(&rows[j]->uuid, uuid);   /* As OVS does. */
            json_object_put(rows_json, uuid,
                            row_to_json(rows[j], t->schema, false, false));
        }
        xfree(rows);
        json_object_put(txn, t->schema->name, rows_json);
    }
    return txn;
}
