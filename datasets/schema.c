/* Reads an OVSDB schema into the model of schema.h. */
#include "schema.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ds.h"
#include "json.h"
#include "shash.h"
#include "util.h"

static const char *const atom_type_names[N_ATOM_TYPES] = {
    [ATOM_VOID] = "void", [ATOM_INTEGER] = "integer", [ATOM_REAL] = "real",
    [ATOM_BOOLEAN] = "boolean", [ATOM_STRING] = "string", [ATOM_UUID] = "uuid",
};

const char *
atom_type_name(enum atom_type type)
{
    return type < N_ATOM_TYPES ? atom_type_names[type] : "<invalid>";
}

static bool
atom_type_from_string(const char *s, enum atom_type *type)
{
    for (int i = ATOM_INTEGER; i < N_ATOM_TYPES; i++) {
        if (!strcmp(s, atom_type_names[i])) {
            *type = i;
            return true;
        }
    }
    return false;
}

static void
base_type_init(struct base_type *b, enum atom_type type)
{
    memset(b, 0, sizeof *b);
    b->type = type;
    b->min_int = INT64_MIN;
    b->max_int = INT64_MAX;
    b->min_real = -INFINITY;
    b->max_real = INFINITY;
    b->max_len = SIZE_MAX;
    b->ref_table = -1;
}

static void
base_type_destroy(struct base_type *b)
{
    for (size_t i = 0; b->enum_strings && i < b->n_enum; i++) {
        free(b->enum_strings[i]);
    }
    free(b->enum_strings);
    free(b->enum_ints);
    free(b->ref_table_name);
}

static bool
get_int(const struct json *j, const char *name, int64_t *out, char **errorp)
{
    const struct json *v = json_object_get(j, name);
    if (!v) {
        return true;
    }
    if (json_get_type(v) != JSON_INTEGER) {
        *errorp = xasprintf("\"%s\" must be an integer", name);
        return false;
    }
    *out = json_integer(v);
    return true;
}

static bool
get_real(const struct json *j, const char *name, double *out, char **errorp)
{
    const struct json *v = json_object_get(j, name);
    if (!v) {
        return true;
    }
    enum json_type t = json_get_type(v);
    if (t != JSON_INTEGER && t != JSON_REAL) {
        *errorp = xasprintf("\"%s\" must be a number", name);
        return false;
    }
    *out = json_real(v);
    return true;
}

/* Parses the "enum" constraint: one atom or ["set", [atoms...]]. */
static bool
parse_enum(struct base_type *b, const struct json *e, char **errorp)
{
    const struct json *elems = NULL;
    size_t n = 1;
    if (json_get_type(e) == JSON_ARRAY && json_array_size(e) == 2
        && json_get_type(json_array_at(e, 0)) == JSON_STRING
        && !strcmp(json_string(json_array_at(e, 0)), "set")
        && json_get_type(json_array_at(e, 1)) == JSON_ARRAY) {
        elems = json_array_at(e, 1);
        n = json_array_size(elems);
    }
    if (b->type == ATOM_STRING) {
        b->enum_strings = xcalloc(n ? n : 1, sizeof *b->enum_strings);
    } else if (b->type == ATOM_INTEGER) {
        b->enum_ints = xcalloc(n ? n : 1, sizeof *b->enum_ints);
    } else {
        /* Enums of other types are legal but no OVN column uses them; keep
         * the column unconstrained rather than refusing the schema. */
        return true;
    }
    for (size_t i = 0; i < n; i++) {
        const struct json *a = elems ? json_array_at(elems, i) : e;
        if (b->type == ATOM_STRING && json_get_type(a) == JSON_STRING) {
            b->enum_strings[b->n_enum++] = xstrdup(json_string(a));
        } else if (b->type == ATOM_INTEGER
                   && json_get_type(a) == JSON_INTEGER) {
            b->enum_ints[b->n_enum++] = json_integer(a);
        } else {
            *errorp = xasprintf("\"enum\" member %zu does not match type %s",
                                i, atom_type_name(b->type));
            return false;
        }
    }
    return true;
}

