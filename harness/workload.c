/* The table of workloads, in --help order, and the load phase they share. */
#include "workload.h"

#include <string.h>

#include "db.h"
#include "db-file.h"
#include "phases.h"

const struct workload *const workloads[] = {
    &workload_load,
    &workload_dump,
    &workload_compact,
    &workload_monitor,
    &workload_txn,
    &workload_raft,
};
const size_t n_workloads = sizeof workloads / sizeof workloads[0];

const struct workload *
workload_find(const char *name)
{
    for (size_t i = 0; i < n_workloads; i++) {
        if (!strcmp(workloads[i]->name, name)) {
            return workloads[i];
        }
    }
    return NULL;
}

char *
workload_load_phase(struct phases *p, const struct workload_options *o,
                    struct db **dbp, struct db_load_stats *stats)
{
    phases_begin(p, "load");
    char *error = db_load_file(o->dataset, dbp, stats);
    if (!error) {
        phases_items(p, db_n_rows(*dbp));
    }
    phases_end(p);
    return error;
}
