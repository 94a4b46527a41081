/* monitor: not implemented yet. */
#include "util.h"
#include "workload.h"

static char *
monitor_prepare(struct bench_options *o)
{
    return xasprintf("workload monitor is not implemented yet");
}

static void
monitor_describe(const struct bench_options *o, struct ds *ds)
{
}

static char *
monitor_run(struct bench *b, const struct bench_options *o)
{
    return xasprintf("workload monitor is not implemented yet");
}

const struct workload workload_monitor = {
    .name = "monitor",
    .summary = "(NOT IMPLEMENTED YET)",
    .help = "",
    .needs_dataset = false,
    .prepare = monitor_prepare,
    .describe = monitor_describe,
    .run = monitor_run,
};
