/* Full model: a JSON-RPC "transact" request taken as ovsdb-server takes it
 * (ovsdb/jsonrpc-server.c, ovsdb/execution.c): the request text parsed, its
 * operations executed on one transaction, the transaction committed with
 * its checks (txn.h, which gives every changed row its new _version, as
 * the load's commits do), and the
 * reply built.  The monitor workload's update batches arrive this way, so
 * that their server work is the real server's. */
#ifndef HARNESS_TRANSACT_H
#define HARNESS_TRANSACT_H 1

#include <stddef.h>

#include "server/txn.h"

struct db;
struct json;

/* Runs the request 'text' ('n' bytes: {"method": "transact", "params":
 * [DB, OP...], "id": ID}) on 'db'.  Operations: "update" with a "where"
 * (a condition, whose clauses may also test "_uuid" with == or !=; the
 * monitor batches and the real runner send one ["_uuid", "==", ["uuid",
 * U]]), run as a query, and a "row" of new column values, parsed into a
 * scratch row of every column and copied into each selected row, as
 * ovsdb_execute_update() does; any other member is an error.  The commit
 * calls 'cb' with 'aux' for every changed row (a monitor's change set).
 * Returns NULL and the reply
 * ({"id": ID, "result": [{"count": N}, ...], "error": null}) in '*replyp',
 * or a malloc'd error naming the operation, with the database unchanged. */
char *transact_run(struct db *, const char *text, size_t n,
                   txn_commit_cb *cb, void *aux, struct json **replyp);

#endif
