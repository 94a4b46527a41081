/* A monitor's change set (see monitor-changes.h). */
#include "server/monitor-changes.h"

#include <stdlib.h>

#include "server/condition.h"
#include "ds.h"
#include "json.h"
#include "util.h"

void
monitor_changes_init(struct monitor_changes *mc, struct table *t)
{
    mc->table = t;
    hmap_init(&mc->rows);
    mc->order = NULL;
    mc->n = mc->allocated = 0;
}

static struct shared_datum *
share_row(struct row *row, const struct table_schema *ts)
{
    struct shared_datum *sd = xmalloc((ts->n_columns ? ts->n_columns : 1)
                                      * sizeof *sd);
    for (unsigned int i = 0; i < ts->n_columns; i++) {
        row_field_share(row, ts, i, &sd[i].d, &sd[i].refcnt);
    }
    return sd;
}

static void
release_row(struct shared_datum *sd, const struct table_schema *ts)
{
    if (sd) {
        for (unsigned int i = 0; i < ts->n_columns; i++) {
            shared_datum_release(&sd[i].d, sd[i].refcnt,
                                 &ts->columns[i]->type);
        }
        xfree(sd);
    }
}

static struct monitor_change *
find_change(const struct monitor_changes *mc, const struct uuid *uuid)
{
    for (struct hmap_node *n = hmap_first_with_hash(&mc->rows,
                                                    uuid_hash(uuid));
         n; n = hmap_next_with_hash(n)) {
        struct monitor_change *c = CONTAINER_OF(n, struct monitor_change,
                                                node);
        if (uuid_equals(&c->uuid, uuid)) {
            return c;
        }
    }
    return NULL;
}

void
monitor_changes_add(void *aux, struct table *t, struct row *old,
                    struct row *new)
{
    struct monitor_changes *mc = aux;

    if (t != mc->table) {
        return;
    }
    const struct table_schema *ts = t->schema;
    enum xalloc_category cat = xalloc_category_set(XALLOC_MODEL);
    const struct uuid *uuid = old ? &old->uuid : &new->uuid;
    struct monitor_change *c = find_change(mc, uuid);
    if (c) {
        /* A row changed again (the kept initial change set, on every
         * commit): its first old values stay, its new ones are replaced,
         * as ovsdb_monitor_changes_update() does. */
        release_row(c->new, ts);
        c->row = new;
        c->new = new ? share_row(new, ts) : NULL;
        xalloc_category_set(cat);
        return;
    }
    c = xmalloc(sizeof *c);
    c->uuid = *uuid;
    c->row = new;
    c->old = old ? share_row(old, ts) : NULL;
    c->new = new ? share_row(new, ts) : NULL;
    hmap_insert(&mc->rows, &c->node, uuid_hash(&c->uuid));
    if (mc->n >= mc->allocated) {
        mc->allocated = mc->allocated * 2 + 16;
        mc->order = xrealloc(mc->order, mc->allocated * sizeof *mc->order);
    }
    mc->order[mc->n++] = c;
    xalloc_category_set(cat);
}

void
monitor_changes_fill(struct monitor_changes *mc, struct row **rows, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        monitor_changes_add(mc, mc->table, NULL, rows[i]);
    }
}

const struct column_schema *
monitor_change_first_changed(const struct monitor_changes *mc,
                             const struct monitor_change *c)
{
    const struct table_schema *ts = mc->table->schema;

    if (!c->old || !c->new) {
        return NULL;
    }
    for (unsigned int i = 0; i < ts->n_columns; i++) {
        if (!datum_equals(&c->old[i].d, &c->new[i].d,
                          &ts->columns[i]->type)) {
            return ts->columns[i];
        }
    }
    return NULL;
}

void
monitor_changes_destroy(struct monitor_changes *mc)
{
    const struct table_schema *ts = mc->table->schema;

    for (size_t i = 0; i < mc->n; i++) {
        struct monitor_change *c = mc->order[i];
        release_row(c->old, ts);
        release_row(c->new, ts);
        xfree(c);
    }
    xfree(mc->order);
    hmap_destroy(&mc->rows);
}

enum update2_kind { U2_NONE, U2_INITIAL, U2_INSERT, U2_DELETE, U2_MODIFY };

