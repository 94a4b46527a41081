/* Dataset twins, the profile written from the counts and the decisions:
 * tables (counts, "children", "per" groups), columns (sizes, values as
 * enum picks, integer magnitudes, string templates, references), map keys
 * (kept, or synthetic with --drop-keys).  See twin-stats.h. */
#include "twin-stats.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "ovsdb/datum.h"
#include "util.h"

static int
cmp_shape_n(const void *a_, const void *b_)
{
    const struct shape *const *a = a_, *const *b = b_;
    return (*a)->n < (*b)->n ? 1 : (*a)->n > (*b)->n ? -1 : 0;
}

/* The templates of a string slot: frequent values, the most common shapes,
 * and one text template for the rest. */
static void
put_string_spec(struct slot *sl, bool unique, struct ds *out)
{
    struct ds tmpl = DS_EMPTY_INITIALIZER;
    struct ds specs = DS_EMPTY_INITIALIZER;
    size_t n = 0;

    for (size_t i = 0; i < sl->n_tops; i++) {
        if (sl->tops[i].got) {
            ds_clear(&tmpl);
            shape_put_template(&sl->tops[i].shape, UNIQUE_NO, false, 1, true,
                               &tmpl);
            ds_put_char(&specs, ' ');
            put_profile_quoted(&specs, ds_cstr(&tmpl));
            ds_put_format(&specs, " %"PRIu64, sl->tops[i].count);
            n++;
        }
    }
    const struct shape **order = xmalloc((sl->shapes.n + 1) * sizeof *order);
    for (size_t i = 0; i < sl->shapes.n; i++) {
        order[i] = &sl->shapes.v[i];
    }
    qsort(order, sl->shapes.n, sizeof *order, cmp_shape_n);
    size_t room = MAX_TEMPLATES - n;
    struct shape rest;
    memset(&rest, 0, sizeof rest);
    rest.n_pieces = 1;
    rest.pieces[0].kind = SH_TEXT;
    for (size_t i = 0; i < sl->shapes.n; i++) {
        const struct shape *sh = order[i];
        if (i + 1 < room || sl->shapes.n <= room) {
            ds_clear(&tmpl);
            shape_put_template(sh, unique ? UNIQUE_ROW : UNIQUE_NO,
                               sl->row_stable, unique ? 0 : pool_for(sh->n, sh->distinct),
                               false, &tmpl);
            ds_put_char(&specs, ' ');
            put_profile_quoted(&specs, ds_cstr(&tmpl));
            ds_put_format(&specs, " %"PRIu64, sh->n);
            n++;
            continue;
        }
        /* The rest as text of their whole lengths. */
        rest.n += sh->n;
        rest.distinct += sh->distinct;
        for (size_t k = 0; k < sh->lens[0].mask + 1 && sh->n_pieces == 1
                           && sh->lens[0].slots; k++) {
            const struct i64_count *c = &sh->lens[0].slots[k];
            if (c->n) {
                i64_hist_add(&rest.lens[0], c->v, c->n);
            }
        }
        if (sh->n_pieces != 1) {
            /* Total length of a many-piece shape: the sum of its pieces'
             * most common lengths is close enough for a rare shape. */
            int64_t len = 0;
            for (size_t k = 0; k < sh->n_pieces; k++) {
                len += sh->pieces[k].len;
            }
            i64_hist_add(&rest.lens[0], len, sh->n);
        }
    }
    if (rest.n) {
        ds_clear(&tmpl);
        shape_put_template(&rest, unique ? UNIQUE_ROW : UNIQUE_NO,
                           sl->row_stable, unique ? 0 : pool_for(rest.n, rest.distinct),
                           false, &tmpl);
        ds_put_char(&specs, ' ');
        put_profile_quoted(&specs, ds_cstr(&tmpl));
        ds_put_format(&specs, " %"PRIu64, rest.n);
        n++;
        i64_hist_destroy(&rest.lens[0]);
    }
    free(order);
    ds_put_format(out, "oneof %zu%s", n, ds_cstr(&specs));
    ds_destroy(&tmpl);
    ds_destroy(&specs);
}

/* JSON text of enum value 'i', as a profile token. */
static void
put_enum_pick(const struct slot *sl, struct ds *out)
{
    const struct datum *e = sl->base->enum_;
    size_t n = 0;
    for (size_t i = 0; i < e->n; i++) {
        n += sl->enum_counts[i] > 0;
    }
    ds_put_format(out, "pick %zu", n);
    for (size_t i = 0; i < e->n; i++) {
        if (!sl->enum_counts[i]) {
            continue;
        }
        ds_put_char(out, ' ');
        if (sl->base->type == ATOMIC_STRING) {
            put_profile_quoted(out, json_string(e->keys[i].s));
        } else {
            ds_put_format(out, "%"PRId64, e->keys[i].integer);
        }
        ds_put_format(out, " %"PRIu64, sl->enum_counts[i]);
    }
}

