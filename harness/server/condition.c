/* Monitor conditions (condition.h): parsing a JSON array of clauses against
 * a table's schema, and evaluating it on a row with RFC 7047's semantics for
 * each function. */
#include "server/condition.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "server/db.h"
#include "json.h"
#include "ovsdb/schema.h"
#include "util.h"

static const char *const function_names[] = {
    [CF_EQ] = "==", [CF_NE] = "!=", [CF_LT] = "<", [CF_LE] = "<=",
    [CF_GT] = ">", [CF_GE] = ">=", [CF_INCLUDES] = "includes",
    [CF_EXCLUDES] = "excludes",
};

/* The _uuid column every table has (RFC 7047), which the schemas here do
 * not list: a scalar UUID, tested against the row's own. */
static const struct column_schema uuid_column = {
    .name = (char *) "_uuid",
    .index = UINT_MAX,
    .type = { .key = { .type = ATOMIC_UUID },
              .value = { .type = ATOMIC_VOID },
              .n_min = 1, .n_max = 1 },
};

static char *
parse_clause(struct clause *cl, const struct table_schema *ts,
             const struct json *json, bool allow_uuid)
{
    memset(cl, 0, sizeof *cl);
    enum json_type jtype = json_get_type(json);
    if (jtype == JSON_TRUE || jtype == JSON_FALSE) {
        cl->function = jtype == JSON_TRUE ? CF_TRUE : CF_FALSE;
        return NULL;
    }
    if (jtype != JSON_ARRAY || json_array_size(json) != 3
        || json_get_type(json_array_at(json, 0)) != JSON_STRING
        || json_get_type(json_array_at(json, 1)) != JSON_STRING) {
        return xasprintf("a clause is [column, function, value], true or "
                         "false");
    }
    const char *column = json_string(json_array_at(json, 0));
    const char *function = json_string(json_array_at(json, 1));
    cl->column = table_schema_find_column(ts, column);
    if (!cl->column && allow_uuid && !strcmp(column, "_uuid")) {
        cl->column = &uuid_column;
    }
    if (!cl->column) {
        return xasprintf("table %s has no column \"%s\"", ts->name, column);
    }
    size_t f;
    for (f = 0; f < ARRAY_SIZE(function_names); f++) {
        if (!strcmp(function, function_names[f])) {
            break;
        }
    }
    if (f == ARRAY_SIZE(function_names)) {
        return xasprintf("unknown function \"%s\"", function);
    }
    cl->function = f;
    if (cl->column == &uuid_column && f != CF_EQ && f != CF_NE) {
        return xasprintf("_uuid: only == and != are supported, not \"%s\"",
                         function);
    }
    const struct ovsdb_type *type = &cl->column->type;
    if (f >= CF_LT && f <= CF_GE
        && (!ovsdb_type_is_scalar(type)
            || (type->key.type != ATOMIC_INTEGER
                && type->key.type != ATOMIC_REAL))) {
        return xasprintf("\"%s\" needs an integer or real column", function);
    }
    char *error = datum_from_json(&cl->arg, type, json_array_at(json, 2),
                                  true);
    if (error) {
        char *e = xasprintf("column %s: %s", column, error);
        xfree(error);
        return e;
    }
    return NULL;
}

char *
condition_from_json(struct condition *cond, const struct table_schema *ts,
                    const struct json *json, enum condition_kind kind)
{
    bool allow_uuid = kind == CONDITION_WHERE;
    char *error = NULL;

    cond->clauses = NULL;
    cond->n = 0;
    cond->any = kind == CONDITION_MONITOR;
    if (json_get_type(json) != JSON_ARRAY) {
        return xasprintf("condition must be a JSON array of clauses");
    }
    size_t n = json_array_size(json);
    cond->clauses = xcalloc(n ? n : 1, sizeof *cond->clauses);
    for (size_t i = 0; i < n && !error; i++) {
        error = parse_clause(&cond->clauses[i], ts, json_array_at(json, i),
                             allow_uuid);
        if (!error) {
            cond->n++;
        } else {
            /* Free a half-parsed clause's argument, if any. */
            struct clause *cl = &cond->clauses[i];
            if (cl->column) {
                datum_destroy(&cl->arg, &cl->column->type);
            }
        }
    }
    if (error) {
        condition_destroy(cond);
    }
    return error;
}

char *
condition_parse(struct condition *cond, const struct table_schema *ts,
                const char *text)
{
    struct json *json = json_from_string(text);
    char *error;

    if (json_get_type(json) == JSON_STRING) {
        cond->clauses = NULL;
        cond->n = 0;
        cond->any = true;
        error = xasprintf("condition is not valid JSON: %s",
                          json_string(json));
    } else {
        error = condition_from_json(cond, ts, json, CONDITION_MONITOR);
    }
    json_destroy(json);
    return error;
}

const struct uuid *
condition_uuid_eq(const struct condition *cond)
{
    for (size_t i = 0; i < cond->n; i++) {
        const struct clause *cl = &cond->clauses[i];
        if (cl->column == &uuid_column && cl->function == CF_EQ) {
            return &cl->arg.keys[0].uuid;
        }
    }
    return NULL;
}

