/* The log a standalone ovsdb-server appends each committed transaction to
 * (ovsdb/file.c ovsdb_file_txn_to_json(), ovsdb/log.c ovsdb_log_write()),
 * for the monitor workload's update batches in the full model: per
 * changed row, the persistent columns whose value changed (a new row's
 * non-default ones, null for a deleted row), keyed by table and row UUID,
 * with "_date"; composed as text, framed by its SHA-1 header and written
 * to a file in $TMPDIR, which is removed at the end.  The server does not
 * sync it unless a transaction asks to be durable, so neither does this. */
#ifndef HARNESS_TXN_LOG_H
#define HARNESS_TXN_LOG_H 1

#include <stdint.h>

#include "ovsdb/out-file.h"
#include "server/txn.h"

struct db_schema;
struct json;

struct txn_log {
    struct out_file file;
    struct json **tables;       /* The commit's rows per table index. */
    unsigned int n_tables;
    txn_commit_cb *next;        /* The commit's other callback, or NULL. */
    void *next_aux;
    uint64_t records;
    uint64_t bytes;
};

/* Creates the log file for a database of 'n_tables' tables.  Returns NULL
 * or a malloc'd error. */
char *txn_log_open(struct txn_log *, unsigned int n_tables);

/* Starts recording a commit whose changes also go to 'next' (with
 * 'next_aux'); pass txn_log_change and the log to txn_commit(). */
void txn_log_begin(struct txn_log *, txn_commit_cb *next, void *next_aux);
void txn_log_change(void *log, struct table *, struct row *old,
                    struct row *new);
/* Writes the commit's record, dated 'date_ms' (none if nothing changed).
 * Returns NULL or a malloc'd error. */
char *txn_log_end(struct txn_log *, const struct db_schema *,
                  long long date_ms);
/* Drops a commit that failed. */
void txn_log_cancel(struct txn_log *);

/* Closes and removes the file. */
void txn_log_close(struct txn_log *);

#endif
