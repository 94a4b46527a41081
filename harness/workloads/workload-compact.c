/* compact: load a (log-form) database file and write it back as schema + one
 * snapshot record, as `ovsdb-tool compact` does: the records are written to
 * the file and synced to the disk inside the timed phase (to a temporary
 * file without --output).  Rows are written in UUID order and keys sorted,
 * so the output is byte-identical for every impl. */
#include <stdbool.h>
#include <stdlib.h>

#include "server/db.h"
#include "server/db-file.h"
#include "ds.h"
#include "json.h"
#include "server/jsonrpc-reply.h"
#include "ovsdb/out-file.h"
#include "ovsdb/record.h"
#include "measure/phases.h"
#include "util.h"
#include "workloads/workload.h"

static char *
compact_prepare(struct workload_options *o)
{
    return NULL;
}

static void
compact_describe(const struct workload_options *o, struct ds *ds)
{
}

/* Writes 'json' as one record, as ovsdb_log_write() does: the text is
 * composed on its own, then the header, the text and its newline are
 * written to the stream. */
static char *
write_record(struct out_file *f, const struct json *json, struct ds *text,
             size_t *bytesp)
{
    char header[OVSDB_RECORD_HEADER_MAX];

    ds_clear(text);
    json_to_ds(json, JSSF_SORT, text);
    size_t n = ovsdb_record_header(text->string, text->length, header);
    *bytesp += n + text->length + 1;

    char *error = out_file_write(f, header, n);
    if (!error) {
        error = out_file_write(f, text->string, text->length);
    }
    if (!error) {
        error = out_file_write(f, "\n", 1);
    }
    return error;
}

/* The file the compaction writes: --output (kept from the first
 * repetition only), else a temporary one that is removed, for ovsdb-tool
 * writes and syncs its output in any case. */
static char *
compact_target(const struct workload_options *o, int repetition)
{
    if (o->output && repetition == 0) {
        return xstrdup(o->output);
    }
    const char *dir = getenv("TMPDIR");
    return xasprintf("%s/jsonbench-compact.db",
                     dir && *dir ? dir : "/tmp");
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

    /* Write the schema and the snapshot as file records, sync the file
     * and its directory: what `ovsdb-tool compact` does after reading. */
    char *target = compact_target(o, p->repetition);
    bool keep = o->output && p->repetition == 0;
    struct ds text = DS_EMPTY_INITIALIZER;
    struct out_file f;
    size_t bytes = 0;

    phases_begin(p, "compact");
    error = out_file_open(&f, target);
    if (!error) {
        error = write_record(&f, db->schema->json, &text, &bytes);
    }
    if (!error) {
        struct json *snapshot = snapshot_record(db);
        error = write_record(&f, snapshot, &text, &bytes);
        json_destroy(snapshot);
    }
    ds_destroy(&text);
    if (!error) {
        error = out_file_sync(&f);
    }
    if (error) {
        out_file_abort(&f);
    } else if (keep) {
        error = out_file_commit(&f);
    } else {
        out_file_abort(&f);
    }
    phases_items(p, db_n_rows(db));
    phases_bytes_out(p, bytes);
    phases_end(p);
    xfree(target);

    phases_begin(p, "free");
    db_destroy(db);
    phases_end(p);
    return error;
}

const struct workload workload_compact = {
    .name = "compact",
    .summary = "write DATASET back as schema + one snapshot record",
    .help = "           --output FILE keeps the compacted database (valid\n"
            "           for ovsdb-tool); without it the file is written,\n"
            "           synced and removed in $TMPDIR (default /tmp), as\n"
            "           ovsdb-tool writes and syncs its output in any case;\n"
            "           phases: load, compact (write + fsync), free\n",
    .needs_dataset = true,
    .prepare = compact_prepare,
    .describe = compact_describe,
    .run = compact_run,
};