/* The value spec of a slot; false if there is nothing to write. */
static bool
put_value_spec(const struct deriver *d, struct slot *sl, enum col_role role,
               int own_table, struct ds *out)
{
    if (!sl->n) {
        return false;
    }
    if (sl->enum_counts) {
        for (size_t i = 0; i < sl->base->enum_->n; i++) {
            if (sl->enum_counts[i]) {
                put_enum_pick(sl, out);
                return true;
            }
        }
        return false;
    }
    switch (sl->base->type) {
    case ATOMIC_STRING:
        put_string_spec(sl, role == R_UNIQUE_STRING, out);
        return true;
    case ATOMIC_INTEGER:
        /* Only magnitudes: integer values are contents too. */
        ds_put_cstr(out, "int ");
        i64_hist_put_magnitudes(&sl->ints, sl->base->u.integer.min,
                                sl->base->u.integer.max, out);
        return true;
    case ATOMIC_REAL:
        /* The powers of ten around the values, not the values. */
        ds_put_format(out, "real %.17g %.17g",
                      sl->rmin >= 0 ? 0 : -pow(10, ceil(log10(-sl->rmin))),
                      sl->rmax <= 0 ? 0 : pow(10, ceil(log10(sl->rmax))));
        return true;
    case ATOMIC_BOOLEAN:
        ds_put_format(out, "bool %.6f", (double) sl->n_true / sl->n);
        return true;
    case ATOMIC_UUID: {
        int t = sl->ref_table >= 0 ? sl->ref_table : own_table;
        if (!target_usable(d, t)) {
            return false;
        }
        ds_put_format(out, "ref %s%s", d->s->tables[t]->name,
                      role == R_COVER ? " cover" : "");
        return true;
    }
    case ATOMIC_VOID:
    case N_ATOMIC_TYPES:
    default:
        return false;
    }
}

static bool
only_zero(const struct i64_hist *h)
{
    return !h->n || (h->n == 1 && i64_hist_max(h) == 0);
}

static int64_t
int_start(const struct base_type *b)
{
    return b->u.integer.min <= 1 && b->u.integer.max >= 1
           ? 1 : b->u.integer.min;
}

/* A synthetic key of the same length ("--drop-keys"). */
static char *
synthetic_key(size_t i, size_t len)
{
    struct ds k = DS_EMPTY_INITIALIZER;
    ds_put_char(&k, 'k');
    do {
        ds_put_char(&k, 'a' + i % 26);
        i /= 26;
    } while (i);
    while (k.length < len) {
        ds_put_char(&k, 'x');
    }
    return ds_steal_cstr(&k);
}

/* A key that a profile line can hold (no line breaks or controls). */
static bool
profile_safe(const char *s)
{
    for (; *s; s++) {
        if ((unsigned char) *s < 0x20) {
            return false;
        }
    }
    return true;
}

/* "map" with key lines, if the keys repeat; false for "mapgen". */
static bool
put_map_keys(const struct deriver *d, const struct table_stat *ts,
             struct col_stat *cs, struct ds *out)
{
    if (cs->too_many_keys || !cs->n_keys
        || cs->col->type.key.type != ATOMIC_STRING || cs->col->type.key.enum_) {
        return false;
    }
    uint64_t nonempty = ts->rows;
    uint64_t pairs = 0, kept_pairs = 0;
    uint64_t min_rows = ts->rows < 2 ? ts->rows : 2;
    bool *kept = xcalloc(cs->n_keys, sizeof *kept);
    for (size_t k = 0; k < cs->n_keys; k++) {
        const struct key_stat *ks = &cs->keys[k];
        pairs += ks->rows;
        kept[k] = ks->rows >= min_rows
                  && ks->rows >= KEY_MIN_SHARE * nonempty;
        kept_pairs += kept[k] ? ks->rows : 0;
    }
    if (!kept_pairs || kept_pairs < 0.9 * pairs) {
        free(kept);
        return false;
    }
    struct ds lines = DS_EMPTY_INITIALIZER;
    size_t n_lines = 0;
    for (size_t k = 0; k < cs->n_keys; k++) {
        struct key_stat *ks = &cs->keys[k];
        struct ds v = DS_EMPTY_INITIALIZER;
        if (!kept[k] || !put_value_spec(d, &ks->value, R_PLAIN,
                                        ts->t->index, &v)) {
            ds_destroy(&v);
            continue;
        }
        char *name = (d->opt->drop_keys || !profile_safe(ks->key)
                      ? synthetic_key(k, strlen(ks->key))
                      : xstrdup(ks->key));
        ds_put_cstr(&lines, "    key ");
        put_profile_quoted(&lines, name);
        ds_put_format(&lines, " %.6f %s\n",
                      fmin(1.0, (double) ks->rows / ts->rows), ds_cstr(&v));
        free(name);
        ds_destroy(&v);
        n_lines++;
    }
    free(kept);
    if (n_lines) {
        ds_put_format(out, "  %s map\n%s", cs->col->name, ds_cstr(&lines));
    }
    ds_destroy(&lines);
    return n_lines > 0;
}

