/* Conditions: [column, function, value] clauses or true/false.  A
 * transaction's "where" (RFC 7047) holds if every clause does; monitor_cond's
 * <condition> (ovsdb-server(7)) if any clause does, so that a client lists
 * the values it wants one clause each. */
#ifndef HARNESS_CONDITION_H
#define HARNESS_CONDITION_H 1

#include <stdbool.h>
#include <stddef.h>

#include "ovsdb/datum.h"

struct json;
struct uuid;
struct row;
struct table_schema;

enum clause_function {
    CF_EQ, CF_NE, CF_LT, CF_LE, CF_GT, CF_GE, CF_INCLUDES, CF_EXCLUDES,
    CF_TRUE, CF_FALSE
};

struct clause {
    enum clause_function function;
    const struct column_schema *column;  /* NULL for CF_TRUE/CF_FALSE. */
    struct datum arg;
};

struct condition {
    struct clause *clauses;
    size_t n;
    bool any;                   /* Disjunction (an empty one holds). */
};

/* What a condition is for, which decides how it reads. */
enum condition_kind {
    /* A transaction's "where": every clause must hold, and clauses may
     * also test the row's "_uuid" (== and != only); tested on rows only
     * (condition_matches()). */
    CONDITION_WHERE,
    /* A monitor_cond <condition>: any clause holds (an empty one holds). */
    CONDITION_MONITOR,
};

/* Parses 'text' (a JSON array of clauses) for 'table' as a monitor
 * condition.  Returns NULL or a malloc'd error. */
char *condition_parse(struct condition *, const struct table_schema *,
                      const char *text);
/* Parses 'json' (an array of clauses) for 'table' as 'kind'. */
char *condition_from_json(struct condition *, const struct table_schema *,
                          const struct json *, enum condition_kind);
/* The UUID of a clause ["_uuid", "==", U] of 'cond', or NULL: the query's
 * way to its one row through the table's hash map. */
const struct uuid *condition_uuid_eq(const struct condition *);
bool condition_matches(const struct condition *, const struct row *);
/* The same on column values that are not a row's: column i's datum is at
 * 'fields' + i * 'stride' bytes (a monitor change set's old or new values,
 * which the server tests against each client's condition). */
bool condition_matches_at(const struct condition *, const struct datum *fields,
                          size_t stride);
/* True if 'cond', a disjunction, holds for every row: it has no clause or
 * a "true" one (ovsdb_condition_is_true(), whose sorted clauses put "true"
 * first but for "false" ones).  A monitor with such conditions only is not
 * conditional: the json cache serves it. */
bool condition_is_true(const struct condition *);
/* True if 'a' and 'b' have the same clauses, in any order (ovsdb-server
 * compares conditions with their clauses sorted, so a change to an equal
 * condition sends nothing and tests no row). */
bool condition_equals(const struct condition *a, const struct condition *b);
void condition_destroy(struct condition *);

#endif
