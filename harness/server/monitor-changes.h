/* Full model: a monitor's change set, as ovsdb-server keeps one per
 * monitored table between a commit and the updates it sends
 * (ovsdb/monitor.c's ovsdb_monitor_row): per changed row its UUID and the
 * old and new values of every column, sharing the rows' datums through
 * their reference counts.  The update is composed from it: the columns
 * whose old and new values differ.  The initial change set (every row,
 * inserted) is one too: initial replies are composed from it. */
#ifndef HARNESS_MONITOR_CHANGES_H
#define HARNESS_MONITOR_CHANGES_H 1

#include <stdbool.h>
#include <stddef.h>

#include "server/db.h"
#include "server/hmap.h"
#include "server/txn.h"

struct condition;
struct json;

struct shared_datum {
    struct datum d;
    unsigned int *refcnt;
};

struct monitor_change {
    struct hmap_node node;      /* In 'rows', by UUID. */
    struct uuid uuid;
    struct row *row;            /* The new row (NULL if deleted). */
    struct shared_datum *old;   /* One per column; NULL if inserted. */
    struct shared_datum *new;   /* One per column; NULL if deleted. */
};

struct monitor_changes {
    struct table *table;
    struct hmap rows;
    struct monitor_change **order;  /* In commit order. */
    size_t n, allocated;
};

void monitor_changes_init(struct monitor_changes *, struct table *);
void monitor_changes_destroy(struct monitor_changes *);
/* A txn_commit() callback (aux: the struct monitor_changes).  A row already
 * in the set keeps its old values and gets the new ones. */
txn_commit_cb monitor_changes_add;
/* The initial change set: every one of the 'n' rows, inserted (as
 * ovsdb_monitor_get_initial() adds all of the table's rows). */
void monitor_changes_fill(struct monitor_changes *, struct row **rows,
                          size_t n);
/* The first column whose value differs between old and new, or NULL. */
const struct column_schema *monitor_change_first_changed(
    const struct monitor_changes *, const struct monitor_change *);

/* The <table-updates2> rows one client gets from the change set, composed
 * as ovsdb_monitor_compose_update() does for a client whose condition is
 * 'cond' (each client's condition is tested on each row's old and new
 * values): "insert" if only the new values match, "delete" if only the old
 * ones do, "modify" with the columns whose values differ if both do; rows
 * whose columns did not change, or that match neither way, are left out.
 * Every "insert" and "modify" carries the new "_version", as the monitored
 * columns of `ovsdb-client monitor-cond` include it.  Columns are written
 * whole (OVS writes a diff for set and map columns; the workload changes
 * scalars).  'direct' writes each row's text into a serialized node.
 * Returns NULL if no row is for this client (the server sends nothing). */
struct json *monitor_changes_update2(const struct monitor_changes *,
                                     const struct condition *, bool direct);
/* The <table-updates2> rows of an initial reply from an initial change set:
 * "initial" with every non-default column and "_version" for each row whose
 * new values match 'cond'; an empty object if none does. */
struct json *monitor_changes_initial2(const struct monitor_changes *,
                                      const struct condition *, bool direct);

#endif