static void
put_column(const struct deriver *d, const struct table_stat *ts,
           struct col_stat *cs, struct ds *out)
{
    const struct ovsdb_type *type = &cs->col->type;
    const char *name = cs->col->name;
    struct ds v = DS_EMPTY_INITIALIZER;

    if (cs->col->ephemeral) {
        return;
    }
    switch (cs->role) {
    case R_SEQ:
        ds_put_format(out, "  %s seq %"PRId64"\n", name,
                      int_start(&type->key));
        return;
    case R_RANK:
        ds_put_format(out, "  %s rank %"PRId64"\n", name,
                      int_start(&type->key));
        return;
    case R_OWNER:
        ds_put_format(out, "  %s ref %s owner\n", name,
                      d->s->tables[ts->group_parent]->name);
        return;
    case R_REF_ROW:
        ds_put_format(out, "  %s ref %s row\n", name,
                      d->s->tables[cs->key.ref_table]->name);
        return;
    case R_CHILDREN:
        if (!only_zero(&cs->sizes)) {
            ds_put_format(out, "  %s children ", name);
            i64_hist_put_dist(&cs->sizes, DIST_ITEMS, out);
            ds_put_format(out, " %s\n",
                          d->s->tables[cs->key.ref_table]->name);
        }
        return;
    case R_PLAIN:
    case R_COVER:
    case R_UNIQUE_STRING:
        break;
    }

    if (ovsdb_type_is_scalar(type)) {
        if (put_value_spec(d, &cs->key, cs->role, ts->t->index, &v)) {
            ds_put_format(out, "  %s %s\n", name, ds_cstr(&v));
        }
    } else if (only_zero(&cs->sizes)) {
        /* Always empty: the default. */
    } else if (!ovsdb_type_is_map(type)) {
        if (put_value_spec(d, &cs->key, cs->role, ts->t->index, &v)) {
            ds_put_format(out, "  %s set ", name);
            i64_hist_put_dist(&cs->sizes, DIST_ITEMS, out);
            ds_put_format(out, " %s\n", ds_cstr(&v));
        }
    } else if (!put_map_keys(d, ts, cs, out)) {
        struct ds kv = DS_EMPTY_INITIALIZER;
        if (put_value_spec(d, &cs->key, R_PLAIN, ts->t->index, &kv)
            && put_value_spec(d, &cs->value, R_PLAIN, ts->t->index, &v)) {
            ds_put_format(out, "  %s mapgen ", name);
            i64_hist_put_dist(&cs->sizes, DIST_ITEMS, out);
            ds_put_format(out, " %s %s\n", ds_cstr(&kv), ds_cstr(&v));
        }
        ds_destroy(&kv);
    }
    ds_destroy(&v);
}

static void
put_table(struct deriver *d, struct table_stat *ts, struct ds *out)
{
    const char *name = ts->t->name;
    ts->emitted = true;
    switch (ts->mode) {
    case T_DROP:
        return;
    case T_ROOT:
    case T_SHARED:
        if (!ts->rows) {
            return;
        }
        ds_put_format(out, "\ntable %s %"PRIu64"%s\n", name, ts->rows,
                      ts->t->max_rows ? " fixed" : "");
        break;
    case T_CHILDREN:
        ds_put_format(out, "\ntable %s children\n", name);
        break;
    case T_PER: {
        ds_put_format(out, "\ntable %s per %s ", name,
                      d->s->tables[ts->group_parent]->name);
        const struct slot *owner = &ts->cols[ts->group_col].key;
        struct i64_hist groups = { 0 };
        for (uint64_t r = 0; r < d->tables[ts->group_parent].rows; r++) {
            i64_hist_add(&groups, owner->hits[r], 1);
        }
        i64_hist_put_dist(&groups, DIST_ITEMS, out);
        i64_hist_destroy(&groups);
        ds_put_char(out, '\n');
        break;
    }
    }
    for (size_t c = 0; c < ts->t->n_columns; c++) {
        put_column(d, ts, &ts->cols[c], out);
    }
}

void
twin_write_profile(struct deriver *d, struct ds *out)
{
    ds_put_format(out, "# Dataset twin of a %s %s database, derived by "
                  "ovsdb-stats --profile%s.\n", d->s->name, d->s->version,
                  d->opt->drop_keys ? " --drop-keys" : "");
    ds_put_cstr(out, "# It holds row counts, distributions (sizes, "
                "lengths, integers, fan-outs),\n# string templates and "
                "map key names; no string value of the file.\n");
    ds_put_cstr(out, ds_cstr(&d->notes));
    ds_put_format(out, "profile twin-%s\ndraws even\n", d->s->name);
    for (size_t t = 0; t < d->s->n_tables; t++) {
        if (d->tables[t].mode != T_PER) {
            put_table(d, &d->tables[t], out);
        }
    }
    /* "per" tables after their parents. */
    for (bool progress = true; progress; ) {
        progress = false;
        for (size_t t = 0; t < d->s->n_tables; t++) {
            struct table_stat *ts = &d->tables[t];
            if (!ts->emitted && d->tables[ts->group_parent].emitted) {
                put_table(d, ts, out);
                progress = true;
            }
        }
    }
}
