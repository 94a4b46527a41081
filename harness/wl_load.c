/* load: read and apply every record of a database file, as ovsdb-server
 * does at startup; the figure of interest is RSS after load. */
#include <stdlib.h>

#include "bench.h"
#include "db.h"
#include "db_file.h"
#include "ds.h"
#include "workload.h"

static char *
load_prepare(struct bench_options *o)
{
    return NULL;
}

static void
load_describe(const struct bench_options *o, struct ds *ds)
{
}

static char *
load_run(struct bench *b, const struct bench_options *o)
{
    struct db_load_stats stats;
    struct db *db;

    char *error = workload_load_phase(b, o, &db, &stats);
    if (error) {
        return error;
    }
    size_t n_rows = db_n_rows(db);
    bench_counter(b, "rows", n_rows);
    bench_counter(b, "records", stats.records);
    bench_counter(b, "file_bytes", stats.bytes);
    bench_counter(b, "rss_after_load_bytes", bench_last(b)->end.rss_bytes);

    bench_phase_begin(b, "free");
    db_destroy(db);
    bench_phase_end(b);
    return NULL;
}

const struct workload workload_load = {
    .name = "load",
    .summary = "read and apply every record of DATASET (RSS after load)",
    .help = "           phases: load, free\n",
    .needs_dataset = true,
    .prepare = load_prepare,
    .describe = load_describe,
    .run = load_run,
};
