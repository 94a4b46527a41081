/* OVSDB atomic and column types parsed from a schema; see types.h. */
#include "ovsdb/types.h"

#include <float.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ovsdb/datum.h"
#include "json.h"
#include "util.h"

static const char *const atomic_names[N_ATOMIC_TYPES] = {
    "void", "integer", "real", "boolean", "string", "uuid",
};

const char *
atomic_type_to_string(enum atomic_type t)
{
    return t < N_ATOMIC_TYPES ? atomic_names[t] : "<invalid>";
}

bool
atomic_type_from_string(const char *s, enum atomic_type *t)
{
    for (int i = ATOMIC_INTEGER; i < N_ATOMIC_TYPES; i++) {
        if (!strcmp(s, atomic_names[i])) {
            *t = i;
            return true;
        }
    }
    return false;
}

void
base_type_init(struct base_type *b, enum atomic_type type)
{
    memset(b, 0, sizeof *b);
    b->type = type;
    switch (type) {
    case ATOMIC_INTEGER:
        b->u.integer.min = INT64_MIN;
        b->u.integer.max = INT64_MAX;
        break;
    case ATOMIC_REAL:
        b->u.real.min = -DBL_MAX;
        b->u.real.max = DBL_MAX;
        break;
    case ATOMIC_STRING:
        b->u.string.min_len = 0;
        b->u.string.max_len = UINT_MAX;
        break;
    case ATOMIC_UUID:
        b->u.uuid.ref_type = REF_STRONG;
        break;
    case ATOMIC_VOID:
    case ATOMIC_BOOLEAN:
    case N_ATOMIC_TYPES:
        break;
    }
}

void
base_type_destroy(struct base_type *b)
{
    if (b->enum_) {
        struct ovsdb_type t = { .n_min = 0, .n_max = TYPE_UNLIMITED };
        base_type_init(&t.key, b->type);
        t.value.type = ATOMIC_VOID;
        datum_destroy(b->enum_, &t);
        xfree(b->enum_);
        b->enum_ = NULL;
    }
    if (b->type == ATOMIC_UUID) {
        xfree(b->u.uuid.ref_table_name);
        b->u.uuid.ref_table_name = NULL;
    }
}

/* Reads optional numeric member 'name' of 'json' into '*out'. */
static char *
get_number(const struct json *json, const char *name, bool integer,
           double *out, bool *present)
{
    const struct json *v = json_object_get(json, name);

    *present = v != NULL;
    if (!v) {
        return NULL;
    }
    enum json_type t = json_get_type(v);
    if (t != JSON_INTEGER && (integer || t != JSON_REAL)) {
        return xasprintf("\"%s\" must be %s", name,
                         integer ? "an integer" : "a number");
    }
    *out = json_real(v);
    return NULL;
}

/* Reads the optional members 'min_name' and 'max_name' of 'json' into
 * '*minp' and '*maxp' (NULL if absent). */
static char *
get_bounds(const struct json *json, const char *min_name,
           const char *max_name, bool integer, const struct json **minp,
           const struct json **maxp)
{
    double v;
    bool present;
    char *error = get_number(json, min_name, integer, &v, &present);

    *minp = *maxp = NULL;
    if (!error) {
        *minp = present ? json_object_get(json, min_name) : NULL;
        error = get_number(json, max_name, integer, &v, &present);
        *maxp = !error && present ? json_object_get(json, max_name) : NULL;
    }
    return error;
}

static char *
parse_integer_bounds(struct base_type *b, const struct json *json)
{
    const struct json *min, *max;
    char *error = get_bounds(json, "minInteger", "maxInteger", true, &min,
                             &max);
    if (min) {
        b->u.integer.min = json_integer(min);
    }
    if (max) {
        b->u.integer.max = json_integer(max);
    }
    return error;
}

static char *
parse_real_bounds(struct base_type *b, const struct json *json)
{
    const struct json *min, *max;
    char *error = get_bounds(json, "minReal", "maxReal", false, &min, &max);
    if (min) {
        b->u.real.min = json_real(min);
    }
    if (max) {
        b->u.real.max = json_real(max);
    }
    return error;
}

