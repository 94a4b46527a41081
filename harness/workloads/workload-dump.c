/* dump: what `ovsdb-client dump` makes the server do: build the reply to a
 * select of every table (all columns) as JSON and serialize it. */
#include <stdlib.h>

#include "server/db.h"
#include "server/db-file.h"
#include "ds.h"
#include "json.h"
#include "server/jsonrpc-reply.h"
#include "ovsdb/out-file.h"
#include "measure/phases.h"
#include "util.h"
#include "workloads/workload.h"

static char *
dump_prepare(struct workload_options *o)
{
    if (!o->iterations) {
        o->iterations = 1;
    }
    return NULL;
}

static void
dump_describe(const struct workload_options *o, struct ds *ds)
{
    ds_put_format(ds, " iterations=%d", o->iterations);
}

static char *
dump_run(struct phases *p, const struct workload_options *o)
{
    struct db *db;
    struct ds text = DS_EMPTY_INITIALIZER;

    char *error = workload_load_phase(p, o, &db, NULL);
    if (error) {
        return error;
    }

    /* Build + serialize, 'iterations' times, each timed on its own; the
     * split between the two goes into counters. */
    double build_ms = 0, serialize_ms = 0;
    phases_begin(p, "dump");
    for (int i = 0; i < o->iterations; i++) {
        double t0 = metrics_now_ms();
        struct json *reply = dump_reply(db, 1);
        double t1 = metrics_now_ms();
        ds_clear(&text);
        json_to_ds(reply, JSSF_SORT, &text);
        double t2 = metrics_now_ms();
        json_destroy(reply);
        double t3 = metrics_now_ms();
        build_ms += t1 - t0;
        serialize_ms += t2 - t1;
        phases_iteration(p, t3 - t0);
        phases_bytes_out(p, text.length);
        phases_items(p, db_n_rows(db));
    }
    phases_end(p);
    phases_counter(p, "build_ms", build_ms);
    phases_counter(p, "serialize_ms", serialize_ms);

    phases_begin(p, "free");
    db_destroy(db);
    phases_end(p);

    if (o->output && p->repetition == 0) {
        ds_put_char(&text, '\n');
        error = out_file_write_all(o->output, text.string, text.length);
    }
    ds_destroy(&text);
    return error;
}

const struct workload workload_dump = {
    .name = "dump",
    .summary = "build and serialize the reply of `ovsdb-client dump`",
    .help = "           --iterations N (default 1) build+serialize rounds;\n"
            "           --output FILE writes the reply (sorted keys)\n"
            "           phases: load, dump (N rounds; counters build_ms,\n"
            "           serialize_ms), free\n",
    .needs_dataset = true,
    .prepare = dump_prepare,
    .describe = dump_describe,
    .run = dump_run,
};
