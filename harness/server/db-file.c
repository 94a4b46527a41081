/* Loading a whole OVSDB file into a struct db: each record of a standalone
 * file read by ovsdb/log-reader and applied as a transaction (a clustered
 * file: server/raft-storage.c), errors naming the file, record and byte
 * offset. */
#include "server/db-file.h"

#include <stdlib.h>
#include <string.h>

#include "server/db.h"
#include "server/raft-storage.h"
#include "json.h"
#include "ovsdb/log-reader.h"
#include "ovsdb/schema.h"
#include "util.h"

/* Returns "FILE: record N at byte offset O: PREFIX: ERROR", freeing
 * 'error'. */
static char *
with_where(const struct log_reader *r, const char *prefix, char *error)
{
    char *where = log_reader_where(r);
    char *e = xasprintf("%s: %s: %s", where, prefix, error);
    xfree(where);
    xfree(error);
    return e;
}

/* Reads 'file_name' into its own schema or, if 'new_schema' is nonnull,
 * into that one (taking it), as ovsdb_file_read__() does. */
static char *
load_file(const char *file_name, struct db_schema *new_schema,
          struct db **dbp, struct db_load_stats *stats)
{
    struct db_load_stats dummy;
    char *error;
    struct json *json;

    *dbp = NULL;
    stats = stats ? stats : &dummy;
    memset(stats, 0, sizeof *stats);

    struct log_reader *r = log_reader_open(file_name, &error);
    if (!r) {
        db_schema_destroy(new_schema);
        return error;
    }
    log_reader_allow_clustered(r);

    int retval = log_reader_next(r, &json, &error);
    if (retval <= 0) {
        if (!retval) {
            error = xasprintf("%s: empty file: no schema record", file_name);
        }
        db_schema_destroy(new_schema);
        log_reader_close(r);
        return error;
    }
    stats->records++;
    if (log_reader_is_clustered(r) && new_schema) {
        error = xasprintf("%s: a clustered database is converted online by "
                          "its servers, not read into a new schema",
                          file_name);
        json_destroy(json);
        db_schema_destroy(new_schema);
        log_reader_close(r);
        return error;
    }
    if (log_reader_is_clustered(r)) {
        error = raft_storage_load(r, json, dbp, stats);
        log_reader_close(r);
        return error;
    }

    struct db_schema *schema;
    error = db_schema_from_json(json, &schema);
    json_destroy(json);
    if (error) {
        error = with_where(r, "bad schema", error);
        db_schema_destroy(new_schema);
        log_reader_close(r);
        return error;
    }
    if (new_schema) {
        /* The file's schema is checked, then the new one takes over. */
        db_schema_destroy(schema);
        schema = new_schema;
    }

    struct db *db = db_create(schema);
    while ((retval = log_reader_next(r, &json, &error)) > 0) {
        stats->records++;
        db_converting = new_schema != NULL;
        error = db_apply_record(db, json);
        db_converting = false;
        json_destroy(json);
        if (error) {
            error = with_where(r, (new_schema
                                   ? "record does not convert to the new "
                                     "schema"
                                   : "record does not match the schema"),
                               error);
            break;
        }
    }
    stats->bytes = log_reader_bytes_read(r);
    log_reader_close(r);
    if (error) {
        db_destroy(db);
        return error;
    }
    *dbp = db;
    return NULL;
}

char *
db_load_file(const char *file_name, struct db **dbp,
             struct db_load_stats *stats)
{
    return load_file(file_name, NULL, dbp, stats);
}

char *
db_load_file_as(const char *file_name, struct db_schema *schema,
                struct db **dbp, struct db_load_stats *stats)
{
    return load_file(file_name, schema, dbp, stats);
}