static bool
parse_base_type(struct base_type *b, const struct json *j, char **errorp)
{
    enum atom_type type;
    if (json_get_type(j) == JSON_STRING) {
        if (!atom_type_from_string(json_string(j), &type)) {
            *errorp = xasprintf("unknown atomic type \"%s\"", json_string(j));
            return false;
        }
        base_type_init(b, type);
        return true;
    }
    if (json_get_type(j) != JSON_OBJECT) {
        *errorp = xstrdup("atomic type must be a string or an object");
        return false;
    }
    const struct json *t = json_object_get(j, "type");
    if (!t || json_get_type(t) != JSON_STRING
        || !atom_type_from_string(json_string(t), &type)) {
        *errorp = xstrdup("atomic type object needs a valid \"type\"");
        return false;
    }
    base_type_init(b, type);

    int64_t min_len = 0, max_len = -1;
    if (!get_int(j, "minInteger", &b->min_int, errorp)
        || !get_int(j, "maxInteger", &b->max_int, errorp)
        || !get_real(j, "minReal", &b->min_real, errorp)
        || !get_real(j, "maxReal", &b->max_real, errorp)
        || !get_int(j, "minLength", &min_len, errorp)
        || !get_int(j, "maxLength", &max_len, errorp)) {
        return false;
    }
    b->min_len = min_len > 0 ? (size_t) min_len : 0;
    b->max_len = max_len >= 0 ? (size_t) max_len : SIZE_MAX;

    const struct json *e = json_object_get(j, "enum");
    if (e && !parse_enum(b, e, errorp)) {
        return false;
    }
    const struct json *rt = json_object_get(j, "refTable");
    if (rt) {
        if (json_get_type(rt) != JSON_STRING || type != ATOM_UUID) {
            *errorp = xstrdup("\"refTable\" must be a string on a uuid type");
            return false;
        }
        b->ref_table_name = xstrdup(json_string(rt));
        b->ref_strong = true;
        const struct json *rtype = json_object_get(j, "refType");
        if (rtype) {
            const char *s = json_get_type(rtype) == JSON_STRING
                            ? json_string(rtype) : "";
            if (!strcmp(s, "weak")) {
                b->ref_strong = false;
            } else if (strcmp(s, "strong")) {
                *errorp = xstrdup("\"refType\" must be \"strong\" or "
                                  "\"weak\"");
                return false;
            }
        }
    }
    return true;
}

static bool
parse_column_type(struct column *c, const struct json *j, char **errorp)
{
    c->min = c->max = 1;
    base_type_init(&c->value, ATOM_VOID);
    if (json_get_type(j) == JSON_STRING) {
        return parse_base_type(&c->key, j, errorp);
    }
    if (json_get_type(j) != JSON_OBJECT) {
        *errorp = xstrdup("\"type\" must be a string or an object");
        return false;
    }
    const struct json *key = json_object_get(j, "key");
    if (!key) {
        *errorp = xstrdup("\"type\" object needs \"key\"");
        return false;
    }
    if (!parse_base_type(&c->key, key, errorp)) {
        return false;
    }
    const struct json *value = json_object_get(j, "value");
    if (value) {
        base_type_destroy(&c->value);
        if (!parse_base_type(&c->value, value, errorp)) {
            return false;
        }
    }
    int64_t min = 1;
    if (!get_int(j, "min", &min, errorp)) {
        return false;
    }
    if (min < 0 || min > 1) {
        *errorp = xstrdup("\"min\" must be 0 or 1");
        return false;
    }
    c->min = min;
    const struct json *max = json_object_get(j, "max");
    if (max) {
        if (json_get_type(max) == JSON_STRING
            && !strcmp(json_string(max), "unlimited")) {
            c->max = UINT_MAX;
        } else if (json_get_type(max) == JSON_INTEGER
                   && json_integer(max) >= 1) {
            c->max = json_integer(max) > UINT_MAX - 1
                     ? UINT_MAX : (unsigned int) json_integer(max);
        } else {
            *errorp = xstrdup("\"max\" must be a positive integer or "
                              "\"unlimited\"");
            return false;
        }
    }
    if (c->min > c->max) {
        *errorp = xstrdup("\"min\" exceeds \"max\"");
        return false;
    }
    return true;
}

static bool
parse_table(struct table *t, const char *name, const struct json *j,
            char **errorp)
{
    t->name = xstrdup(name);
    t->max_rows = -1;
    if (json_get_type(j) != JSON_OBJECT) {
        *errorp = xasprintf("table %s: must be an object", name);
        return false;
    }
    const struct json *root = json_object_get(j, "isRoot");
    t->is_root = root && json_get_type(root) == JSON_TRUE;
    int64_t max_rows = -1;
    char *err = NULL;
    if (!get_int(j, "maxRows", &max_rows, &err)) {
        *errorp = xasprintf("table %s: %s", name, err);
        free(err);
        return false;
    }
    t->max_rows = max_rows;

    const struct json *cols = json_object_get(j, "columns");
    if (!cols || json_get_type(cols) != JSON_OBJECT) {
        *errorp = xasprintf("table %s: needs a \"columns\" object", name);
        return false;
    }
    /* Sorted so that the model does not depend on hash order. */
    const struct shash *cs = json_object(cols);
    const struct shash_node **sorted = shash_sort(cs);
    size_t n = shash_count(cs);
    t->columns = xcalloc(n ? n : 1, sizeof *t->columns);
    for (size_t i = 0; i < n; i++) {
        struct column *c = &t->columns[t->n_columns++];
        const struct json *cj = sorted[i]->data;
        c->name = xstrdup(sorted[i]->name);
        base_type_init(&c->key, ATOM_VOID);
        base_type_init(&c->value, ATOM_VOID);
        const struct json *type = json_get_type(cj) == JSON_OBJECT
                                  ? json_object_get(cj, "type") : NULL;
        if (!type) {
            *errorp = xasprintf("table %s, column %s: needs \"type\"",
                                name, c->name);
            free(sorted);
            return false;
        }
        base_type_destroy(&c->key);
        if (!parse_column_type(c, type, &err)) {
            *errorp = xasprintf("table %s, column %s: %s",
                                name, c->name, err);
            free(err);
            free(sorted);
            return false;
        }
        const struct json *eph = json_object_get(cj, "ephemeral");
        c->ephemeral = eph && json_get_type(eph) == JSON_TRUE;
    }
    free(sorted);
    return true;
}

