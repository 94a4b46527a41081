/* Loading a clustered database file; see raft-storage.h.
 *
 * Record 0 is raft's header: {"server_id", "cluster_id", "local_address",
 * "name", "prev_servers", "prev_index", "prev_term", "prev_data":
 * [SCHEMA, DATA], "prev_eid", ...}.  The records after it are log entries
 * ({"term", "index", "data": [SCHEMA or null, TXN], "eid"}) or raft's own
 * (term, vote, commit_index, note, leader), which hold no data. */
#include "server/raft-storage.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "server/db.h"
#include "server/db-file.h"
#include "server/txn.h"
#include "json.h"
#include "ovsdb/log-reader.h"
#include "ovsdb/schema.h"
#include "util.h"

enum history_trim history_trim = HISTORY_TRIM_EACH;
const char *const history_trim_names[2] = { "each", "end" };

/* An entry as raft_open() holds it until the server reads it. */
struct read_entry {
    struct raft_kept_entry kept;
    struct json *tree;          /* The data's parsed tree. */
    long long record;
    uint64_t offset;            /* Of the record, for errors. */
};

static char *
record_error(const struct log_reader *r, char *msg)
{
    char *where = log_reader_where(r);
    char *e = xasprintf("%s: %s", where, msg);
    xfree(where);
    xfree(msg);
    return e;
}

static bool
get_u64(const struct json *obj, const char *name, uint64_t *out)
{
    const struct json *v = json_object_get(obj, name);
    if (!v || json_get_type(v) != JSON_INTEGER || json_integer(v) < 0) {
        return false;
    }
    *out = json_integer(v);
    return true;
}

/* [SCHEMA or null, TXN or null], as ovsdb_storage_read() requires. */
static bool
is_data(const struct json *data)
{
    return (json_get_type(data) == JSON_ARRAY && json_array_size(data) == 2
            && (json_get_type(json_array_at(data, 0)) == JSON_NULL
                || json_get_type(json_array_at(data, 0)) == JSON_OBJECT)
            && (json_get_type(json_array_at(data, 1)) == JSON_NULL
                || json_get_type(json_array_at(data, 1)) == JSON_OBJECT));
}

void
db_storage_destroy(struct db_storage *s)
{
    if (!s) {
        return;
    }
    txn_history_destroy(&s->history);
    for (size_t i = 0; i < s->n_entries; i++) {
        json_destroy(s->entries[i].data);
    }
    xfree(s->entries);
    json_destroy(s->snap_data);
    xfree(s);
}

/* Reads every record after the header, as raft_open() does. */
static char *
read_entries(struct log_reader *r, struct read_entry **entriesp,
             size_t *np, uint64_t next_index, struct db_load_stats *stats)
{
    struct read_entry *entries = NULL;
    size_t n = 0, allocated = 0;
    struct json *json;
    char *error;
    int retval;

    while ((retval = log_reader_next(r, &json, &error)) > 0) {
        stats->records++;
        const struct json *data = json_get_type(json) == JSON_OBJECT
                                  ? json_object_get(json, "data") : NULL;
        uint64_t index, term;
        if (json_get_type(json) != JSON_OBJECT) {
            error = xstrdup("raft record is not a JSON object");
        } else if (!data) {
            /* term, vote, commit_index, note or leader: nothing to keep. */
            json_destroy(json);
            continue;
        } else if (!get_u64(json, "index", &index)
                   || !get_u64(json, "term", &term)) {
            error = xstrdup("raft entry without index or term");
        } else if (index != next_index) {
            error = xasprintf("raft entry index %"PRIu64", expected "
                              "%"PRIu64, index, next_index);
        } else if (!is_data(data)) {
            error = xstrdup("raft entry data is not [schema, transaction]");
        } else if (json_get_type(json_array_at(data, 0)) != JSON_NULL) {
            error = xstrdup("raft entry replaces the schema (database "
                            "conversion), which is not supported");
        }
        if (error) {
            json_destroy(json);
            error = record_error(r, error);
            break;
        }
        if (n >= allocated) {
            allocated = allocated ? 2 * allocated : 64;
            entries = xrealloc(entries, allocated * sizeof *entries);
        }
        struct read_entry *e = &entries[n++];
        memset(e, 0, sizeof *e);
        e->kept.term = term;
        e->kept.index = index;
        const struct json *eid = json_object_get(json, "eid");
        if (eid && json_get_type(eid) == JSON_STRING) {
            snprintf(e->kept.eid, sizeof e->kept.eid, "%s",
                     json_string(eid));
        }
        e->tree = json_clone(data);
        e->record = stats->records - 1;
        e->offset = log_reader_record_offset(r);
        json_destroy(json);
        next_index++;
    }
    *entriesp = entries;
    *np = n;
    return retval ? error : NULL;
}

