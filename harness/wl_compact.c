/* compact: load a (log-form) database file and write it back as schema + one
 * snapshot record, as `ovsdb-tool compact` does.  Rows are written in UUID
 * order and keys sorted, so the output is byte-identical for every impl. */
#include <stdlib.h>

#include "bench.h"
#include "db.h"
#include "db_file.h"
#include "ds.h"
#include "json.h"
#include "ovsdb/out-file.h"
#include "ovsdb/record.h"
#include "util.h"
#include "workload.h"

static char *
compact_prepare(struct bench_options *o)
{
    return NULL;
}

static void
compact_describe(const struct bench_options *o, struct ds *ds)
{
}

/* {"<table>": {"<uuid>": {<non-default columns>}, ...}, ...}. */
static struct json *
build_snapshot(const struct db *db)
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
            uuid_format(&rows[j]->uuid, uuid);
            json_object_put(rows_json, uuid,
                            row_to_json(rows[j], t->schema, false, false));
        }
        free(rows);
        json_object_put(txn, t->schema->name, rows_json);
    }
    return txn;
}

static char *
compact_run(struct bench *b, const struct bench_options *o)
{
    struct db_load_stats stats;
    struct db *db;

    char *error = workload_load_phase(b, o, &db, &stats);
    if (error) {
        return error;
    }
    bench_counter(b, "records", stats.records);

    /* Serialize the schema and the snapshot into file records. */
    struct ds file = DS_EMPTY_INITIALIZER;
    struct ds text = DS_EMPTY_INITIALIZER;
    bench_phase_begin(b, "compact");
    json_to_ds(db->schema->json, JSSF_SORT, &text);
    ovsdb_record_to_ds(text.string, text.length, &file);
    ds_clear(&text);
    struct json *snapshot = build_snapshot(db);
    json_to_ds(snapshot, JSSF_SORT, &text);
    json_destroy(snapshot);
    ovsdb_record_to_ds(text.string, text.length, &file);
    ds_destroy(&text);
    bench_phase_items(b, db_n_rows(db));
    bench_phase_bytes_out(b, file.length);
    bench_phase_end(b);

    if (o->output && b->repetition == 0) {
        error = out_file_write_all(o->output, file.string, file.length);
    }
    ds_destroy(&file);

    bench_phase_begin(b, "free");
    db_destroy(db);
    bench_phase_end(b);
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
