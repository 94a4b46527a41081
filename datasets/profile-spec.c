/* Profile parsing, stage 2: column and key lines, checked against the
 * schema (form, size, children); see profile-parse.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "profile-parse.h"

/* What a column-form parser gets. */
struct column_ctx {
    struct lexer *lx;
    const struct db_schema *schema;
    const struct column_schema *c;
    const char *where;          /* "TABLE.COLUMN". */
    const char *form;           /* The form keyword. */
};

/* "map": entries follow on "key" lines. */
static bool
parse_map_form(const struct column_ctx *x, struct col_spec *cs)
{
    if (!ovsdb_type_is_map(&x->c->type)
        || x->c->type.key.type != ATOMIC_STRING) {
        lex_error(x->lx, "%s: \"map\" needs a map column with string keys",
                  x->where);
        return false;
    }
    cs->form = F_MAP_KEYS;
    return true;
}

/* "mapgen SIZE KEYSPEC VALUESPEC". */
static bool
parse_mapgen_form(const struct column_ctx *x, struct col_spec *cs)
{
    if (!ovsdb_type_is_map(&x->c->type)) {
        lex_error(x->lx, "%s: \"mapgen\" needs a map column", x->where);
        return false;
    }
    cs->form = F_MAP_GEN;
    return (parse_dist(x->lx, lex_next(x->lx, "size distribution"),
                       &cs->size)
            && parse_atom_spec(x->lx, x->schema, &x->c->type.key, cs->salt,
                               x->where, &cs->elem)
            && parse_atom_spec(x->lx, x->schema, &x->c->type.value,
                               cs->salt + 1, x->where, &cs->value));
}

/* The size of a set: "optrow LOW HIGH", "opt P" or a distribution. */
static bool
parse_set_size(const struct column_ctx *x, struct col_spec *cs)
{
    struct lexer *lx = x->lx;

    if (!strcmp(x->form, "optrow")) {
        cs->row_window = true;
        if (!parse_double(lx, lex_next(lx, "low"), "low", &cs->row_lo)
            || !parse_double(lx, lex_next(lx, "high"), "high", &cs->row_hi)
            || cs->row_lo < 0 || cs->row_hi > 1
            || cs->row_lo > cs->row_hi) {
            lex_error(lx, "%s: optrow needs 0 <= LOW <= HIGH <= 1",
                      x->where);
            return false;
        }
        return parse_dist(lx, "1", &cs->size);
    } else if (!strcmp(x->form, "opt")) {
        double prob;
        if (!parse_double(lx, lex_next(lx, "probability"), "probability",
                          &prob) || prob < 0 || prob > 1) {
            lex_error(lx, "%s: opt needs a probability 0..1", x->where);
            return false;
        }
        char *d = xasprintf("0:%.6f,1:%.6f", 1 - prob, prob);
        bool ok = parse_dist(lx, d, &cs->size);
        free(d);
        return ok;
    } else {
        return parse_dist(lx, lex_next(lx, "size distribution"), &cs->size);
    }
}

/* "children SIZE TABLE": the rows of TABLE that each row owns. */
static bool
parse_children(const struct column_ctx *x, struct col_spec *cs)
{
    const struct base_type *key = &x->c->type.key;
    const char *tn = lex_next(x->lx, "child table");

    if (!tn) {
        return false;
    }
    cs->elem.kind = S_CHILDREN;
    cs->elem.type = ATOMIC_UUID;
    cs->elem.base = key;
    cs->elem.ref_table = db_schema_table_index(x->schema, tn);
    if (cs->elem.ref_table < 0 || ref_index(key) != cs->elem.ref_table) {
        lex_error(x->lx, "%s: children must be rows of the column's "
                  "refTable (%s)", x->where,
                  ref_index(key) >= 0 ? key->u.uuid.ref_table_name : "none");
        return false;
    }
    if (!x->schema->tables[cs->elem.ref_table]->is_root
        && !is_strong_ref(key)) {
        lex_error(x->lx, "%s: a weak reference cannot own non-root rows",
                  x->where);
        return false;
    }
    return true;
}

/* "set SIZE SPEC", "opt P SPEC", "optrow LOW HIGH SPEC",
 * "children SIZE TABLE". */
static bool
parse_set_form(const struct column_ctx *x, struct col_spec *cs)
{
    if (ovsdb_type_is_map(&x->c->type) || ovsdb_type_is_scalar(&x->c->type)) {
        lex_error(x->lx, "%s: \"%s\" needs a set column", x->where, x->form);
        return false;
    }
    cs->form = F_SET;
    if (!parse_set_size(x, cs)) {
        return false;
    }
    if (dist_min(&cs->size) < 0) {
        lex_error(x->lx, "%s: negative set size", x->where);
        return false;
    }
    if (!strcmp(x->form, "children")) {
        return parse_children(x, cs);
    }
    return parse_atom_spec(x->lx, x->schema, &x->c->type.key, cs->salt,
                           x->where, &cs->elem);
}

