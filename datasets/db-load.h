/* Loading an OVSDB standalone database file (snapshot or log) as its live
 * rows, each kept as JSON text in the mapped file: what ovsdb-stats counts,
 * derives twin profiles from and compares. */
#ifndef DATASETS_DB_LOAD_H
#define DATASETS_DB_LOAD_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ovsdb/mapped-reader.h"
#include "ovsdb/schema.h"
#include "util.h"

struct json;

/* A row: (table, uuid) -> JSON text of the row object. */
struct db_row {
    uint64_t uuid_hi, uuid_lo;
    const char *text;           /* NULL once deleted. */
    uint32_t len;
    int32_t table;
    bool owned;                 /* 'text' is heap memory. */
    uint32_t record;            /* Record that last wrote it, for errors
                                 * (fits in what was padding). */
};

struct db_row_store {
    struct db_row *rows;        /* Live rows have 'text'. */
    size_t n, allocated;
    uint32_t *slots;            /* Index + 1 into 'rows'; 0 is empty. */
    size_t mask;
};

struct db_file {
    const char *file;
    struct mapped_reader f;
    struct db_schema *schema;
    struct db_row_store store;
    uint64_t n_records, n_txns, n_inserts, n_modifies, n_deletes;
};

/* Maps 'file_name' and applies every record; on any error prints "FILE:
 * record N at byte offset O: what" and exits. */
void db_file_load(struct db_file *, const char *file_name);
void db_file_close(struct db_file *);

/* The live row of 'table' that the UUID atom 'atom' (["uuid", "..."])
 * names, or NULL. */
const struct db_row *db_file_find(const struct db_file *, int table,
                                  const struct json *atom);

/* Parses a live row into a JSON object; exits naming file, record and byte
 * offset if it is not one. */
struct json *db_file_parse_row(const struct db_file *, const struct db_row *);
void db_file_row_fatal(const struct db_file *, const struct db_row *,
                       const char *msg) OVS_NO_RETURN;

/* The elements of a datum: a bare atom, ["set",[...]] or ["map",[...]]. */
enum datum_form { D_ATOM, D_SET, D_MAP };
enum datum_form datum_form(const struct json *, const struct json **elems);

#endif /* DATASETS_DB_LOAD_H */
