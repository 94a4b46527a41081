/* The table of workloads, in --help order. */
#include "workload.h"

#include <string.h>

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
