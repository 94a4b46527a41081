/* Converting a database to a new schema in memory, as ovsdb-server does for
 * a "convert" request (OVS's ovsdb_convert()). */
#ifndef HARNESS_DB_CONVERT_H
#define HARNESS_DB_CONVERT_H 1

#include <stddef.h>

struct db;
struct db_schema;

/* What a column whose type did not change gets.  CLONE: the datum shared
 * (reference count; a copy in the json-only model), as OVS since
 * b7f540129 (3.2); JSON: converted through JSON like every other, as
 * before. */
enum convert_unchanged { CONVERT_UNCHANGED_CLONE, CONVERT_UNCHANGED_JSON };

struct db_convert_stats {
    size_t rows;                /* Rows copied into the new database. */
    size_t converted;           /* Datums converted through JSON. */
    size_t cloned;              /* Datums shared (unchanged type). */
    size_t added;               /* Columns of the new rows left default. */
    size_t dropped;             /* Source datums with no column to go to. */
};

/* Builds in '*dstp' a database of 'schema' (taken, freed on error) holding
 * every row of 'src' whose table 'schema' has, with the same UUID, each
 * column the new schema keeps converted to its new type (the old datum
 * written as JSON and parsed with the new type, as ovsdb_datum_convert()
 * does), new columns at their defaults; the full model inserts the rows
 * as one transaction and commits it with its checks.  'src' is unchanged
 * but for the reference counts of shared datums.  Returns NULL or a
 * malloc'd error naming table, row and column. */
char *db_convert(struct db *src, struct db_schema *schema,
                 enum convert_unchanged, struct db **dstp,
                 struct db_convert_stats *);

#endif
