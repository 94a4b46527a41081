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

struct db;
struct json;

/* Applies one record (the shape db_apply_record() takes) as a transaction.
 * Returns NULL or a malloc'd error; on error the database is unchanged. */
char *txn_apply_record(struct db *, const struct json *);

#endif
