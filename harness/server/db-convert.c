/* In-memory conversion to a new schema, as OVS's ovsdb_convert() and
 * ovsdb_convert_table() (ovsdb/file.c) do it: a new database, every row
 * re-created column by column, one transaction. */
#include "server/db-convert.h"

#include <string.h>

#include "server/db.h"
#include "server/txn.h"
#include "json.h"
#include "util.h"

/* For each column of 'st', its index in 'dt' or -1, and whether its
 * datums are shared rather than converted. */
static void
map_columns(const struct table_schema *st, const struct table_schema *dt,
            enum convert_unchanged unchanged, int *map, bool *share)
{
    for (unsigned int c = 0; c < st->n_columns; c++) {
        const struct column_schema *sc = st->columns[c];
        map[c] = table_schema_column_index(dt, sc->name);
        share[c] = (map[c] >= 0 && unchanged == CONVERT_UNCHANGED_CLONE
                    && ovsdb_type_equals(&sc->type,
                                         &dt->columns[map[c]]->type));
    }
}

/* The copy of 'sr' in the new table 'dt', or NULL and '*errorp'. */
static struct row *
convert_row(struct row *sr, const struct table_schema *st,
            const struct table_schema *dt, const int *map, const bool *share,
            struct db_convert_stats *stats, char **errorp)
{
    struct row *r = row_create(dt, &sr->uuid);
    size_t kept = 0;

    for (unsigned int c = 0; c < st->n_columns; c++) {
        if (map[c] < 0) {
            stats->dropped++;
            continue;
        }
        unsigned int d = map[c];
        const struct ovsdb_type *type = &dt->columns[d]->type;
        kept++;
        datum_destroy(&r->fields[d], type);
        if (share[c]) {
            if (db_model == DB_MODEL_FULL) {
                row_field_share(sr, st, c, &r->fields[d],
                                &row_refcnts(r, dt)[d]);
            } else {
                datum_clone(&r->fields[d], &sr->fields[c], type);
            }
            stats->cloned++;
            continue;
        }
        struct json *json = datum_to_json(&sr->fields[c],
                                          &st->columns[c]->type);
        char *error = datum_from_json(&r->fields[d], type, json, false);
        json_destroy(json);
        if (error) {
            char uuid[UUID_LEN + 1];
            uuid_format_printf(&sr->uuid, uuid);
            *errorp = xasprintf("table %s row %s column %s: %s", st->name,
                                uuid, st->columns[c]->name, error);
            xfree(error);
            datum_init_empty(&r->fields[d]);
            row_destroy(r, dt);
            return NULL;
        }
        stats->converted++;
    }
    stats->added += dt->n_columns - kept;
    stats->rows++;
    return r;
}

char *
db_convert(struct db *src, struct db_schema *schema,
           enum convert_unchanged unchanged, struct db **dstp,
           struct db_convert_stats *stats)
{
    struct db *dst = db_create(schema);
    struct txn *txn = db_model == DB_MODEL_FULL ? txn_create(dst) : NULL;
    char *error = NULL;

    memset(stats, 0, sizeof *stats);
    *dstp = NULL;
    for (unsigned int i = 0; i < src->schema->n_tables && !error; i++) {
        struct table *st = &src->tables[i];
        struct table *dt = db_find_table(dst, st->schema->name);
        if (!dt || !st->n_rows) {
            continue;
        }
        unsigned int n = st->schema->n_columns;
        int *map = xmalloc((n ? n : 1) * sizeof *map);
        bool *share = xmalloc((n ? n : 1) * sizeof *share);
        map_columns(st->schema, dt->schema, unchanged, map, share);
        for (size_t b = 0; b <= st->mask && !error; b++) {
            for (struct row *sr = st->buckets[b]; sr && !error;
                 sr = sr->next) {
                struct row *r = convert_row(sr, st->schema, dt->schema, map,
                                            share, stats, &error);
                if (!r) {
                    break;
                } else if (txn) {
                    txn_insert_row(txn, dt, r);
                } else {
                    table_link_row(dt, r);
                }
            }
        }
        xfree(map);
        xfree(share);
    }
    if (txn && error) {
        txn_abort(txn);
    } else if (txn) {
        error = txn_commit(txn, NULL, NULL);
    }
    if (error) {
        db_destroy(dst);
        return error;
    }
    if (!txn) {
        dst->n_txns++;
    }
    *dstp = dst;
    return NULL;
}