/* True if every element (and value) of 'small' is in 'big'. */
static bool
datum_includes(const struct datum *big, const struct datum *small,
               const struct ovsdb_type *t)
{
    for (unsigned int i = 0; i < small->n; i++) {
        unsigned int j = datum_find_key(big, &small->keys[i], t->key.type);
        if (j == (unsigned int) -1
            || (small->values && !atom_equals(&big->values[j],
                                              &small->values[i],
                                              t->value.type))) {
            return false;
        }
    }
    return true;
}

/* True if no element (or, for a map, no pair) of 'small' is in 'big'. */
static bool
datum_excludes(const struct datum *big, const struct datum *small,
               const struct ovsdb_type *t)
{
    for (unsigned int i = 0; i < small->n; i++) {
        unsigned int j = datum_find_key(big, &small->keys[i], t->key.type);
        if (j != (unsigned int) -1
            && (!small->values || atom_equals(&big->values[j],
                                              &small->values[i],
                                              t->value.type))) {
            return false;
        }
    }
    return true;
}

/* 'fields' is the datum of column 0; column i's is 'stride' bytes further
 * on per column (a row's fields, or a change set's old or new values). */
static bool
clause_matches(const struct clause *cl, const struct datum *fields,
               size_t stride, const struct uuid *row_uuid)
{
    if (cl->function == CF_TRUE || cl->function == CF_FALSE) {
        return cl->function == CF_TRUE;
    }
    if (cl->column == &uuid_column) {
        /* Only conditions parsed with allow_uuid have it, and only rows
         * are tested against those. */
        bool eq = row_uuid && uuid_equals(&cl->arg.keys[0].uuid, row_uuid);
        return cl->function == CF_EQ ? eq : !eq;
    }
    const struct ovsdb_type *t = &cl->column->type;
    const struct datum *d = (const struct datum *) (const void *)
        ((const char *) fields + cl->column->index * stride);
    int cmp;

    switch (cl->function) {
    case CF_EQ:
        return datum_equals(d, &cl->arg, t);
    case CF_NE:
        return !datum_equals(d, &cl->arg, t);
    case CF_INCLUDES:
        return datum_includes(d, &cl->arg, t);
    case CF_EXCLUDES:
        return datum_excludes(d, &cl->arg, t);
    case CF_LT:
    case CF_LE:
    case CF_GT:
    case CF_GE:
        if (d->n != 1 || cl->arg.n != 1) {
            return false;
        }
        cmp = atom_compare(&d->keys[0], &cl->arg.keys[0], t->key.type);
        return (cl->function == CF_LT ? cmp < 0
                : cl->function == CF_LE ? cmp <= 0
                : cl->function == CF_GT ? cmp > 0 : cmp >= 0);
    case CF_TRUE:
    case CF_FALSE:
        break;
    }
    return false;
}

static bool
matches(const struct condition *cond, const struct datum *fields,
        size_t stride, const struct uuid *row_uuid)
{
    if (cond->any) {
        for (size_t i = 0; i < cond->n; i++) {
            if (clause_matches(&cond->clauses[i], fields, stride, row_uuid)) {
                return true;
            }
        }
        return !cond->n;
    }
    for (size_t i = 0; i < cond->n; i++) {
        if (!clause_matches(&cond->clauses[i], fields, stride, row_uuid)) {
            return false;
        }
    }
    return true;
}

bool
condition_matches(const struct condition *cond, const struct row *row)
{
    return matches(cond, row->fields, sizeof *row->fields, &row->uuid);
}

bool
condition_matches_at(const struct condition *cond,
                     const struct datum *fields, size_t stride)
{
    return matches(cond, fields, stride, NULL);
}

bool
condition_is_true(const struct condition *cond)
{
    for (size_t i = 0; i < cond->n; i++) {
        if (cond->clauses[i].function == CF_TRUE) {
            return true;
        }
    }
    return !cond->n;
}

static bool
clause_equals(const struct clause *x, const struct clause *y)
{
    return (x->function == y->function && x->column == y->column
            && (!x->column || datum_equals(&x->arg, &y->arg,
                                           &x->column->type)));
}

/* True if every clause of 'a' is one of 'b''s.  Quadratic: a client's
 * condition has a few clauses, one per value it wants. */
static bool
clauses_within(const struct condition *a, const struct condition *b)
{
    for (size_t i = 0; i < a->n; i++) {
        size_t j = 0;
        while (j < b->n && !clause_equals(&a->clauses[i], &b->clauses[j])) {
            j++;
        }
        if (j == b->n) {
            return false;
        }
    }
    return true;
}

bool
condition_equals(const struct condition *a, const struct condition *b)
{
    return (a->any == b->any && clauses_within(a, b)
            && clauses_within(b, a));
}

void
condition_destroy(struct condition *cond)
{
    for (size_t i = 0; i < cond->n; i++) {
        struct clause *cl = &cond->clauses[i];
        if (cl->column) {
            datum_destroy(&cl->arg, &cl->column->type);
        }
    }
    xfree(cond->clauses);
    cond->clauses = NULL;
    cond->n = 0;
}
