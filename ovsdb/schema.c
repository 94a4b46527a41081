/* Database schema parsing and lookup; see schema.h. */
#include "ovsdb/schema.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ds.h"
#include "json.h"
#include "util.h"

static bool
is_valid_id(const char *s)
{
    if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z'))) {
        return false;
    }
    for (; *s; s++) {
        if (!(*s == '_' || (*s >= 'a' && *s <= 'z')
              || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9'))) {
            return false;
        }
    }
    return true;
}

static void
column_schema_destroy(struct column_schema *c)
{
    ovsdb_type_destroy(&c->type);
    xfree(c->name);
    xfree(c);
}

static void
table_schema_destroy(struct table_schema *t)
{
    for (unsigned int i = 0; i < t->n_columns; i++) {
        column_schema_destroy(t->columns[i]);
    }
    for (unsigned int i = 0; i < t->n_indexes; i++) {
        xfree(t->indexes[i].columns);
    }
    xfree(t->indexes);
    xfree(t->columns);
    shash_destroy(&t->columns_by_name);
    xfree(t->name);
    xfree(t);
}

static char *
column_schema_from_json(const char *name, const struct json *json,
                        struct column_schema **cp)
{
    if (json_get_type(json) != JSON_OBJECT) {
        return xasprintf("column %s: definition must be an object", name);
    }
    const struct json *type = json_object_get(json, "type");
    if (!type) {
        return xasprintf("column %s: no \"type\"", name);
    }
    struct column_schema *c = xzalloc(sizeof *c);
    char *error = ovsdb_type_from_json(&c->type, type);
    if (error) {
        char *e = xasprintf("column %s: %s", name, error);
        xfree(error);
        xfree(c);
        return e;
    }
    const struct json *eph = json_object_get(json, "ephemeral");
    c->ephemeral = eph && json_get_type(eph) == JSON_TRUE;
    c->name = xstrdup(name);
    *cp = c;
    return NULL;
}

/* Parses "indexes": an array of arrays of column names. */
static char *
indexes_from_json(struct table_schema *t, const struct json *json)
{
    if (!json) {
        return NULL;
    }
    if (json_get_type(json) != JSON_ARRAY) {
        return xasprintf("table %s: \"indexes\" must be an array", t->name);
    }
    size_t n = json_array_size(json);
    t->indexes = xcalloc(n ? n : 1, sizeof *t->indexes);
    for (size_t i = 0; i < n; i++) {
        const struct json *cols = json_array_at(json, i);
        if (json_get_type(cols) != JSON_ARRAY || !json_array_size(cols)) {
            return xasprintf("table %s: index %zu must be a non-empty array "
                             "of column names", t->name, i);
        }
        struct index_schema *idx = &t->indexes[t->n_indexes++];
        size_t nc = json_array_size(cols);
        idx->columns = xmalloc(nc * sizeof *idx->columns);
        for (size_t j = 0; j < nc; j++) {
            const struct json *name = json_array_at(cols, j);
            const struct column_schema *c = (
                json_get_type(name) == JSON_STRING
                ? shash_find_data(&t->columns_by_name, json_string(name))
                : NULL);
            if (!c) {
                return xasprintf("table %s: index %zu names no column of "
                                 "the table", t->name, i);
            }
            if (c->ephemeral) {
                return xasprintf("table %s: index %zu: ephemeral column %s "
                                 "cannot be indexed", t->name, i, c->name);
            }
            idx->columns[idx->n_columns++] = c->index;
        }
    }
    return NULL;
}

static char *
table_schema_from_json(const char *name, const struct json *json,
                       struct table_schema **tp)
{
    if (json_get_type(json) != JSON_OBJECT) {
        return xasprintf("table %s: definition must be an object", name);
    }
    const struct json *columns = json_object_get(json, "columns");
    if (!columns || json_get_type(columns) != JSON_OBJECT) {
        return xasprintf("table %s: no \"columns\" object", name);
    }

    struct table_schema *t = xzalloc(sizeof *t);
    t->name = xstrdup(name);
    shash_init(&t->columns_by_name);
    const struct json *root = json_object_get(json, "isRoot");
    t->is_root = root && json_get_type(root) == JSON_TRUE;
    const struct json *max_rows = json_object_get(json, "maxRows");
    if (max_rows && json_get_type(max_rows) == JSON_INTEGER) {
        t->max_rows = json_integer(max_rows);
    }

    /* Sorted names give every impl the same column order. */
    const struct shash_node **sorted = shash_sort(json_object(columns));
    size_t n = shash_count(json_object(columns));
    t->columns = xmalloc((n ? n : 1) * sizeof *t->columns);
    char *error = NULL;
    for (size_t i = 0; i < n; i++) {
        const char *cname = sorted[i]->name;
        if (!is_valid_id(cname) || cname[0] == '_') {
            error = xasprintf("table %s: bad column name \"%s\"", name,
                              cname);
            break;
        }
        struct column_schema *c = NULL;
        error = column_schema_from_json(cname, sorted[i]->data, &c);
        if (error) {
            char *e = xasprintf("table %s: %s", name, error);
            xfree(error);
            error = e;
            break;
        }
        c->index = t->n_columns;
        t->columns[t->n_columns++] = c;
        shash_add(&t->columns_by_name, cname, c);
    }
    xfree(sorted);
    if (!error) {
        error = indexes_from_json(t, json_object_get(json, "indexes"));
    }
    if (error) {
        table_schema_destroy(t);
        return error;
    }
    *tp = t;
    return NULL;
}

