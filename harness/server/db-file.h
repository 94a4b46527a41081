/* Loading a whole OVSDB standalone file into a struct db. */
#ifndef HARNESS_DB_FILE_H
#define HARNESS_DB_FILE_H 1

#include <stdint.h>

struct db;

struct db_load_stats {
    uint64_t records;           /* Including the schema record. */
    uint64_t bytes;             /* File bytes read. */
};

/* Reads schema and transactions of 'file_name'.  Returns NULL and sets
 * '*dbp', or returns a malloc'd error naming file, record and offset. */
char *db_load_file(const char *file_name, struct db **dbp,
                   struct db_load_stats *);

#endif
