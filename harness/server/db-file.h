/* Loading a whole OVSDB standalone file into a struct db. */
#ifndef HARNESS_DB_FILE_H
#define HARNESS_DB_FILE_H 1

#include <stdint.h>

struct db;
struct db_schema;

struct db_load_stats {
    uint64_t records;           /* Including the schema record. */
    uint64_t bytes;             /* File bytes read. */
};

/* Reads schema and transactions of 'file_name'.  Returns NULL and sets
 * '*dbp', or returns a malloc'd error naming file, record and offset. */
char *db_load_file(const char *file_name, struct db **dbp,
                   struct db_load_stats *);

/* The same into 'schema' (taken, freed on error) instead of the file's own,
 * as `ovsdb-tool convert` reads a standalone database
 * (ovsdb_file_read_as_schema()): tables and columns 'schema' lacks are
 * skipped, the other values parsed with its types; errors also name the
 * record and offset.  A clustered file is an error. */
char *db_load_file_as(const char *file_name, struct db_schema *schema,
                      struct db **dbp, struct db_load_stats *);

#endif