static enum update2_kind
classify(const struct monitor_changes *mc, const struct monitor_change *c,
         const struct condition *cond)
{
    bool old = c->old && condition_matches_at(cond, &c->old[0].d,
                                              sizeof *c->old);
    bool new = c->new && condition_matches_at(cond, &c->new[0].d,
                                              sizeof *c->new);

    if (old && new) {
        return monitor_change_first_changed(mc, c) ? U2_MODIFY : U2_NONE;
    }
    return new ? U2_INSERT : old ? U2_DELETE : U2_NONE;
}

/* Whether column 'i' goes into an update of 'kind'. */
static bool
column_in_update(const struct monitor_change *c, unsigned int i,
                 const struct ovsdb_type *type, enum update2_kind kind)
{
    return (kind == U2_INSERT || kind == U2_INITIAL
            ? !datum_is_default(&c->new[i].d, type)
            : !datum_equals(&c->old[i].d, &c->new[i].d, type));
}

static const char *
kind_name(enum update2_kind kind)
{
    return (kind == U2_INITIAL ? "initial"
            : kind == U2_INSERT ? "insert"
            : kind == U2_DELETE ? "delete" : "modify");
}

static struct json *
row_update_tree(const struct table_schema *ts,
                const struct monitor_change *c, enum update2_kind kind)
{
    struct json *cols;

    if (kind == U2_DELETE) {
        cols = json_null_create();
    } else {
        cols = json_object_create();
        for (unsigned int i = 0; i < ts->n_columns; i++) {
            const struct column_schema *col = ts->columns[i];
            if (column_in_update(c, i, &col->type, kind)) {
                json_object_put(cols, col->name,
                                datum_to_json(&c->new[i].d, &col->type));
            }
        }
        union atom v = { .uuid = *row_version(c->row) };
        json_object_put(cols, "_version", atom_to_json(&v, ATOMIC_UUID));
    }
    struct json *update = json_object_create();
    json_object_put(update, kind_name(kind), cols);
    return update;
}

static struct json *
row_update_direct(const struct table_schema *ts,
                  const struct monitor_change *c, enum update2_kind kind)
{
    struct ds text = DS_EMPTY_INITIALIZER;

    ds_put_format(&text, "{\"%s\":", kind_name(kind));
    if (kind == U2_DELETE) {
        ds_put_cstr(&text, "null}");
    } else {
        ds_put_char(&text, '{');
        for (unsigned int i = 0; i < ts->n_columns; i++) {
            const struct column_schema *col = ts->columns[i];
            if (column_in_update(c, i, &col->type, kind)) {
                ds_put_format(&text, "\"%s\":", col->name);
                datum_to_ds(&c->new[i].d, &col->type, &text);
                ds_put_char(&text, ',');
            }
        }
        char v[UUID_LEN + 1];
        uuid_format(row_version(c->row), v);
        ds_put_format(&text, "\"_version\":[\"uuid\",\"%s\"]}}", v);
    }
    return json_serialized_object_create_nocopy(ds_steal_cstr(&text));
}

static struct json *
compose(const struct monitor_changes *mc, const struct condition *cond,
        bool direct, bool initial)
{
    const struct table_schema *ts = mc->table->schema;
    struct json *rows = NULL;

    for (size_t i = 0; i < mc->n; i++) {
        const struct monitor_change *c = mc->order[i];
        enum update2_kind kind;
        if (initial) {
            kind = (c->new && condition_matches_at(cond, &c->new[0].d,
                                                   sizeof *c->new)
                    ? U2_INITIAL : U2_NONE);
        } else {
            kind = classify(mc, c, cond);
        }
        if (kind == U2_NONE) {
            continue;
        }
        if (!rows) {
            rows = json_object_create();
        }
        char uuid[UUID_LEN + 1];
        uuid_format_printf(&c->uuid, uuid);   /* xasprintf(UUID_FMT) in OVS. */
        json_object_put(rows, uuid, (direct
                                     ? row_update_direct(ts, c, kind)
                                     : row_update_tree(ts, c, kind)));
    }
    return rows;
}

struct json *
monitor_changes_update2(const struct monitor_changes *mc,
                        const struct condition *cond, bool direct)
{
    return compose(mc, cond, direct, false);
}

struct json *
monitor_changes_initial2(const struct monitor_changes *mc,
                         const struct condition *cond, bool direct)
{
    struct json *rows = compose(mc, cond, direct, true);
    return rows ? rows : json_object_create();
}
