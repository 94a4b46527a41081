/* The in-memory database: one table per schema table, rows in a hash map
 * keyed by binary UUID, each row an array of datums in column order. */
#ifndef HARNESS_DB_H
#define HARNESS_DB_H 1

#include <stddef.h>

#include "ovsdb/datum.h"
#include "ovsdb/schema.h"
#include "ovsdb/uuid.h"

struct json;

struct row {
    struct row *next;           /* In the table's hash bucket. */
    struct uuid uuid;
    struct uuid version;
    struct datum fields[];      /* One per column, in column index order. */
};

struct table {
    const struct table_schema *schema;
    struct row **buckets;
    size_t mask;                /* Number of buckets minus 1. */
    size_t n_rows;
};

struct db {
    struct db_schema *schema;   /* Owned. */
    struct table *tables;       /* One per schema->tables[i]. */
    unsigned long long n_txns;  /* Transactions applied. */
};

struct db *db_create(struct db_schema *);   /* Takes ownership. */
void db_destroy(struct db *);
size_t db_n_rows(const struct db *);
struct table *db_find_table(struct db *, const char *name);

struct row *table_find_row(const struct table *, const struct uuid *);
/* Inserts a new row with default values (asserts 'uuid' is new). */
struct row *table_insert_row(struct table *, const struct uuid *);
void table_delete_row(struct table *, struct row *);
/* Rows sorted by UUID (a malloc'd array of table->n_rows pointers). */
struct row **table_sorted_rows(const struct table *);
struct row *row_create(const struct table_schema *, const struct uuid *);
void row_destroy(struct row *, const struct table_schema *);
/* Copies every datum of 'src' through the impl's clone. */
struct row *row_clone(const struct row *, const struct table_schema *);

/* Sets the columns of 'row' named in 'json' (an object column -> value;
 * with 'is_diff', values of columns with max > 1 are diffs).  Returns NULL or an error;
 * on error 'row' may be partly updated. */
char *row_set_from_json(struct row *, const struct table_schema *,
                        const struct json *, bool is_diff);

/* Applies one transaction record of a database file (RFC 7047 "table
 * updates" shape, with _date/_comment ignored and "_is_diff" honoured).
 * Returns NULL or a malloc'd error naming table, row and column. */
char *db_apply_record(struct db *, const struct json *);

/* Builds the JSON of 'row': an object of every column ('all') or only the
 * columns with non-default values, plus "_uuid"/"_version" if asked. */
struct json *row_to_json(const struct row *, const struct table_schema *,
                         bool all_columns, bool with_uuid);

#endif
