/* txn: not implemented yet. */
#include "util.h"
#include "workload.h"

static char *
txn_prepare(struct bench_options *o)
{
    return xasprintf("workload txn is not implemented yet");
}

static void
txn_describe(const struct bench_options *o, struct ds *ds)
{
}

static char *
txn_run(struct bench *b, const struct bench_options *o)
{
    return xasprintf("workload txn is not implemented yet");
}

const struct workload workload_txn = {
    .name = "txn",
    .summary = "(NOT IMPLEMENTED YET)",
    .help = "",
    .needs_dataset = false,
    .prepare = txn_prepare,
    .describe = txn_describe,
    .run = txn_run,
};
