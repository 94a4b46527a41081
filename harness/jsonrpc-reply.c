#include "jsonrpc-reply.h"

#include <stdlib.h>

#include "db.h"
#include "json.h"
#include "util.h"

struct json *
build_dump_reply(const struct db *db, long long id)
{
    struct json *result = json_array_create_empty();

    for (unsigned int i = 0; i < db->schema->n_tables; i++) {
        const struct table *t = &db->tables[i];
        struct row **rows = table_sorted_rows(t);
        struct json *rows_json = json_array_create_empty();

        for (size_t j = 0; j < t->n_rows; j++) {
            json_array_add(rows_json, row_to_json(rows[j], t->schema,
                                                  true, true));
        }
        free(rows);

        struct json *op = json_object_create();
        json_object_put(op, "rows", rows_json);
        json_array_add(result, op);
    }

    struct json *reply = json_object_create();
    json_object_put(reply, "id", json_integer_create(id));
    json_object_put(reply, "result", result);
    json_object_put(reply, "error", json_null_create());
    return reply;
}
