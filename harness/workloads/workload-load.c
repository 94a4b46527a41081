/* load: read and apply every record of a database file, as ovsdb-server
 * does at startup; the figure of interest is RSS after load. */
#include <stdlib.h>
#include <string.h>

#include "server/db.h"
#include "server/db-file.h"
#include "ds.h"
#include "json.h"
#include "server/raft-storage.h"
#include "measure/phases.h"
#include "server/row-version.h"
#include "workloads/workload.h"

static char *
load_prepare(struct workload_options *o)
{
    return NULL;
}

static void
load_describe(const struct workload_options *o, struct ds *ds)
{
}

/* Text raft keeps: in impls without serialized nodes it keeps trees
 * (impls/json.h), which count 0 here. */
static size_t
serialized_bytes(const struct db_storage *s)
{
    size_t n = 0;
    for (size_t i = 0; i <= s->n_entries; i++) {
        const struct json *j = i ? s->entries[i - 1].data : s->snap_data;
        if (j && json_get_type(j) == JSON_SERIALIZED_OBJECT) {
            n += strlen(json_serialized_object(j));
        }
    }
    return n;
}

static char *
load_run(struct phases *p, const struct workload_options *o)
{
    struct db_load_stats stats;
    struct db *db;

    char *error = workload_load_phase(p, o, &db, &stats);
    if (error) {
        return error;
    }
    size_t n_rows = db_n_rows(db);
    phases_counter(p, "rows", n_rows);
    phases_counter(p, "records", stats.records);
    phases_counter(p, "file_bytes", stats.bytes);
    phases_counter(p, "rss_after_load_bytes", phases_last(p)->end.rss_bytes);
    if (db_model == DB_MODEL_FULL) {
        /* What ovs-appctl memory/show reports, to compare. */
        phases_counter(p, "weak_refs", n_weak_refs);
        phases_counter(p, "atoms", db->n_atoms);
        phases_counter(p, "row_versions", row_version_count());
    }
    if (string_pool) {
        /* impls/ovs-intern: distinct strings pooled, and the string atoms
         * read that found their string already there. */
        phases_counter(p, "string_pool", string_pool_size());
        phases_counter(p, "string_pool_hits", string_pool_hits());
    }
    if (db->storage) {
        /* A clustered file: what raft and the history keep, as
         * memory/show's raft-log, txn-history, txn-history-atoms. */
        const struct db_storage *s = db->storage;
        phases_counter(p, "raft_log", s->n_entries);
        phases_counter(p, "txn_history", s->history.n_txns);
        phases_counter(p, "txn_history_atoms", s->history.n_atoms);
        phases_counter(p, "txn_history_peak", s->peak_history_txns);
        phases_counter(p, "txn_history_peak_atoms",
                       s->peak_history_atoms);
        phases_counter(p, "raft_kept_bytes", serialized_bytes(s));
    }

    phases_begin(p, "free");
    db_destroy(db);
    phases_end(p);
    return NULL;
}

const struct workload workload_load = {
    .name = "load",
    .summary = "read and apply every record of DATASET (RSS after load)",
    .help = "           phases: load (full model: counters weak_refs,\n"
            "           atoms, row_versions; of a clustered file also\n"
            "           raft_log, txn_history, txn_history_atoms, their\n"
            "           peaks and raft_kept_bytes; with a string pool\n"
            "           string_pool, string_pool_hits), free\n",
    .needs_dataset = true,
    .prepare = load_prepare,
    .describe = load_describe,
    .run = load_run,
};
