/* The transaction history ovsdb-server keeps for a clustered database (for
 * monitor_cond_since), as OVS 3.1 keeps it (ovsdb/transaction.c): every
 * committed transaction, the snapshot a clustered load starts from
 * included, cloned (its changed rows' old and new datums shared by
 * reference count, a transaction row with a bitmap of the changed columns
 * per row), then trimmed from the oldest while it holds more than 100
 * transactions or more atoms than the database, always keeping one. */
#ifndef HARNESS_TXN_HISTORY_H
#define HARNESS_TXN_HISTORY_H 1

#include <stddef.h>

#include "server/hmap.h"

struct db;
struct row;
struct table;

struct txn_history {
    struct list txns;           /* struct history_txn's, oldest first. */
    size_t n_txns;
    long long n_atoms;          /* Atoms of the old and new rows. */
    struct history_txn *cur;    /* Being recorded, or NULL. */
};

void txn_history_init(struct txn_history *);
void txn_history_destroy(struct txn_history *);

/* Recording one transaction: begin, then txn_history_record_cb() as its
 * txn_commit() callback (server/txn.h), then end. */
void txn_history_begin(struct txn_history *);
void txn_history_record_cb(void *history, struct table *, struct row *old,
                           struct row *new);
void txn_history_end(struct txn_history *);

/* ovsdb_txn_history_run(): drops the oldest transactions while there are
 * more than one and (more than 100 or more atoms than 'db' holds). */
void txn_history_run(struct txn_history *, const struct db *);

#endif