/* A bare atom spec: the scalar, or exactly one atom of a set. */
static bool
parse_bare_form(const struct column_ctx *x, struct col_spec *cs)
{
    if (ovsdb_type_is_map(&x->c->type)) {
        lex_error(x->lx, "%s: map column: use \"map\" or \"mapgen\"",
                  x->where);
        return false;
    }
    if (ovsdb_type_is_scalar(&x->c->type)) {
        cs->form = F_SCALAR;
    } else {
        cs->form = F_SET;
        if (!parse_dist(x->lx, "1", &cs->size)) {
            return false;
        }
    }
    return parse_atom_spec(x->lx, x->schema, &x->c->type.key, cs->salt,
                           x->where, &cs->elem);
}

/* The column forms, by keyword (an unquoted first token). */
static const struct {
    const char *name;
    bool (*parse)(const struct column_ctx *, struct col_spec *);
} column_forms[] = {
    { "map", parse_map_form },
    { "mapgen", parse_mapgen_form },
    { "set", parse_set_form },
    { "opt", parse_set_form },
    { "optrow", parse_set_form },
    { "children", parse_set_form },
};

bool
parse_column(struct lexer *lx, struct profile *p, struct table_spec *ts,
             const char *col_name, struct col_spec *cs)
{
    char where[256];
    snprintf(where, sizeof where, "%s.%s", ts->t->name, col_name);
    memset(cs, 0, sizeof *cs);
    cs->column = table_schema_column_index(ts->t, col_name);
    if (cs->column < 0) {
        lex_error(lx, "table %s has no column \"%s\"", ts->t->name,
                  col_name);
        return false;
    }
    const struct column_schema *c = cs->col = ts->t->columns[cs->column];
    if (c->ephemeral) {
        lex_error(lx, "%s: ephemeral columns are not stored", where);
        return false;
    }
    cs->salt = salt_of(ts->t->name, col_name, 0);

    struct column_ctx x = { lx, p->schema, c, where, "" };
    bool (*parse)(const struct column_ctx *, struct col_spec *)
        = parse_bare_form;
    if (lx->pos < lx->n && !lx->quoted[lx->pos]) {
        for (size_t i = 0; i < ARRAY_SIZE(column_forms); i++) {
            if (!strcmp(lx->tokens[lx->pos], column_forms[i].name)) {
                x.form = lx->tokens[lx->pos++];
                parse = column_forms[i].parse;
                break;
            }
        }
    }
    if (!parse(&x, cs)) {
        return false;
    }
    if (lx->pos < lx->n) {
        lex_error(lx, "%s: unexpected \"%s\" at end of line", where,
                  lx->tokens[lx->pos]);
        return false;
    }
    return true;
}

bool
parse_key_line(struct lexer *lx, struct profile *p, struct table_spec *ts)
{
    struct col_spec *cs = ts && ts->n_cols ? &ts->cols[ts->n_cols - 1] : NULL;
    if (!cs || cs->form != F_MAP_KEYS) {
        lex_error(lx, "\"key\" line must follow a \"COLUMN map\" line");
        return false;
    }
    const char *key = lex_next(lx, "key");
    double prob;
    if (!key || !parse_double(lx, lex_next(lx, "probability"), "probability",
                              &prob) || prob < 0 || prob > 1) {
        lex_error(lx, "key line: expected key \"TEXT\" PROBABILITY VALUE");
        return false;
    }
    char where[256];
    snprintf(where, sizeof where, "%s.%s[%s]", ts->t->name, cs->col->name,
             key);
    char *key_text = literal_atom(lx, &cs->col->type.key, key, where);
    if (!key_text) {
        return false;
    }
    for (size_t i = 0; i < cs->n_entries; i++) {
        if (!strcmp(cs->entries[i].key, key_text)) {
            lex_error(lx, "%s: duplicate key", where);
            free(key_text);
            return false;
        }
    }
    cs->entries = xrealloc(cs->entries,
                           (cs->n_entries + 1) * sizeof *cs->entries);
    struct map_entry *e = &cs->entries[cs->n_entries];
    e->key = key_text;
    e->key_len = strlen(key_text);
    e->p = prob;
    if (!parse_atom_spec(lx, p->schema, &cs->col->type.value,
                         cs->salt + cs->n_entries + 7, where, &e->value)) {
        /* The entry is not counted, so cleanup would not see what the
         * spec allocated before it failed. */
        atom_spec_destroy(&e->value);
        free(key_text);
        return false;
    }
    cs->n_entries++;
    if (lx->pos < lx->n) {
        lex_error(lx, "%s: unexpected \"%s\" at end of line", where,
                  lx->tokens[lx->pos]);
        return false;
    }
    return true;
}
