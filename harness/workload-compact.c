/* compact: load a (log-form) database file and write it back as schema + one
 * snapshot record, as `ovsdb-tool compact` does.  Rows are written in UUID
 * order and keys sorted, so the output is byte-identical for every impl. */
#include <stdlib.h>

#include "db.h"
#include "db-file.h"
#include "ds.h"
#include "json.h"
#include "jsonrpc-reply.h"
#include "ovsdb/out-file.h"
#include "ovsdb/record.h"
#include "phases.h"
#include "util.h"
#include "workload.h"

static char *
compact_prepare(struct workload_options *o)
{
    return NULL;
}

static void
compact_describe(const struct workload_options *o, struct ds *ds)
{
}

static char *
compact_run(struct phases *p, const struct workload_options *o)
{
    struct db_load_stats stats;
    struct db *db;

    char *error = workload_load_phase(p, o, &db, &stats);
    if (error) {
        return error;
    }
    phases_counter(p, "records", stats.records);

    /* Serialize the schema and the snapshot into file records. */
    struct ds file = DS_EMPTY_INITIALIZER;
    struct ds text = DS_EMPTY_INITIALIZER;
    phases_begin(p, "compact");
    json_to_ds(db->schema->json, JSSF_SORT, &text);
    ovsdb_record_to_ds(text.string, text.length, &file);
    ds_clear(&text);
    struct json *snapshot = snapshot_record(db);
    json_to_ds(snapshot, JSSF_SORT, &text);
    json_destroy(snapshot);
    ovsdb_record_to_ds(text.string, text.length, &file);
    ds_destroy(&text);
    phases_items(p, db_n_rows(db));
    phases_bytes_out(p, file.length);
    phases_end(p);

    if (o->output && p->repetition == 0) {
        error = out_file_write_all(o->output, file.string, file.length);
    }
    ds_destroy(&file);

    phases_begin(p, "free");
    db_destroy(db);
    phases_end(p);
    return error;
}

const struct workload workload_compact = {
    .name = "compact",
    .summary = "write DATASET back as schema + one snapshot record",
    .help = "           --output FILE writes the compacted database (valid\n"
            "           for ovsdb-tool); phases: load, compact, free\n",
    .needs_dataset = true,
    .prepare = compact_prepare,
    .describe = compact_describe,
    .run = compact_run,
};
