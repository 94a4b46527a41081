/* Composing a condition change's update (monitor-cond-change.h). */
#include "server/monitor-cond-change.h"

#include <stdbool.h>

#include "json.h"
#include "ovsdb/datum.h"
#include "ovsdb/uuid.h"
#include "server/condition.h"
#include "server/db.h"
#include "util.h"

/* {"insert": {<non-default columns>, "_version": V}}: a row that entered
 * is sent whole, as an initial row is. */
static struct json *
insert_update(const struct row *row, const struct table_schema *ts)
{
    struct json *cols = row_to_json(row, ts, false, false);
    union atom v = { .uuid = *row_version(row) };

    json_object_put(cols, "_version", atom_to_json(&v, ATOMIC_UUID));
    struct json *update = json_object_create();
    json_object_put(update, "insert", cols);
    return update;
}

static struct json *
delete_update(void)
{
    struct json *update = json_object_create();

    json_object_put(update, "delete", json_null_create());
    return update;
}

struct json *
cond_change_rows2(const struct table *t, const struct condition *old,
                  const struct condition *new,
                  struct cond_change_counts *counts)
{
    struct json *rows = NULL;

    /* The table's hash map in bucket order, as the server walks its own:
     * there is no index by condition, every row is tested. */
    for (size_t b = 0; b <= t->mask; b++) {
        for (const struct row *r = t->buckets[b]; r; r = r->next) {
            bool was = condition_matches(old, r);
            bool is = condition_matches(new, r);
            counts->tested++;
            if (was == is) {
                continue;
            }
            if (!rows) {
                rows = json_object_create();
            }
            char uuid[UUID_LEN + 1];
            uuid_format_printf(&r->uuid, uuid);
            json_object_put(rows, uuid, (is ? insert_update(r, t->schema)
                                         : delete_update()));
            if (is) {
                counts->inserted++;
            } else {
                counts->deleted++;
            }
        }
    }
    return rows;
}
