/* Profile parsing, stage 2: column lines and atom specs, checked against
 * the schema (types, enums, bounds, references); see profile-parse.h. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ds.h"
#include "json.h"
#include "ovsdb/datum.h"
#include "profile-parse.h"
#include "util.h"

/* ---- Atom specs. ---- */

static bool
int_in_bounds(const struct base_type *b, int64_t v)
{
    return v >= b->u.integer.min && v <= b->u.integer.max;
}

/* The schema's "enum" constraint, a set sorted as OVSDB sorts atoms. */
static size_t
enum_count(const struct base_type *b)
{
    return b->enum_ ? b->enum_->n : 0;
}

static bool
enum_has_string(const struct base_type *b, const char *s)
{
    for (size_t i = 0; i < enum_count(b); i++) {
        if (!strcmp(json_string(b->enum_->keys[i].s), s)) {
            return true;
        }
    }
    return false;
}

static bool
enum_has_int(const struct base_type *b, int64_t v)
{
    for (size_t i = 0; i < enum_count(b); i++) {
        if (b->enum_->keys[i].integer == v) {
            return true;
        }
    }
    return false;
}

/* Index of the table that 'b' references, or -1. */
int
ref_index(const struct base_type *b)
{
    return (b->type == ATOMIC_UUID && b->u.uuid.ref_table
            ? (int) b->u.uuid.ref_table->index : -1);
}

bool
is_strong_ref(const struct base_type *b)
{
    return ref_index(b) >= 0 && b->u.uuid.ref_type == REF_STRONG;
}

/* JSON text of one literal atom of 'base' type, checked against enum and
 * bounds. */
static char *
literal_atom(struct lexer *lx, const struct base_type *b, const char *tok,
             const char *where)
{
    struct ds out = DS_EMPTY_INITIALIZER;
    switch (b->type) {
    case ATOMIC_STRING:
        if (enum_count(b) && !enum_has_string(b, tok)) {
            lex_error(lx, "%s: \"%s\" is not in the column's enum",
                      where, tok);
            return NULL;
        }
        if (strlen(tok) < b->u.string.min_len
            || strlen(tok) > b->u.string.max_len) {
            lex_error(lx, "%s: \"%s\" violates the length limits", where,
                      tok);
            return NULL;
        }
        put_json_string(&out, tok, strlen(tok));
        break;
    case ATOMIC_INTEGER: {
        int64_t v;
        if (!parse_int_token(lx, tok, where, &v)) {
            return NULL;
        }
        if (!int_in_bounds(b, v) || (enum_count(b) && !enum_has_int(b, v))) {
            lex_error(lx, "%s: %"PRId64" is not allowed by the schema",
                      where, v);
            return NULL;
        }
        ds_put_format(&out, "%"PRId64, v);
        break;
    }
    case ATOMIC_BOOLEAN:
        if (strcmp(tok, "true") && strcmp(tok, "false")) {
            lex_error(lx, "%s: expected true or false", where);
            return NULL;
        }
        ds_put_cstr(&out, tok);
        break;
    case ATOMIC_REAL: {
        double d;
        if (!parse_double(lx, tok, where, &d)) {
            return NULL;
        }
        ds_put_format(&out, "%.15g", d);
        break;
    }
    case ATOMIC_UUID:
    case ATOMIC_VOID:
    case N_ATOMIC_TYPES:
    default:
        lex_error(lx, "%s: no literal atoms of type %s", where,
                  atomic_type_to_string(b->type));
        return NULL;
    }
    return ds_steal_cstr(&out);
}


static bool
expect_type(struct lexer *lx, const struct base_type *b, enum atomic_type t,
            const char *spec, const char *where)
{
    if (b->type != t) {
        lex_error(lx, "%s: \"%s\" needs a %s column, this one is %s",
                  where, spec, atomic_type_to_string(t), atomic_type_to_string(b->type));
        return false;
    }
    return true;
}

