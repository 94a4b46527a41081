/* The table of workloads, in --help order, and the load phase they share. */
#include "workloads/workload.h"

#include <malloc.h>
#include <string.h>

#include "server/db.h"
#include "server/db-file.h"
#include "json.h"
#include "measure/phases.h"
#include "util.h"

enum load_boundary load_boundary = LOAD_BOUNDARY_FIRST_ANSWER;

/* Size of the boundary allocation: any request in glibc's large-bin range
 * (1 KiB and up) below its mmap threshold makes malloc() consolidate the
 * fast bins and sort the unsorted bin first; OpenSSL's first requests past
 * read_db() in ovsdb-server are of 1-3 KiB (gdb, docs/model.md). */
#define LOAD_BOUNDARY_BYTES 4096

const char *const load_boundary_names[2] = { "first-answer", "read-db" };

/* The allocator work ovsdb-server does between read_db() and its first
 * answer (see enum load_boundary): one large-bin allocation, freed again
 * (the model has no SSL context to keep it in). */
static void
load_boundary_step(void)
{
    /* volatile: the compiler must not drop the malloc/free pair. */
    void *volatile block = xmalloc_as(XALLOC_OTHER, LOAD_BOUNDARY_BYTES);
    xfree(block);
}

bool
impl_has_feature(const char *feature)
{
    size_t len = strlen(feature);
    for (const char *p = json_impl_info()->features; p && *p; ) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t) (comma - p) : strlen(p);
        if (n == len && !memcmp(p, feature, len)) {
            return true;
        }
        p = comma ? comma + 1 : NULL;
    }
    return false;
}

char *
workload_check_send(struct workload_options *o, bool allow_print)
{
    if (!o->send) {
        o->send = db_model == DB_MODEL_FULL ? "sockets" : "none";
    }
    if (!strcmp(o->send, "sockets") || !strcmp(o->send, "none")
        || (allow_print && !strcmp(o->send, "print"))) {
        return NULL;
    }
    return (allow_print
            ? xasprintf("--send: \"%s\" is not sockets, print or none",
                        o->send)
            : xasprintf("--send: \"%s\" is not sockets or none", o->send));
}

const struct workload *const workloads[] = {
    &workload_load,
    &workload_dump,
    &workload_compact,
    &workload_monitor,
    &workload_txn,
    &workload_raft,
    &workload_monitor_storm,
    &workload_convert,
    &workload_monitor_cond_change,
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
    return workload_load_phase_as(p, o, NULL, dbp, stats);
}

char *
workload_load_phase_as(struct phases *p, const struct workload_options *o,
                       struct db_schema *schema, struct db **dbp,
                       struct db_load_stats *stats)
{
    phases_begin(p, "load");
    char *error = (schema
                   ? db_load_file_as(o->dataset, schema, dbp, stats)
                   : db_load_file(o->dataset, dbp, stats));
    if (!error) {
        phases_items(p, db_n_rows(*dbp));
        if (impl_has_feature("trim-after-read")) {
            /* A server that gives malloc's free memory back to the OS once
             * it has read its database (impls/ovs-copytrim, the control
             * for ovs-arena): part of the load. */
            malloc_trim(0);
        }
        if (load_boundary == LOAD_BOUNDARY_FIRST_ANSWER) {
            load_boundary_step();
        }
    }
    phases_end(p);
    return error;
}
