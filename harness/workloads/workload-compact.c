/* compact: load a (log-form) database file and write it back as schema + one
 * snapshot record, as `ovsdb-tool compact` does: the records are written to
 * the file and synced to the disk inside the timed phase (to a temporary
 * file without --output).  Rows are written in UUID order and keys sorted,
 * so the output is byte-identical for every impl. */
#include <stdbool.h>
#include <stdlib.h>

#include "server/db.h"
#include "server/db-file.h"
#include "server/snapshot-file.h"
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
    size_t bytes = 0;

    phases_begin(p, "compact");
    error = snapshot_file_write(db, target, keep, &bytes);
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
