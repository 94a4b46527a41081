/* The full model's transaction: how ovsdb-server applies each record of a
 * database file (ovsdb/file.c, ovsdb/transaction.c), written anew.  The
 * record becomes a transaction of row changes (a new row; a modified row as
 * a copy sharing the old one's datums; a deleted row), then the commit
 * checks what the server checks -- what changed, strong reference counts
 * and referential integrity, garbage rows of non-root tables, maxRows, weak
 * references (created, or removed from the datum when dangling), index
 * uniqueness, atom counts -- and applies it: weak references moved into
 * their destination rows, index nodes moved to the table indexes, old rows
 * freed. */
#ifndef HARNESS_TXN_H
#define HARNESS_TXN_H 1

#include <stdbool.h>

struct db;
struct json;
struct row;
struct table;
struct txn;

/* The order of the commit's passes over the transaction's rows.  hash (the
 * default): per table, in the bucket order of the table's hash map of
 * transaction rows, as ovsdb-server walks them (rows at random addresses);
 * creation: in the order the rows joined (the model before, which the
 * hardware prefetcher follows).  The committed database is the same. */
enum txn_order { TXN_ORDER_HASH, TXN_ORDER_CREATION };
extern enum txn_order txn_order;
extern const char *const txn_order_names[2];  /* By enum txn_order. */

/* Applies one record (the shape db_apply_record() takes) as a transaction.
 * Returns NULL or a malloc'd error; on error the database is unchanged. */
char *txn_apply_record(struct db *, const struct json *);

/* The same, calling 'cb' as txn_commit() does. */
typedef void txn_commit_cb(void *aux, struct table *, struct row *old,
                           struct row *new);
char *txn_apply_record_cb(struct db *, const struct json *, txn_commit_cb *,
                          void *aux);

/* A transaction built by hand (the monitor workload's update batches). */
struct txn *txn_create(struct db *);
/* The writable copy of committed 'row', which takes its place in 't'. */
struct row *txn_modify_row(struct txn *, struct table *, struct row *);
/* Inserts 'row' (filled in, not yet in 't') as ovsdb_txn_row_insert()
 * does: a new _version, linked into 't', a transaction row. */
void txn_insert_row(struct txn *, struct table *, struct row *);
/* Undoes 'txn' and frees it. */
void txn_abort(struct txn *);
/* txn_commit_cb is called for each row the commit changes, before the old
 * one is freed (as ovsdb_monitors_commit() is): 'old' NULL for an insert,
 * 'new' NULL for a delete. */
/* Checks and applies 'txn' (or undoes it on error) and frees it.  Returns
 * NULL or a malloc'd error. */
char *txn_commit(struct txn *, txn_commit_cb *, void *aux);

#endif
