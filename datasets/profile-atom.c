/* Profile parsing: atom specs ("str", "pick", "int", "ref", ...), one
 * parser per keyword in a table, each checked against the column's type,
 * enum and bounds in the schema; see profile-parse.h. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ds.h"
#include "json.h"
#include "ovsdb/datum.h"
#include "profile-parse.h"

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
char *
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
                  where, spec, atomic_type_to_string(t),
                  atomic_type_to_string(b->type));
        return false;
    }
    return true;
}

/* What a spec parser gets: the line, the schema, the column's base type. */
struct spec_ctx {
    struct lexer *lx;
    const struct db_schema *schema;
    const struct base_type *b;
    uint64_t salt;
    const char *where;
    const char *name;           /* The spec's keyword. */
};

static bool
no_enum(const struct spec_ctx *c)
{
    if (enum_count(c->b)) {
        lex_error(c->lx, "%s: enum column: use \"pick\" or \"enum\"",
                  c->where);
        return false;
    }
    return true;
}

static bool
parse_str_spec(const struct spec_ctx *c, struct atom_spec *a)
{
    return no_enum(c) && parse_templates(c->lx, a, 1, false, c->salt,
                                         c->where);
}

static bool
parse_oneof_spec(const struct spec_ctx *c, struct atom_spec *a)
{
    int64_t n;

    if (!no_enum(c)) {
        return false;
    }
    if (!parse_int_token(c->lx, lex_next(c->lx, "oneof count"),
                         "oneof count", &n) || n < 1 || n > 30) {
        lex_error(c->lx, "%s: oneof needs a count 1..30", c->where);
        return false;
    }
    return parse_templates(c->lx, a, n, true, c->salt, c->where);
}

/* JSON text of the i'th value of the column's enum. */
static char *
enum_atom_text(const struct base_type *b, size_t i)
{
    struct ds d = DS_EMPTY_INITIALIZER;
    const union atom *atom = &b->enum_->keys[i];

    if (b->type == ATOMIC_STRING) {
        put_json_string(&d, json_string(atom->s),
                        strlen(json_string(atom->s)));
    } else {
        ds_put_format(&d, "%"PRId64, atom->integer);
    }
    return ds_steal_cstr(&d);
}

