/* OVSDB types (RFC 7047 section 3.2): atomic types with their constraints,
 * and column types (key, optional value, min/max number of elements). */
#ifndef OVSDB_TYPES_H
#define OVSDB_TYPES_H 1

#include <stdbool.h>
#include <stdint.h>

struct datum;
struct json;
struct table_schema;

enum atomic_type {
    ATOMIC_VOID,                /* No value (the value of a set). */
    ATOMIC_INTEGER,
    ATOMIC_REAL,
    ATOMIC_BOOLEAN,
    ATOMIC_STRING,
    ATOMIC_UUID,
    N_ATOMIC_TYPES
};

const char *atomic_type_to_string(enum atomic_type);
bool atomic_type_from_string(const char *, enum atomic_type *);

enum ref_type { REF_STRONG, REF_WEAK };

/* An atomic type and its constraints. */
struct base_type {
    enum atomic_type type;
    struct datum *enum_;        /* Allowed values (a set), or NULL. */
    union {
        struct { int64_t min, max; } integer;
        struct { double min, max; } real;
        struct { unsigned int min_len, max_len; } string;
        struct {
            char *ref_table_name;               /* NULL if not a reference. */
            const struct table_schema *ref_table;  /* Resolved after parse. */
            enum ref_type ref_type;
        } uuid;
    } u;
};

#define TYPE_UNLIMITED UINT32_MAX

/* A column type: a scalar (min = max = 1, no value), a set or a map. */
struct ovsdb_type {
    struct base_type key;
    struct base_type value;     /* ATOMIC_VOID unless a map. */
    unsigned int n_min, n_max;  /* n_max may be TYPE_UNLIMITED. */
};

static inline bool ovsdb_type_is_map(const struct ovsdb_type *t)
{
    return t->value.type != ATOMIC_VOID;
}

static inline bool ovsdb_type_is_scalar(const struct ovsdb_type *t)
{
    return t->n_min == 1 && t->n_max == 1 && !ovsdb_type_is_map(t);
}

void base_type_init(struct base_type *, enum atomic_type);
void base_type_destroy(struct base_type *);
char *base_type_from_json(struct base_type *, const struct json *);
void ovsdb_type_destroy(struct ovsdb_type *);
/* A deep copy (enum sets and refTable names duplicated), as OVS keeps one
 * in every weak reference. */
void ovsdb_type_clone(struct ovsdb_type *dst, const struct ovsdb_type *src);
/* Whether 'a' and 'b' are the same type, constraints included (OVS's
 * ovsdb_type_equals(); refTable compared by name). */
bool base_type_equals(const struct base_type *, const struct base_type *);
bool ovsdb_type_equals(const struct ovsdb_type *, const struct ovsdb_type *);
/* Parses a column "type" value.  Returns NULL or a malloc'd error. */
char *ovsdb_type_from_json(struct ovsdb_type *, const struct json *);

#endif /* OVSDB_TYPES_H */
