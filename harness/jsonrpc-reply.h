/* JSON-RPC shapes the server sends, built from the in-memory database. */
#ifndef HARNESS_REPLY_H
#define HARNESS_REPLY_H 1

struct db;
struct json;

/* The reply to the "transact" of one "select" per table (all columns plus
 * _uuid and _version, rows sorted by UUID) that `ovsdb-client dump` sends:
 * {"id": ID, "result": [{"rows": [...]}, ...], "error": null}. */
struct json *build_dump_reply(const struct db *, long long id);

#endif