/* "pick N V1 W1 ... VN WN" or "enum" (every enum value, weight 1). */
static bool
parse_pick_spec(const struct spec_ctx *c, struct atom_spec *a)
{
    struct lexer *lx = c->lx;
    bool is_enum = !strcmp(c->name, "enum");
    int64_t n;

    if (is_enum) {
        if (!enum_count(c->b)) {
            lex_error(lx, "%s: \"enum\" on a column without an enum",
                      c->where);
            return false;
        }
        n = enum_count(c->b);
    } else if (!parse_int_token(lx, lex_next(lx, "pick count"),
                                "pick count", &n) || n < 1 || n > 100) {
        lex_error(lx, "%s: pick needs a count 1..100", c->where);
        return false;
    }
    a->picks = xcalloc(n, sizeof *a->picks);
    double total = 0;
    for (int64_t i = 0; i < n; i++) {
        double w = 1;
        char *text;
        if (is_enum) {
            text = enum_atom_text(c->b, i);
        } else {
            const char *v = lex_next(lx, "pick value");
            text = v ? literal_atom(lx, c->b, v, c->where) : NULL;
            if (!text || !parse_double(lx, lex_next(lx, "pick weight"),
                                       "pick weight", &w) || w < 0) {
                free(text);
                a->n_picks = i;
                atom_spec_destroy(a);
                lex_error(lx, "%s: bad pick", c->where);
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
        lex_error(lx, "%s: pick weights are all zero", c->where);
        return false;
    }
    return true;
}

static bool
parse_int_spec(const struct spec_ctx *c, struct atom_spec *a)
{
    const struct base_type *b = c->b;

    if (!parse_dist(c->lx, lex_next(c->lx, "distribution"), &a->dist)) {
        return false;
    }
    if (!int_in_bounds(b, dist_min(&a->dist))
        || !int_in_bounds(b, dist_max(&a->dist)) || enum_count(b)) {
        lex_error(c->lx, "%s: integers outside the column's range "
                  "[%"PRId64", %"PRId64"] (or an enum column)", c->where,
                  b->u.integer.min, b->u.integer.max);
        return false;
    }
    return true;
}

static bool
parse_rank_spec(const struct spec_ctx *c, struct atom_spec *a)
{
    if (!parse_int_token(c->lx, lex_next(c->lx, "start"), "start", &a->a)) {
        return false;
    }
    if (!int_in_bounds(c->b, a->a)) {
        lex_error(c->lx, "%s: start outside the column's range", c->where);
        return false;
    }
    return true;
}

static bool
parse_cycle_spec(const struct spec_ctx *c, struct atom_spec *a)
{
    int64_t n;

    if (!parse_int_token(c->lx, lex_next(c->lx, "cycle count"),
                         "cycle count", &n) || n < 1 || n > 100) {
        lex_error(c->lx, "%s: cycle needs a count 1..100", c->where);
        return false;
    }
    a->picks = xcalloc(n, sizeof *a->picks);
    for (int64_t i = 0; i < n; i++) {
        const char *v = lex_next(c->lx, "cycle value");
        char *text = v ? literal_atom(c->lx, c->b, v, c->where) : NULL;
        if (!text) {
            return false;
        }
        a->picks[i].text = text;
        a->picks[i].len = strlen(text);
        a->n_picks++;
    }
    return true;
}

/* "seq START" or "mod M START". */
static bool
parse_seq_spec(const struct spec_ctx *c, struct atom_spec *a)
{
    bool seq = a->kind == S_SEQ;

    if (!seq && (!parse_int_token(c->lx, lex_next(c->lx, "modulus"),
                                  "modulus", &a->b) || a->b < 1)) {
        lex_error(c->lx, "%s: mod needs a positive modulus", c->where);
        return false;
    }
    if (!parse_int_token(c->lx, lex_next(c->lx, "start"), "start", &a->a)) {
        return false;
    }
    if (!int_in_bounds(c->b, a->a)
        || (!seq && !int_in_bounds(c->b, a->a + a->b - 1))) {
        lex_error(c->lx, "%s: values outside the column's range", c->where);
        return false;
    }
    return true;
}

static bool
parse_bool_spec(const struct spec_ctx *c, struct atom_spec *a)
{
    return parse_double(c->lx, lex_next(c->lx, "probability"),
                        "probability", &a->p);
}

static bool
parse_real_spec(const struct spec_ctx *c, struct atom_spec *a)
{
    return (parse_double(c->lx, lex_next(c->lx, "low"), "low", &a->lo)
            && parse_double(c->lx, lex_next(c->lx, "high"), "high",
                            &a->hi));
}

/* The optional mode after "ref TABLE". */
static bool
parse_ref_mode(const struct spec_ctx *c, struct atom_spec *a)
{
    static const struct {
        const char *name;
        enum ref_mode mode;
    } modes[] = {
        { "rand", REF_RAND }, { "cover", REF_COVER }, { "row", REF_ROW },
        { "owner", REF_OWNER }, { "div", REF_DIV },
    };
    const char *m = lex_next(c->lx, "ref mode");

    for (size_t i = 0; i < ARRAY_SIZE(modes); i++) {
        if (!strcmp(m, modes[i].name)) {
            a->ref_mode = modes[i].mode;
            if (a->ref_mode == REF_DIV
                && (!parse_int_token(c->lx, lex_next(c->lx, "divisor"),
                                     "divisor", &a->ref_k)
                    || a->ref_k < 1)) {
                lex_error(c->lx, "%s: div needs a positive divisor",
                          c->where);
                return false;
            }
            return true;
        }
    }
    lex_error(c->lx, "%s: unknown ref mode \"%s\" (rand, cover, row, div K, "
              "owner)", c->where, m);
    return false;
}

static bool
parse_ref_spec(const struct spec_ctx *c, struct atom_spec *a)
{
    const struct base_type *b = c->b;
    const char *tn = lex_next(c->lx, "referenced table");

    if (!tn) {
        return false;
    }
    a->ref_table = db_schema_table_index(c->schema, tn);
    if (a->ref_table < 0) {
        lex_error(c->lx, "%s: no table \"%s\" in the schema", c->where, tn);
        return false;
    }
    if (ref_index(b) >= 0 && ref_index(b) != a->ref_table) {
        lex_error(c->lx, "%s: the column references %s, not %s", c->where,
                  b->u.uuid.ref_table_name, tn);
        return false;
    }
    a->ref_mode = REF_RAND;
    return c->lx->pos >= c->lx->n || parse_ref_mode(c, a);
}

/* Every value spec: its keyword, what it becomes, the atomic type it needs
 * (ATOMIC_VOID: any type with literal atoms) and its parser. */
static const struct spec_type {
    const char *name;
    enum spec_kind kind;
    enum atomic_type type;
    bool (*parse)(const struct spec_ctx *, struct atom_spec *);
} spec_types[] = {
    { "str", S_STR, ATOMIC_STRING, parse_str_spec },
    { "oneof", S_STR, ATOMIC_STRING, parse_oneof_spec },
    { "pick", S_PICK, ATOMIC_VOID, parse_pick_spec },
    { "enum", S_PICK, ATOMIC_VOID, parse_pick_spec },
    { "int", S_INT, ATOMIC_INTEGER, parse_int_spec },
    { "rank", S_RANK, ATOMIC_INTEGER, parse_rank_spec },
    { "cycle", S_CYCLE, ATOMIC_VOID, parse_cycle_spec },
    { "seq", S_SEQ, ATOMIC_INTEGER, parse_seq_spec },
    { "mod", S_MOD, ATOMIC_INTEGER, parse_seq_spec },
    { "bool", S_BOOL, ATOMIC_BOOLEAN, parse_bool_spec },
    { "real", S_REAL, ATOMIC_REAL, parse_real_spec },
    { "ref", S_REF, ATOMIC_UUID, parse_ref_spec },
};

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
    const char *name = lex_next(lx, "value spec (str, oneof, pick, enum, "
                                "int, seq, mod, bool, real, ref)");
    if (!name) {
        return false;
    }
    for (size_t i = 0; i < ARRAY_SIZE(spec_types); i++) {
        const struct spec_type *st = &spec_types[i];
        if (!strcmp(name, st->name)) {
            struct spec_ctx c = { lx, schema, b, salt, where, name };
            a->kind = st->kind;
            return ((st->type == ATOMIC_VOID
                     || expect_type(lx, b, st->type, name, where))
                    && st->parse(&c, a));
        }
    }
    lex_error(lx, "%s: unknown value spec \"%s\"", where, name);
    return false;
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