static void
note_history_peak(struct db_storage *s)
{
    if (s->history.n_txns > s->peak_history_txns) {
        s->peak_history_txns = s->history.n_txns;
    }
    if (s->history.n_atoms > s->peak_history_atoms) {
        s->peak_history_atoms = s->history.n_atoms;
    }
}

/* The server reads one entry (or the snapshot): raft keeps the serialized
 * data, the server applies the tree and frees it. */
static char *
apply_data(struct db *db, struct db_storage *s, struct json *tree,
           struct json **keptp)
{
    const struct json *txn_json = json_array_at(tree, 1);
    char *error = NULL;

    if (s) {
        *keptp = json_serialized_object_create(tree);
    }
    if (json_get_type(txn_json) == JSON_NULL) {
        json_destroy(tree);
        return NULL;
    }
    if (!s) {
        error = db_apply_record(db, txn_json);
    } else if (json_get_type(txn_json) != JSON_OBJECT) {
        error = xasprintf("transaction record must be a JSON object");
    } else {
        txn_history_begin(&s->history);
        error = txn_apply_record_cb(db, txn_json, txn_history_record_cb,
                                    &s->history);
        txn_history_end(&s->history);
        note_history_peak(s);
        if (!error && history_trim == HISTORY_TRIM_EACH) {
            txn_history_run(&s->history, db);
        }
    }
    json_destroy(tree);
    return error;
}

char *
raft_storage_load(struct log_reader *r, struct json *header,
                  struct db **dbp, struct db_load_stats *stats)
{
    const struct json *prev_data = json_get_type(header) == JSON_OBJECT
                                   ? json_object_get(header, "prev_data")
                                   : NULL;
    uint64_t snap_index = 0, snap_term = 0;
    char *error = NULL;

    *dbp = NULL;
    if (json_get_type(header) != JSON_OBJECT) {
        error = xstrdup("raft header is not a JSON object");
    } else if (!prev_data) {
        error = xstrdup("raft header without a snapshot (\"prev_data\"): "
                        "a server that has not joined its cluster");
    } else if (!is_data(prev_data)
               || json_get_type(json_array_at(prev_data, 0)) != JSON_OBJECT) {
        error = xstrdup("raft header's prev_data is not [schema, data]");
    } else if (!get_u64(header, "prev_index", &snap_index)
               || !get_u64(header, "prev_term", &snap_term)) {
        error = xstrdup("raft header without prev_index or prev_term");
    }
    if (error) {
        json_destroy(header);
        return record_error(r, error);
    }

    struct db_schema *schema;
    error = db_schema_from_json(json_array_at(prev_data, 0), &schema);
    if (error) {
        char *msg = xasprintf("bad schema: %s", error);
        xfree(error);
        json_destroy(header);
        return record_error(r, msg);
    }
    /* raft_header_from_json() keeps the snapshot's tree, not the record. */
    struct json *snap_tree = json_clone(prev_data);
    json_destroy(header);

    struct read_entry *entries;
    size_t n_entries;
    error = read_entries(r, &entries, &n_entries, snap_index + 1, stats);

    struct db *db = db_create(schema);
    struct db_storage *s = NULL;
    if (db_model == DB_MODEL_FULL) {
        s = xzalloc(sizeof *s);
        s->snap_index = snap_index;
        s->snap_term = snap_term;
        txn_history_init(&s->history);
        s->entries = xmalloc((n_entries ? n_entries : 1)
                             * sizeof *s->entries);
        db->storage = s;
    }
    if (!error) {
        error = apply_data(db, s, snap_tree, s ? &s->snap_data : NULL);
        snap_tree = NULL;
        if (error) {
            char *msg = error;
            error = xasprintf("%s: record 0 at byte offset 0: snapshot does "
                              "not match the schema: %s",
                              log_reader_file_name(r), msg);
            xfree(msg);
        }
    }
    json_destroy(snap_tree);
    for (size_t i = 0; i < n_entries; i++) {
        struct read_entry *e = &entries[i];
        if (error) {
            json_destroy(e->tree);
            continue;
        }
        struct json *kept = NULL;
        error = apply_data(db, s, e->tree, &kept);
        if (s) {
            s->entries[s->n_entries] = e->kept;
            s->entries[s->n_entries++].data = kept;
        }
        if (error) {
            char *msg = error;
            error = xasprintf("%s: record %lld at byte offset %"PRIu64
                              ": raft entry %"PRIu64" does not match the "
                              "schema: %s", log_reader_file_name(r),
                              e->record, e->offset, e->kept.index, msg);
            xfree(msg);
        }
    }
    xfree(entries);
    if (!error && s && history_trim == HISTORY_TRIM_END) {
        txn_history_run(&s->history, db);
    }
    stats->bytes = log_reader_bytes_read(r);
    if (error) {
        db_destroy(db);
        return error;
    }
    *dbp = db;
    return NULL;
}
