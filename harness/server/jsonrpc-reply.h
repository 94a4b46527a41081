/* The JSON the server builds from the in-memory database for its clients and
 * its file: JSON-RPC replies and notifications (RFC 7047 section 4, and
 * monitor_cond's "update2"), and the snapshot record compaction writes.  Every
 * builder returns a new tree the caller destroys. */
#ifndef HARNESS_JSONRPC_REPLY_H
#define HARNESS_JSONRPC_REPLY_H 1

#include <stddef.h>

struct column_schema;
struct db;
struct json;
struct row;
struct table_schema;
struct uuid;

/* {"id": ID, "result": RESULT, "error": null}, taking 'id' and 'result'. */
struct json *jsonrpc_reply(struct json *id, struct json *result);

/* The reply to the "transact" of one "select" per table (all columns plus
 * _uuid and _version, rows sorted by UUID) that `ovsdb-client dump` sends:
 * {"id": ID, "result": [{"rows": [...]}, ...], "error": null}. */
struct json *dump_reply(const struct db *, long long id);

/* The reply to a "transact" of one "insert" that created 'uuid':
 * {"id": ID, "result": [{"uuid": ["uuid", "<uuid>"]}], "error": null}, with
 * a copy of 'id'. */
struct json *insert_reply(const struct json *id, const struct uuid *);

/* monitor_cond's <table-updates2> rows: {"<uuid>": {"initial": {<non-default
 * columns>, "_version": V}}, ...} if 'modified' is NULL, else {"<uuid>":
 * {"modify": {"<modified>": <value>, "_version": V}}, ...} (the columns
 * `ovsdb-client monitor-cond` asks for include _version).  The tree form builds every node; the
 * direct form writes each row's text straight into a serialized node. */
struct json *update2_rows_tree(const struct table_schema *, struct row **rows,
                               size_t n, const struct column_schema *modified);
struct json *update2_rows_direct(const struct table_schema *,
                                 struct row **rows, size_t n,
                                 const struct column_schema *modified);
/* {"<table>": ROWS}, taking 'rows'. */
struct json *update2_table_updates(const char *table, struct json *rows);
/* {"id": null, "method": "update2", "params": ["monid", UPDATES]}, taking
 * 'table_updates'. */
struct json *update2_notification(struct json *table_updates);

/* The snapshot record `ovsdb-tool compact` writes after the schema:
 * {"<table>": {"<uuid>": {<non-default columns>}, ...}, ...}, tables without
 * rows left out, rows in UUID order. */
struct json *snapshot_record(const struct db *);

#endif