bool
parse_atom_spec(struct lexer *lx, const struct db_schema *schema,
                const struct base_type *b, uint64_t salt, const char *where,
                struct atom_spec *a)
{
    memset(a, 0, sizeof *a);
    a->type = b->type;
    a->base = b;
    a->ref_table = -1;
    a->segment = -1;
    const char *kind = lex_next(lx, "value spec (str, oneof, pick, enum, "
                                "int, seq, mod, bool, real, ref)");
    if (!kind) {
        return false;
    }
    if (!strcmp(kind, "str")) {
        a->kind = S_STR;
        if (!expect_type(lx, b, ATOMIC_STRING, kind, where)) {
            return false;
        }
        if (enum_count(b)) {
            lex_error(lx, "%s: enum column: use \"pick\" or \"enum\"", where);
            return false;
        }
        if (!parse_templates(lx, a, 1, false, salt, where)) {
            return false;
        }
    } else if (!strcmp(kind, "oneof")) {
        a->kind = S_STR;
        int64_t n;
        if (!expect_type(lx, b, ATOMIC_STRING, kind, where)) {
            return false;
        }
        if (enum_count(b)) {
            lex_error(lx, "%s: enum column: use \"pick\" or \"enum\"", where);
            return false;
        }
        if (!parse_int_token(lx, lex_next(lx, "oneof count"), "oneof count",
                             &n) || n < 1 || n > 30) {
            lex_error(lx, "%s: oneof needs a count 1..30", where);
            return false;
        }
        if (!parse_templates(lx, a, n, true, salt, where)) {
            return false;
        }
    } else if (!strcmp(kind, "pick") || !strcmp(kind, "enum")) {
        bool is_enum = !strcmp(kind, "enum");
        a->kind = S_PICK;
        int64_t n;
        if (is_enum) {
            if (!enum_count(b)) {
                lex_error(lx, "%s: \"enum\" on a column without an enum",
                          where);
                return false;
            }
            n = enum_count(b);
        } else if (!parse_int_token(lx, lex_next(lx, "pick count"),
                                    "pick count", &n) || n < 1 || n > 100) {
            lex_error(lx, "%s: pick needs a count 1..100", where);
            return false;
        }
        a->picks = xcalloc(n, sizeof *a->picks);
        double total = 0;
        for (int64_t i = 0; i < n; i++) {
            double w = 1;
            char *text;
            if (is_enum) {
                struct ds d = DS_EMPTY_INITIALIZER;
                const union atom *atom = &b->enum_->keys[i];
                if (b->type == ATOMIC_STRING) {
                    put_json_string(&d, json_string(atom->s),
                                    strlen(json_string(atom->s)));
                } else {
                    ds_put_format(&d, "%"PRId64, atom->integer);
                }
                text = ds_steal_cstr(&d);
            } else {
                const char *v = lex_next(lx, "pick value");
                text = v ? literal_atom(lx, b, v, where) : NULL;
                if (!text || !parse_double(lx, lex_next(lx, "pick weight"),
                                           "pick weight", &w) || w < 0) {
                    free(text);
                    a->n_picks = i;
                    atom_spec_destroy(a);
                    lex_error(lx, "%s: bad pick", where);
                    return false;
                }
            }
            total += w;
            a->picks[i].text = text;
            a->picks[i].len = strlen(text);
            a->picks[i].cum = llround(total * WEIGHT_SCALE);
        }
        a->n_picks = n;
        a->pick_total = a->picks[n - 1].cum;
        if (!a->pick_total) {
            lex_error(lx, "%s: pick weights are all zero", where);
            return false;
        }
    } else if (!strcmp(kind, "int")) {
        a->kind = S_INT;
        if (!expect_type(lx, b, ATOMIC_INTEGER, kind, where)
            || !parse_dist(lx, lex_next(lx, "distribution"), &a->dist)) {
            return false;
        }
        if (!int_in_bounds(b, dist_min(&a->dist))
            || !int_in_bounds(b, dist_max(&a->dist)) || enum_count(b)) {
            lex_error(lx, "%s: integers outside the column's range "
                      "[%"PRId64", %"PRId64"] (or an enum column)", where,
                      b->u.integer.min, b->u.integer.max);
            return false;
        }
    } else if (!strcmp(kind, "rank")) {
        a->kind = S_RANK;
        if (!expect_type(lx, b, ATOMIC_INTEGER, kind, where)
            || !parse_int_token(lx, lex_next(lx, "start"), "start", &a->a)) {
            return false;
        }
        if (!int_in_bounds(b, a->a)) {
            lex_error(lx, "%s: start outside the column's range", where);
            return false;
        }
    } else if (!strcmp(kind, "cycle")) {
        a->kind = S_CYCLE;
        int64_t n;
        if (!parse_int_token(lx, lex_next(lx, "cycle count"), "cycle count",
                             &n) || n < 1 || n > 100) {
            lex_error(lx, "%s: cycle needs a count 1..100", where);
            return false;
        }
        a->picks = xcalloc(n, sizeof *a->picks);
        for (int64_t i = 0; i < n; i++) {
            const char *v = lex_next(lx, "cycle value");
            char *text = v ? literal_atom(lx, b, v, where) : NULL;
            if (!text) {
                return false;
            }
            a->picks[i].text = text;
            a->picks[i].len = strlen(text);
            a->n_picks++;
        }
    } else if (!strcmp(kind, "seq") || !strcmp(kind, "mod")) {
        bool seq = !strcmp(kind, "seq");
        a->kind = seq ? S_SEQ : S_MOD;
        if (!expect_type(lx, b, ATOMIC_INTEGER, kind, where)) {
            return false;
        }
        if (!seq && (!parse_int_token(lx, lex_next(lx, "modulus"),
                                      "modulus", &a->b) || a->b < 1)) {
            lex_error(lx, "%s: mod needs a positive modulus", where);
            return false;
        }
        if (!parse_int_token(lx, lex_next(lx, "start"), "start", &a->a)) {
            return false;
        }
        if (!int_in_bounds(b, a->a)
            || (!seq && !int_in_bounds(b, a->a + a->b - 1))) {
            lex_error(lx, "%s: values outside the column's range", where);
            return false;
        }
    } else if (!strcmp(kind, "bool")) {
        a->kind = S_BOOL;
        if (!expect_type(lx, b, ATOMIC_BOOLEAN, kind, where)
            || !parse_double(lx, lex_next(lx, "probability"), "probability",
                             &a->p)) {
            return false;
        }
    } else if (!strcmp(kind, "real")) {
        a->kind = S_REAL;
        if (!expect_type(lx, b, ATOMIC_REAL, kind, where)
            || !parse_double(lx, lex_next(lx, "low"), "low", &a->lo)
            || !parse_double(lx, lex_next(lx, "high"), "high", &a->hi)) {
            return false;
        }
    } else if (!strcmp(kind, "ref")) {
        a->kind = S_REF;
        if (!expect_type(lx, b, ATOMIC_UUID, kind, where)) {
            return false;
        }
        const char *tn = lex_next(lx, "referenced table");
        if (!tn) {
            return false;
        }
        a->ref_table = db_schema_table_index(schema, tn);
        if (a->ref_table < 0) {
            lex_error(lx, "%s: no table \"%s\" in the schema", where, tn);
            return false;
        }
        if (ref_index(b) >= 0 && ref_index(b) != a->ref_table) {
            lex_error(lx, "%s: the column references %s, not %s", where,
                      b->u.uuid.ref_table_name, tn);
            return false;
        }
        a->ref_mode = REF_RAND;
        if (lx->pos < lx->n) {
            const char *m = lex_next(lx, "ref mode");
            if (!strcmp(m, "rand")) {
                a->ref_mode = REF_RAND;
            } else if (!strcmp(m, "cover")) {
                a->ref_mode = REF_COVER;
            } else if (!strcmp(m, "row")) {
                a->ref_mode = REF_ROW;
            } else if (!strcmp(m, "owner")) {
                a->ref_mode = REF_OWNER;
            } else if (!strcmp(m, "div")) {
                a->ref_mode = REF_DIV;
                if (!parse_int_token(lx, lex_next(lx, "divisor"), "divisor",
                                     &a->ref_k) || a->ref_k < 1) {
                    lex_error(lx, "%s: div needs a positive divisor", where);
                    return false;
                }
            } else {
                lex_error(lx, "%s: unknown ref mode \"%s\" (rand, cover, "
                          "row, div K, owner)", where, m);
                return false;
            }
        }
    } else {
        lex_error(lx, "%s: unknown value spec \"%s\"", where, kind);
        return false;
    }
    return true;
}