static char *
resolve_refs(struct db_schema *s, struct base_type *b, const char *table,
             const char *column)
{
    if (b->type == ATOMIC_UUID && b->u.uuid.ref_table_name) {
        b->u.uuid.ref_table = db_schema_find_table(s,
                                                   b->u.uuid.ref_table_name);
        if (!b->u.uuid.ref_table) {
            return xasprintf("table %s column %s: refTable \"%s\" does not "
                             "exist", table, column,
                             b->u.uuid.ref_table_name);
        }
    }
    return NULL;
}

char *
db_schema_from_json(const struct json *json, struct db_schema **schemap)
{
    *schemap = NULL;
    if (json_get_type(json) != JSON_OBJECT) {
        return xasprintf("schema must be a JSON object");
    }
    const struct json *name = json_object_get(json, "name");
    const struct json *tables = json_object_get(json, "tables");
    const struct json *version = json_object_get(json, "version");
    if (!name || json_get_type(name) != JSON_STRING
        || !is_valid_id(json_string(name))) {
        return xasprintf("schema lacks a valid \"name\"");
    }
    if (!tables || json_get_type(tables) != JSON_OBJECT) {
        return xasprintf("schema lacks a \"tables\" object");
    }
    if (version && json_get_type(version) != JSON_STRING) {
        return xasprintf("schema \"version\" must be a string");
    }

    struct db_schema *s = xzalloc(sizeof *s);
    s->name = xstrdup(json_string(name));
    s->version = xstrdup(version ? json_string(version) : "");
    shash_init(&s->tables_by_name);

    const struct shash_node **sorted = shash_sort(json_object(tables));
    size_t n = shash_count(json_object(tables));
    s->tables = xmalloc((n ? n : 1) * sizeof *s->tables);
    char *error = NULL;
    for (size_t i = 0; i < n && !error; i++) {
        struct table_schema *t = NULL;
        if (!is_valid_id(sorted[i]->name) || sorted[i]->name[0] == '_') {
            error = xasprintf("bad table name \"%s\"", sorted[i]->name);
            break;
        }
        error = table_schema_from_json(sorted[i]->name, sorted[i]->data, &t);
        if (!error) {
            t->index = s->n_tables;
            s->tables[s->n_tables++] = t;
            shash_add(&s->tables_by_name, t->name, t);
        }
    }
    xfree(sorted);

    /* As in OVS: a schema with no root table (written before "isRoot"
     * existed, or by OVS itself, which leaves "isRoot" out when every table
     * is a root) has every table in the root set. */
    bool any_root = false;
    for (unsigned int i = 0; i < s->n_tables; i++) {
        any_root |= s->tables[i]->is_root;
    }
    for (unsigned int i = 0; i < s->n_tables && !any_root; i++) {
        s->tables[i]->is_root = true;
    }

    for (unsigned int i = 0; i < s->n_tables && !error; i++) {
        struct table_schema *t = s->tables[i];
        for (unsigned int j = 0; j < t->n_columns && !error; j++) {
            struct column_schema *c = t->columns[j];
            error = resolve_refs(s, &c->type.key, t->name, c->name);
            if (!error) {
                error = resolve_refs(s, &c->type.value, t->name, c->name);
            }
        }
    }
    if (error) {
        db_schema_destroy(s);
        return error;
    }
    s->json = json_clone(json);
    *schemap = s;
    return NULL;
}

char *
db_schema_read_file(const char *file_name, struct db_schema **schemap)
{
    *schemap = NULL;
    FILE *f = fopen(file_name, "rb");
    if (!f) {
        return xasprintf("%s: cannot open: %s", file_name, strerror(errno));
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
        ds_destroy(&text);
        return xasprintf("%s: read error", file_name);
    }

    char *error = NULL;
    struct json *json = json_parse_buffer(text.string ? text.string : "",
                                          text.length, &error);
    ds_destroy(&text);
    if (!json) {
        char *e = xasprintf("%s: invalid JSON: %s", file_name, error);
        xfree(error);
        return e;
    }
    error = db_schema_from_json(json, schemap);
    json_destroy(json);
    if (error) {
        char *e = xasprintf("%s: invalid schema: %s", file_name, error);
        xfree(error);
        return e;
    }
    return NULL;
}

void
db_schema_destroy(struct db_schema *s)
{
    if (!s) {
        return;
    }
    for (unsigned int i = 0; i < s->n_tables; i++) {
        table_schema_destroy(s->tables[i]);
    }
    xfree(s->tables);
    shash_destroy(&s->tables_by_name);
    json_destroy(s->json);
    xfree(s->version);
    xfree(s->name);
    xfree(s);
}

const struct table_schema *
db_schema_find_table(const struct db_schema *s, const char *name)
{
    return shash_find_data(&s->tables_by_name, name);
}

const struct column_schema *
table_schema_find_column(const struct table_schema *t, const char *name)
{
    return shash_find_data(&t->columns_by_name, name);
}

int
db_schema_table_index(const struct db_schema *s, const char *name)
{
    const struct table_schema *t = db_schema_find_table(s, name);
    return t ? (int) t->index : -1;
}

int
table_schema_column_index(const struct table_schema *t, const char *name)
{
    const struct column_schema *c = table_schema_find_column(t, name);
    return c ? (int) c->index : -1;
}
