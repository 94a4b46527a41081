/* Monitor conditions (RFC 7047 <condition>s as used by monitor_cond): a
 * conjunction of [column, function, value] clauses or true/false. */
#ifndef HARNESS_CONDITION_H
#define HARNESS_CONDITION_H 1

#include <stdbool.h>
#include <stddef.h>

#include "ovsdb/datum.h"

struct json;
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
};

/* Parses 'text' (a JSON array of clauses) for 'table'.  Returns NULL or a
 * malloc'd error. */
char *condition_parse(struct condition *, const struct table_schema *,
                      const char *text);
bool condition_matches(const struct condition *, const struct row *);
/* The same on column values that are not a row's: column i's datum is at
 * 'fields' + i * 'stride' bytes (a monitor change set's old or new values,
 * which the server tests against each client's condition). */
bool condition_matches_at(const struct condition *, const struct datum *fields,
                          size_t stride);
void condition_destroy(struct condition *);

#endif