void
atom_spec_destroy(struct atom_spec *a)
{
    for (size_t i = 0; i < a->n_tmpls; i++) {
        tmpl_destroy(&a->tmpls[i]);
    }
    free(a->tmpls);
    free(a->tmpl_cum);
    for (size_t i = 0; i < a->n_picks; i++) {
        free(a->picks[i].text);
    }
    free(a->picks);
    free(a->dist.items);
    memset(a, 0, sizeof *a);
}

/* ---- Column lines. ---- */

bool
parse_column(struct lexer *lx, struct profile *p, struct table_spec *ts,
             const char *col_name, struct col_spec *cs)
{
    const struct db_schema *schema = p->schema;
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
    const char *form = lx->pos < lx->n ? lx->tokens[lx->pos] : "";
    bool quoted = lx->pos < lx->n && lx->quoted[lx->pos];

    if (!quoted && !strcmp(form, "map")) {
        lx->pos++;
        if (!ovsdb_type_is_map(&c->type) || c->type.key.type != ATOMIC_STRING) {
            lex_error(lx, "%s: \"map\" needs a map column with string keys",
                      where);
            return false;
        }
        cs->form = F_MAP_KEYS;      /* Entries follow on "key" lines. */
    } else if (!quoted && !strcmp(form, "mapgen")) {
        lx->pos++;
        if (!ovsdb_type_is_map(&c->type)) {
            lex_error(lx, "%s: \"mapgen\" needs a map column", where);
            return false;
        }
        cs->form = F_MAP_GEN;
        if (!parse_dist(lx, lex_next(lx, "size distribution"), &cs->size)
            || !parse_atom_spec(lx, schema, &c->type.key, cs->salt, where,
                                &cs->elem)
            || !parse_atom_spec(lx, schema, &c->type.value, cs->salt + 1, where,
                                &cs->value)) {
            return false;
        }
    } else if (!quoted && (!strcmp(form, "set") || !strcmp(form, "opt")
                           || !strcmp(form, "optrow")
                           || !strcmp(form, "children"))) {
        lx->pos++;
        if (ovsdb_type_is_map(&c->type) || ovsdb_type_is_scalar(&c->type)) {
            lex_error(lx, "%s: \"%s\" needs a set column", where, form);
            return false;
        }
        cs->form = F_SET;
        if (!strcmp(form, "optrow")) {
            cs->row_window = true;
            if (!parse_double(lx, lex_next(lx, "low"), "low", &cs->row_lo)
                || !parse_double(lx, lex_next(lx, "high"), "high",
                                 &cs->row_hi)
                || cs->row_lo < 0 || cs->row_hi > 1
                || cs->row_lo > cs->row_hi) {
                lex_error(lx, "%s: optrow needs 0 <= LOW <= HIGH <= 1",
                          where);
                return false;
            }
            if (!parse_dist(lx, "1", &cs->size)) {
                return false;
            }
        } else if (!strcmp(form, "opt")) {
            double prob;
            if (!parse_double(lx, lex_next(lx, "probability"), "probability",
                              &prob) || prob < 0 || prob > 1) {
                lex_error(lx, "%s: opt needs a probability 0..1", where);
                return false;
            }
            char *d = xasprintf("0:%.6f,1:%.6f", 1 - prob, prob);
            bool ok = parse_dist(lx, d, &cs->size);
            free(d);
            if (!ok) {
                return false;
            }
        } else if (!parse_dist(lx, lex_next(lx, "size distribution"),
                               &cs->size)) {
            return false;
        }
        if (dist_min(&cs->size) < 0) {
            lex_error(lx, "%s: negative set size", where);
            return false;
        }
        if (!strcmp(form, "children")) {
            const char *tn = lex_next(lx, "child table");
            if (!tn) {
                return false;
            }
            cs->elem.kind = S_CHILDREN;
            cs->elem.type = ATOMIC_UUID;
            cs->elem.base = &c->type.key;
            cs->elem.ref_table = db_schema_table_index(schema, tn);
            if (cs->elem.ref_table < 0
                || ref_index(&c->type.key) != cs->elem.ref_table) {
                lex_error(lx, "%s: children must be rows of the column's "
                          "refTable (%s)", where,
                          ref_index(&c->type.key) >= 0
                          ? c->type.key.u.uuid.ref_table_name : "none");
                return false;
            }
            if (!schema->tables[cs->elem.ref_table]->is_root
                && !is_strong_ref(&c->type.key)) {
                lex_error(lx, "%s: a weak reference cannot own non-root "
                          "rows", where);
                return false;
            }
        } else if (!parse_atom_spec(lx, schema, &c->type.key, cs->salt, where,
                                    &cs->elem)) {
            return false;
        }
    } else {
        if (ovsdb_type_is_map(&c->type)) {
            lex_error(lx, "%s: map column: use \"map\" or \"mapgen\"", where);
            return false;
        }
        if (ovsdb_type_is_scalar(&c->type)) {
            cs->form = F_SCALAR;
        } else {
            /* A bare atom spec on a set column means exactly one atom. */
            cs->form = F_SET;
            if (!parse_dist(lx, "1", &cs->size)) {
                return false;
            }
        }
        if (!parse_atom_spec(lx, schema, &c->type.key, cs->salt, where,
                             &cs->elem)) {
            return false;
        }
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
