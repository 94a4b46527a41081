/* raft: not implemented yet. */
#include "util.h"
#include "workload.h"

static char *
raft_prepare(struct bench_options *o)
{
    return xasprintf("workload raft is not implemented yet");
}

static void
raft_describe(const struct bench_options *o, struct ds *ds)
{
}

static char *
raft_run(struct bench *b, const struct bench_options *o)
{
    return xasprintf("workload raft is not implemented yet");
}

const struct workload workload_raft = {
    .name = "raft",
    .summary = "(NOT IMPLEMENTED YET)",
    .help = "",
    .needs_dataset = false,
    .prepare = raft_prepare,
    .describe = raft_describe,
    .run = raft_run,
};