static unsigned int
clamp_length(double v)
{
    return v < 0 ? 0 : v > UINT_MAX ? UINT_MAX : v;
}

static char *
parse_string_lengths(struct base_type *b, const struct json *json)
{
    const struct json *min, *max;
    char *error = get_bounds(json, "minLength", "maxLength", true, &min,
                             &max);
    if (min) {
        b->u.string.min_len = clamp_length(json_real(min));
    }
    if (max) {
        b->u.string.max_len = clamp_length(json_real(max));
    }
    return error;
}

static char *
parse_uuid_ref(struct base_type *b, const struct json *json)
{
    const struct json *rt = json_object_get(json, "refTable");
    const struct json *rk = json_object_get(json, "refType");

    if (rt) {
        if (json_get_type(rt) != JSON_STRING) {
            return xasprintf("\"refTable\" must be a string");
        }
        b->u.uuid.ref_table_name = xstrdup(json_string(rt));
    }
    if (rk) {
        if (json_get_type(rk) != JSON_STRING
            || (strcmp(json_string(rk), "strong")
                && strcmp(json_string(rk), "weak"))) {
            return xasprintf("\"refType\" must be strong or weak");
        }
        b->u.uuid.ref_type = (!strcmp(json_string(rk), "weak")
                              ? REF_WEAK : REF_STRONG);
    }
    return NULL;
}

/* The enum is a set of atoms of this type, without constraints. */
static char *
parse_enum(struct base_type *b, const struct json *ej)
{
    struct ovsdb_type t = { .n_min = 1, .n_max = TYPE_UNLIMITED };
    base_type_init(&t.key, b->type);
    t.value.type = ATOMIC_VOID;
    b->enum_ = xmalloc(sizeof *b->enum_);

    char *error = datum_from_json(b->enum_, &t, ej, false);
    if (error) {
        xfree(b->enum_);
        b->enum_ = NULL;
        char *e = xasprintf("bad \"enum\": %s", error);
        xfree(error);
        return e;
    }
    return NULL;
}

char *
base_type_from_json(struct base_type *b, const struct json *json)
{
    enum atomic_type type;

    if (json_get_type(json) == JSON_STRING) {
        if (!atomic_type_from_string(json_string(json), &type)) {
            return xasprintf("unknown atomic type \"%s\"", json_string(json));
        }
        base_type_init(b, type);
        return NULL;
    }
    if (json_get_type(json) != JSON_OBJECT) {
        return xasprintf("atomic type must be a string or an object");
    }
    const struct json *tj = json_object_get(json, "type");
    if (!tj || json_get_type(tj) != JSON_STRING
        || !atomic_type_from_string(json_string(tj), &type)) {
        return xasprintf("atomic type object lacks a valid \"type\"");
    }
    base_type_init(b, type);

    char *error = NULL;
    switch (type) {
    case ATOMIC_INTEGER:
        error = parse_integer_bounds(b, json);
        break;
    case ATOMIC_REAL:
        error = parse_real_bounds(b, json);
        break;
    case ATOMIC_STRING:
        error = parse_string_lengths(b, json);
        break;
    case ATOMIC_UUID:
        error = parse_uuid_ref(b, json);
        break;
    case ATOMIC_VOID:
    case ATOMIC_BOOLEAN:
    case N_ATOMIC_TYPES:
        break;
    }

    const struct json *ej = json_object_get(json, "enum");
    if (!error && ej) {
        error = parse_enum(b, ej);
    }
    if (error) {
        base_type_destroy(b);
    }
    return error;
}

static void
base_type_clone(struct base_type *dst, const struct base_type *src)
{
    *dst = *src;
    if (src->enum_) {
        struct ovsdb_type t = { .n_min = 0, .n_max = TYPE_UNLIMITED };
        base_type_init(&t.key, src->type);
        t.value.type = ATOMIC_VOID;
        dst->enum_ = xmalloc(sizeof *dst->enum_);
        datum_clone(dst->enum_, src->enum_, &t);
    }
    if (src->type == ATOMIC_UUID && src->u.uuid.ref_table_name) {
        dst->u.uuid.ref_table_name = xstrdup(src->u.uuid.ref_table_name);
    }
}