struct schema *
schema_from_json(const struct json *j, char **errorp)
{
    *errorp = NULL;
    if (json_get_type(j) != JSON_OBJECT) {
        *errorp = xstrdup("schema must be a JSON object");
        return NULL;
    }
    const struct json *name = json_object_get(j, "name");
    const struct json *tables = json_object_get(j, "tables");
    if (!name || json_get_type(name) != JSON_STRING) {
        *errorp = xstrdup("schema needs a string \"name\"");
        return NULL;
    }
    if (!tables || json_get_type(tables) != JSON_OBJECT) {
        *errorp = xstrdup("schema needs a \"tables\" object");
        return NULL;
    }
    struct schema *s = xzalloc(sizeof *s);
    s->name = xstrdup(json_string(name));
    const struct json *version = json_object_get(j, "version");
    s->version = xstrdup(version && json_get_type(version) == JSON_STRING
                         ? json_string(version) : "");

    const struct shash *ts = json_object(tables);
    const struct shash_node **sorted = shash_sort(ts);
    size_t n = shash_count(ts);
    s->tables = xcalloc(n ? n : 1, sizeof *s->tables);
    for (size_t i = 0; i < n; i++) {
        struct table *t = &s->tables[s->n_tables++];
        if (!parse_table(t, sorted[i]->name, sorted[i]->data, errorp)) {
            free(sorted);
            schema_destroy(s);
            return NULL;
        }
    }
    free(sorted);

    /* Resolve references now that every table is known. */
    for (size_t i = 0; i < s->n_tables; i++) {
        struct table *t = &s->tables[i];
        for (size_t c = 0; c < t->n_columns; c++) {
            struct base_type *bases[2] = { &t->columns[c].key,
                                           &t->columns[c].value };
            for (int k = 0; k < 2; k++) {
                struct base_type *b = bases[k];
                if (b->ref_table_name) {
                    b->ref_table = schema_find_table(s, b->ref_table_name);
                    if (b->ref_table < 0) {
                        *errorp = xasprintf("table %s, column %s: refTable "
                                            "\"%s\" does not exist", t->name,
                                            t->columns[c].name,
                                            b->ref_table_name);
                        schema_destroy(s);
                        return NULL;
                    }
                }
            }
        }
    }
    return s;
}

struct schema *
schema_read_file(const char *file_name, char **errorp)
{
    *errorp = NULL;
    FILE *f = fopen(file_name, "rb");
    if (!f) {
        *errorp = xasprintf("%s: cannot open: %s", file_name,
                            strerror(errno));
        return NULL;
    }
    struct ds text = DS_EMPTY_INITIALIZER;
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        ds_put_buffer(&text, buf, n);
    }
    bool read_error = ferror(f);
    fclose(f);
    if (read_error) {
        *errorp = xasprintf("%s: read error", file_name);
        ds_destroy(&text);
        return NULL;
    }
    char *err = NULL;
    struct json *j = json_parse_buffer(text.string ? text.string : "",
                                       text.length, &err);
    ds_destroy(&text);
    if (!j) {
        *errorp = xasprintf("%s: invalid JSON: %s", file_name, err);
        free(err);
        return NULL;
    }
    struct schema *s = schema_from_json(j, &err);
    json_destroy(j);
    if (!s) {
        *errorp = xasprintf("%s: invalid schema: %s", file_name, err);
        free(err);
    }
    return s;
}

void
schema_destroy(struct schema *s)
{
    if (!s) {
        return;
    }
    for (size_t i = 0; i < s->n_tables; i++) {
        struct table *t = &s->tables[i];
        for (size_t c = 0; c < t->n_columns; c++) {
            free(t->columns[c].name);
            base_type_destroy(&t->columns[c].key);
            base_type_destroy(&t->columns[c].value);
        }
        free(t->columns);
        free(t->name);
    }
    free(s->tables);
    free(s->name);
    free(s->version);
    free(s);
}

int
schema_find_table(const struct schema *s, const char *name)
{
    for (size_t i = 0; i < s->n_tables; i++) {
        if (!strcmp(s->tables[i].name, name)) {
            return i;
        }
    }
    return -1;
}

int
table_find_column(const struct table *t, const char *name)
{
    for (size_t i = 0; i < t->n_columns; i++) {
        if (!strcmp(t->columns[i].name, name)) {
            return i;
        }
    }
    return -1;
}
