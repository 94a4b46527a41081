/* Full model: a monitor's change set, as ovsdb-server keeps one per
 * monitored table between a commit and the updates it sends
 * (ovsdb/monitor.c's ovsdb_monitor_row): per changed row its UUID and the
 * old and new values of every column, sharing the rows' datums through
 * their reference counts.  The update is composed from it: the columns
 * whose old and new values differ. */
#ifndef HARNESS_MONITOR_CHANGES_H
#define HARNESS_MONITOR_CHANGES_H 1

#include <stddef.h>

#include "db.h"
#include "hmap.h"
#include "txn.h"

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
/* A txn_commit() callback (aux: the struct monitor_changes). */
txn_commit_cb monitor_changes_add;
/* The first column whose value differs between old and new, or NULL. */
const struct column_schema *monitor_change_first_changed(
    const struct monitor_changes *, const struct monitor_change *);

#endif
