/* Database schema (RFC 7047 section 3.2), parsed from the first record of an
 * OVSDB file.  Accepts the schemas of OVS 2.x-3.x (optional "version",
 * "cksum", "isRoot", "maxRows", "indexes", "ephemeral", "mutable"). */
#ifndef OVSDB_SCHEMA_H
#define OVSDB_SCHEMA_H 1

#include <stddef.h>

#include "shash.h"
#include "ovsdb/types.h"

struct json;

struct column_schema {
    char *name;
    unsigned int index;         /* In struct row's 'fields'. */
    struct ovsdb_type type;
    bool ephemeral;
};

/* A table index: rows must differ in these columns (RFC 7047 "indexes"). */
struct index_schema {
    unsigned int n_columns;
    unsigned int *columns;      /* Column indexes, in the schema's order. */
};

struct table_schema {
    char *name;
    unsigned int index;         /* In struct db's 'tables'. */
    struct shash columns_by_name;   /* name -> struct column_schema *. */
    struct column_schema **columns; /* Sorted by name. */
    unsigned int n_columns;
    bool is_root;
    long long max_rows;         /* 0 if unlimited (OVSDB requires >= 1). */
    struct index_schema *indexes;
    unsigned int n_indexes;
};

struct db_schema {
    char *name;
    char *version;              /* "" if absent. */
    struct shash tables_by_name;    /* name -> struct table_schema *. */
    struct table_schema **tables;   /* Sorted by name. */
    unsigned int n_tables;
    struct json *json;          /* The schema as read, for compaction. */
};

/* Parses 'json' (takes a clone).  Returns NULL and sets '*schemap', or
 * returns a malloc'd error. */
char *db_schema_from_json(const struct json *, struct db_schema **schemap);
/* Reads and parses a .ovsschema file; errors name the file. */
char *db_schema_read_file(const char *file_name, struct db_schema **schemap);
void db_schema_destroy(struct db_schema *);
const struct table_schema *db_schema_find_table(const struct db_schema *,
                                                const char *name);
const struct column_schema *table_schema_find_column(
    const struct table_schema *, const char *name);
/* Index in 'tables' (or 'columns') of the named one, or -1. */
int db_schema_table_index(const struct db_schema *, const char *name);
int table_schema_column_index(const struct table_schema *, const char *name);

#endif /* OVSDB_SCHEMA_H */
