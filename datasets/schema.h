/* A small model of an OVSDB schema (RFC 7047 section 3.2), read with the
 * project's JSON API: tables, columns, atomic types and their constraints.
 * Shared by ovsdb-gen (which must obey the constraints) and ovsdb-stats
 * (which needs column types to count atoms and apply diffs). */
#ifndef DATASETS_SCHEMA_H
#define DATASETS_SCHEMA_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json;

enum atom_type {
    ATOM_VOID,                  /* No value type: the column is not a map. */
    ATOM_INTEGER,
    ATOM_REAL,
    ATOM_BOOLEAN,
    ATOM_STRING,
    ATOM_UUID,
    N_ATOM_TYPES
};

const char *atom_type_name(enum atom_type);

/* One atomic type with its constraints. */
struct base_type {
    enum atom_type type;
    int64_t min_int, max_int;       /* Integer bounds (inclusive). */
    double min_real, max_real;
    size_t min_len, max_len;        /* String length bounds, in bytes. */
    char **enum_strings;            /* Allowed strings, if constrained... */
    int64_t *enum_ints;             /* ...or allowed integers. */
    size_t n_enum;
    char *ref_table_name;           /* UUID referencing a table, or NULL. */
    int ref_table;                  /* Its index in the schema, or -1. */
    bool ref_strong;
};

struct column {
    char *name;
    struct base_type key;
    struct base_type value;         /* ATOM_VOID unless a map. */
    unsigned int min, max;          /* max is UINT_MAX for "unlimited". */
    bool ephemeral;
};

static inline bool column_is_map(const struct column *c)
{
    return c->value.type != ATOM_VOID;
}
/* Exactly one atom: the JSON is a bare atom, and its default counts. */
static inline bool column_is_scalar(const struct column *c)
{
    return c->min == 1 && c->max == 1 && !column_is_map(c);
}

struct table {
    char *name;
    struct column *columns;
    size_t n_columns;
    bool is_root;
    long long max_rows;             /* -1 if unlimited. */
};

struct schema {
    char *name;
    char *version;
    struct table *tables;
    size_t n_tables;
};

/* Parses 'json' (a schema object).  On error returns NULL and sets '*errorp'
 * to a malloc'd message that names the table and column at fault. */
struct schema *schema_from_json(const struct json *, char **errorp);
/* Reads and parses a .ovsschema file; errors name the file. */
struct schema *schema_read_file(const char *file_name, char **errorp);
void schema_destroy(struct schema *);

int schema_find_table(const struct schema *, const char *name);
int table_find_column(const struct table *, const char *name);

#endif /* DATASETS_SCHEMA_H */