void
ovsdb_type_clone(struct ovsdb_type *dst, const struct ovsdb_type *src)
{
    base_type_clone(&dst->key, &src->key);
    base_type_clone(&dst->value, &src->value);
    dst->n_min = src->n_min;
    dst->n_max = src->n_max;
}

void
ovsdb_type_destroy(struct ovsdb_type *t)
{
    base_type_destroy(&t->key);
    base_type_destroy(&t->value);
}

static char *
parse_count(const struct json *json, const char *name, unsigned int dflt,
            bool allow_unlimited, unsigned int *out)
{
    const struct json *v = json_object_get(json, name);

    if (!v) {
        *out = dflt;
    } else if (allow_unlimited && json_get_type(v) == JSON_STRING
               && !strcmp(json_string(v), "unlimited")) {
        *out = TYPE_UNLIMITED;
    } else if (json_get_type(v) == JSON_INTEGER && json_integer(v) >= 0
               && json_integer(v) < TYPE_UNLIMITED) {
        *out = json_integer(v);
    } else {
        return xasprintf("bad \"%s\" in column type", name);
    }
    return NULL;
}

char *
ovsdb_type_from_json(struct ovsdb_type *t, const struct json *json)
{
    char *error;

    memset(t, 0, sizeof *t);
    t->value.type = ATOMIC_VOID;
    t->n_min = t->n_max = 1;
    if (json_get_type(json) == JSON_STRING) {
        return base_type_from_json(&t->key, json);
    }
    if (json_get_type(json) != JSON_OBJECT) {
        return xasprintf("column type must be a string or an object");
    }
    const struct json *key = json_object_get(json, "key");
    const struct json *value = json_object_get(json, "value");
    if (!key) {
        return xasprintf("column type lacks \"key\"");
    }
    error = base_type_from_json(&t->key, key);
    if (!error && value) {
        error = base_type_from_json(&t->value, value);
        if (error) {
            t->value.type = ATOMIC_VOID;
        }
    }
    if (!error) {
        error = parse_count(json, "min", 1, false, &t->n_min);
    }
    if (!error) {
        error = parse_count(json, "max", 1, true, &t->n_max);
    }
    if (!error && (t->n_min > 1 || t->n_max < 1 || t->n_min > t->n_max)) {
        error = xasprintf("bad min/max in column type");
    }
    if (error) {
        ovsdb_type_destroy(t);
    }
    return error;
}

bool
base_type_equals(const struct base_type *a, const struct base_type *b)
{
    if (a->type != b->type || !a->enum_ != !b->enum_) {
        return false;
    }
    if (a->enum_) {
        struct ovsdb_type t = { .key = { .type = a->type },
                                .value = { .type = ATOMIC_VOID },
                                .n_min = 0, .n_max = TYPE_UNLIMITED };
        if (!datum_equals(a->enum_, b->enum_, &t)) {
            return false;
        }
    }
    switch (a->type) {
    case ATOMIC_INTEGER:
        return (a->u.integer.min == b->u.integer.min
                && a->u.integer.max == b->u.integer.max);
    case ATOMIC_REAL:
        return a->u.real.min == b->u.real.min && a->u.real.max == b->u.real.max;
    case ATOMIC_STRING:
        return (a->u.string.min_len == b->u.string.min_len
                && a->u.string.max_len == b->u.string.max_len);
    case ATOMIC_UUID:
        if (!a->u.uuid.ref_table_name || !b->u.uuid.ref_table_name) {
            return !a->u.uuid.ref_table_name && !b->u.uuid.ref_table_name;
        }
        return (!strcmp(a->u.uuid.ref_table_name, b->u.uuid.ref_table_name)
                && a->u.uuid.ref_type == b->u.uuid.ref_type);
    case ATOMIC_VOID:
    case ATOMIC_BOOLEAN:
    case N_ATOMIC_TYPES:
    default:
        return true;
    }
}

bool
ovsdb_type_equals(const struct ovsdb_type *a, const struct ovsdb_type *b)
{
    return (base_type_equals(&a->key, &b->key)
            && base_type_equals(&a->value, &b->value)
            && a->n_min == b->n_min && a->n_max == b->n_max);
}
