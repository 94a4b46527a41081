/* Parser and resolver for dataset profiles (format: datasets/README.md). */
#include "profile.h"

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
#include "util.h"

/* Weights are decimal; they become integers with this resolution. */
#define WEIGHT_SCALE 1000000.0

/* ---- Tokenizer: one line at a time. ---- */

struct lexer {
    const char *file_name;
    int line_no;
    char *tokens[256];
    bool quoted[256];
    size_t n;
    size_t pos;                 /* Next token to consume. */
    bool indented;              /* Column and key lines are indented. */
    char *error;                /* First error, "FILE:LINE: ...". */
};

static void OVS_PRINTF_FORMAT(2, 3)
lex_error(struct lexer *lx, const char *format, ...)
{
    if (lx->error) {
        return;
    }
    va_list args;
    va_start(args, format);
    char *msg = xvasprintf(format, args);
    va_end(args);
    lx->error = xasprintf("%s:%d: %s", lx->file_name, lx->line_no, msg);
    free(msg);
}

static void
lex_clear(struct lexer *lx)
{
    for (size_t i = 0; i < lx->n; i++) {
        free(lx->tokens[i]);
    }
    lx->n = lx->pos = 0;
}

/* Splits 'line' into bare words and "quoted strings" (with \" and \\
 * escapes); '#' outside quotes starts a comment. */
static bool
lex_line(struct lexer *lx, const char *line)
{
    lex_clear(lx);
    lx->indented = *line == ' ' || *line == '\t';
    const char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') {
            p++;
        }
        if (!*p || *p == '#') {
            return true;
        }
        if (lx->n >= ARRAY_SIZE(lx->tokens)) {
            lex_error(lx, "too many tokens on one line");
            return false;
        }
        struct ds tok = DS_EMPTY_INITIALIZER;
        bool quoted = *p == '"';
        if (quoted) {
            p++;
            while (*p && *p != '"') {
                if (*p == '\\' && (p[1] == '"' || p[1] == '\\')) {
                    p++;
                }
                ds_put_char(&tok, *p++);
            }
            if (*p != '"') {
                ds_destroy(&tok);
                lex_error(lx, "unterminated quoted string");
                return false;
            }
            p++;
        } else {
            while (*p && !isspace((unsigned char) *p) && *p != '#'
                   && *p != '"') {
                ds_put_char(&tok, *p++);
            }
        }
        lx->quoted[lx->n] = quoted;
        lx->tokens[lx->n++] = tok.string ? ds_steal_cstr(&tok) : xstrdup("");
    }
}

static const char *
lex_next(struct lexer *lx, const char *what)
{
    if (lx->pos >= lx->n) {
        lex_error(lx, "missing %s", what);
        return NULL;
    }
    return lx->tokens[lx->pos++];
}

static bool
parse_double(struct lexer *lx, const char *s, const char *what, double *out)
{
    char *end;
    errno = 0;
    double d = s ? strtod(s, &end) : 0;
    if (!s || errno || end == s || *end || !isfinite(d)) {
        lex_error(lx, "%s: expected a number, got \"%s\"", what,
                  s ? s : "");
        return false;
    }
    *out = d;
    return true;
}

static bool
parse_i64(const char *s, const char **endp, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s) {
        return false;
    }
    *out = v;
    *endp = end;
    return true;
}

static bool
parse_int_token(struct lexer *lx, const char *s, const char *what,
                int64_t *out)
{
    const char *end;
    if (!s || !parse_i64(s, &end, out) || *end) {
        lex_error(lx, "%s: expected an integer, got \"%s\"", what,
                  s ? s : "");
        return false;
    }
    return true;
}

/* ---- Distributions: "A", "A..B", each optionally ":WEIGHT", joined by
 * commas. ---- */

static bool
parse_dist(struct lexer *lx, const char *s, struct dist *d)
{
    memset(d, 0, sizeof *d);
    if (!s) {
        lex_error(lx, "missing distribution");
        return false;
    }
    const char *p = s;
    double total = 0;
    size_t allocated = 0;
    while (*p) {
        int64_t lo, hi;
        const char *end;
        if (!parse_i64(p, &end, &lo)) {
            goto bad;
        }
        hi = lo;
        p = end;
        if (p[0] == '.' && p[1] == '.') {
            if (!parse_i64(p + 2, &end, &hi) || hi < lo) {
                goto bad;
            }
            p = end;
        }
        double w = 1;
        if (*p == ':') {
            char *wend;
            errno = 0;
            w = strtod(p + 1, &wend);
            if (errno || wend == p + 1 || !(w >= 0) || !isfinite(w)) {
                goto bad;
            }
            p = wend;
        }
        if (*p == ',') {
            p++;
        } else if (*p) {
            goto bad;
        }
        if (d->n >= allocated) {
            allocated = allocated ? allocated * 2 : 4;
            d->items = xrealloc(d->items, allocated * sizeof *d->items);
        }
        total += w;
        d->items[d->n++] = (struct dist_item) {
            .lo = lo, .hi = hi, .cum = (uint64_t) llround(total * WEIGHT_SCALE)
        };
    }
    if (!d->n || !d->items[d->n - 1].cum) {
        goto bad;
    }
    d->total = d->items[d->n - 1].cum;
    return true;

bad:
    lex_error(lx, "bad distribution \"%s\" (expected e.g. "
              "\"1:60,5..8:35,50..80:5\")", s);
    free(d->items);
    memset(d, 0, sizeof *d);
    return false;
}

int64_t
dist_sample(const struct dist *d, struct rng *r)
{
    const struct dist_item *it = d->items;
    if (d->n > 1) {
        uint64_t x = rng_below(r, d->total);
        while (x >= it->cum) {
            it++;
        }
    }
    if (it->hi == it->lo) {
        return it->lo;
    }
    return it->lo + (int64_t) rng_below(r, (uint64_t) (it->hi - it->lo) + 1);
}

int64_t
dist_max(const struct dist *d)
{
    int64_t max = INT64_MIN;
    for (size_t i = 0; i < d->n; i++) {
        if (d->items[i].hi > max) {
            max = d->items[i].hi;
        }
    }
    return max;
}

static int64_t
dist_min(const struct dist *d)
{
    int64_t min = INT64_MAX;
    for (size_t i = 0; i < d->n; i++) {
        if (d->items[i].lo < min) {
            min = d->items[i].lo;
        }
    }
    return min;
}

/* ---- JSON text of literal atoms. ---- */

static void
put_json_string(struct ds *out, const char *s, size_t n)
{
    ds_put_char(out, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        if (c == '"' || c == '\\') {
            ds_put_char(out, '\\');
            ds_put_char(out, c);
        } else if (c < 0x20) {
            ds_put_format(out, "\\u%04x", c);
        } else {
            ds_put_char(out, c);
        }
    }
    ds_put_char(out, '"');
}

static uint64_t
salt_of(const char *a, const char *b, uint64_t n)
{
    /* FNV-1a: stable across runs and platforms. */
    uint64_t h = 0xcbf29ce484222325ULL;
    for (const char *p = a; p && *p; p++) {
        h = (h ^ (unsigned char) *p) * 0x100000001b3ULL;
    }
    h = (h ^ 0xff) * 0x100000001b3ULL;
    for (const char *p = b; p && *p; p++) {
        h = (h ^ (unsigned char) *p) * 0x100000001b3ULL;
    }
    return mix64(h ^ n);
}

/* ---- Templates. ---- */

static const struct {
    const char *name;
    enum piece_kind kind;
    int arg;                    /* 0: none, 1: distribution, 2: integer. */
} placeholders[] = {
    { "uuid", P_UUID, 0 }, { "key", P_KEY, 0 }, { "i", P_INDEX, 0 },
    { "int", P_INT, 1 }, { "hex", P_HEX, 2 }, { "ip4", P_IP4, 0 },
    { "ip4i", P_IP4I, 0 }, { "ip6", P_IP6, 0 }, { "mac", P_MAC, 0 },
    { "maci", P_MACI, 0 },
    { "word", P_WORD, 1 }, { "match", P_MATCH, 1 },
    { "actions", P_ACTIONS, 1 }, { "txn", P_TXN, 0 },
};

static void
tmpl_add_lit(struct tmpl *t, size_t *allocated, struct ds *raw)
{
    if (!raw->length) {
        return;
    }
    struct ds esc = DS_EMPTY_INITIALIZER;
    put_json_string(&esc, raw->string, raw->length);
    if (t->n >= *allocated) {
        *allocated = *allocated ? *allocated * 2 : 4;
        t->pieces = xrealloc(t->pieces, *allocated * sizeof *t->pieces);
    }
    struct piece *pc = &t->pieces[t->n++];
    memset(pc, 0, sizeof *pc);
    pc->kind = P_LIT;
    /* Drop the quotes: literal pieces are pasted inside a string. */
    pc->lit = xmemdup0(esc.string + 1, esc.length - 2);
    pc->lit_len = esc.length - 2;
    pc->raw_len = raw->length;
    ds_destroy(&esc);
    ds_clear(raw);
}

static void tmpl_destroy(struct tmpl *);

static bool
parse_tmpl(struct lexer *lx, const char *s, uint64_t salt, struct tmpl *t)
{
    memset(t, 0, sizeof *t);
    size_t allocated = 0;
    struct ds raw = DS_EMPTY_INITIALIZER;
    for (const char *p = s; *p; ) {
        if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' && p[1] == '}')) {
            ds_put_char(&raw, *p);
            p += 2;
            continue;
        }
        if (*p == '}') {
            lex_error(lx, "template \"%s\": unmatched '}' (write '}}')", s);
            goto error;
        }
        if (*p != '{') {
            ds_put_char(&raw, *p++);
            continue;
        }
        const char *close = strchr(p, '}');
        if (!close) {
            lex_error(lx, "template \"%s\": unterminated '{'", s);
            goto error;
        }
        char *body = xmemdup0(p + 1, close - p - 1);
        p = close + 1;

        /* "@N": N variants at scale 1 (scaled with the rows); "@=N": N
         * variants at any scale; "@row": one value per row. */
        uint64_t pool = 0;
        double pool_base = 0;
        char *at = strchr(body, '@');
        if (at) {
            int64_t v;
            const char *end;
            *at = '\0';
            bool fixed = at[1] == '=';
            if (!strcmp(at + 1, "row")) {
                pool = POOL_ROW;
            } else if (!parse_i64(at + 1 + fixed, &end, &v) || *end
                       || v < 1) {
                lex_error(lx, "template \"%s\": bad pool \"@%s\" (@N, @=N "
                          "or @row)", s, at + 1);
                free(body);
                goto error;
            } else if (fixed) {
                pool = v;
            } else {
                pool = v;
                pool_base = v;
            }
        }
        char *arg = strchr(body, ':');
        if (arg) {
            *arg++ = '\0';
        }
        size_t k;
        for (k = 0; k < ARRAY_SIZE(placeholders); k++) {
            if (!strcmp(body, placeholders[k].name)) {
                break;
            }
        }
        if (k == ARRAY_SIZE(placeholders)) {
            lex_error(lx, "template \"%s\": unknown placeholder {%s}",
                      s, body);
            free(body);
            goto error;
        }
        if ((placeholders[k].arg != 0) != (arg != NULL)) {
            lex_error(lx, "template \"%s\": {%s} %s an argument", s, body,
                      placeholders[k].arg ? "needs" : "takes no");
            free(body);
            goto error;
        }
        tmpl_add_lit(t, &allocated, &raw);
        if (t->n >= allocated) {
            allocated = allocated ? allocated * 2 : 4;
            t->pieces = xrealloc(t->pieces, allocated * sizeof *t->pieces);
        }
        struct piece *pc = &t->pieces[t->n];
        memset(pc, 0, sizeof *pc);
        pc->kind = placeholders[k].kind;
        pc->pool = pool;
        pc->pool_base = pool_base;
        /* A row-stable piece depends only on what it is, so that the same
         * placeholder in two columns of a row gives the same value. */
        pc->salt = pool == POOL_ROW ? salt_of(body, arg, 0)
                                    : salt_of(s, body, salt + t->n);
        bool ok = true;
        if (placeholders[k].arg == 1) {
            ok = parse_dist(lx, arg, &pc->dist);
            if (ok && pc->kind != P_INT && dist_min(&pc->dist) < 0) {
                lex_error(lx, "template \"%s\": negative length", s);
                free(pc->dist.items);
                ok = false;
            }
        } else if (placeholders[k].arg == 2) {
            ok = parse_int_token(lx, arg, "{hex:N}", &pc->n)
                 && pc->n >= 1 && pc->n <= 64;
            if (!ok) {
                lex_error(lx, "template \"%s\": {hex:N} needs 1..64", s);
            }
        }
        free(body);
        if (!ok) {
            goto error;
        }
        if (pc->kind == P_MATCH || pc->kind == P_ACTIONS) {
            t->escapes = true;
        }
        t->n++;
    }
    tmpl_add_lit(t, &allocated, &raw);
    ds_destroy(&raw);
    return true;

error:
    ds_destroy(&raw);
    tmpl_destroy(t);
    memset(t, 0, sizeof *t);
    return false;
}

/* ---- Atom specs. ---- */

static bool
int_in_bounds(const struct base_type *b, int64_t v)
{
    return v >= b->min_int && v <= b->max_int;
}

/* JSON text of one literal atom of 'base' type, checked against enum and
 * bounds. */
static char *
literal_atom(struct lexer *lx, const struct base_type *b, const char *tok,
             const char *where)
{
    struct ds out = DS_EMPTY_INITIALIZER;
    switch (b->type) {
    case ATOM_STRING:
        if (b->n_enum) {
            size_t i;
            for (i = 0; i < b->n_enum; i++) {
                if (!strcmp(b->enum_strings[i], tok)) {
                    break;
                }
            }
            if (i == b->n_enum) {
                lex_error(lx, "%s: \"%s\" is not in the column's enum",
                          where, tok);
                return NULL;
            }
        }
        if (strlen(tok) < b->min_len || strlen(tok) > b->max_len) {
            lex_error(lx, "%s: \"%s\" violates the length limits", where,
                      tok);
            return NULL;
        }
        put_json_string(&out, tok, strlen(tok));
        break;
    case ATOM_INTEGER: {
        int64_t v;
        if (!parse_int_token(lx, tok, where, &v)) {
            return NULL;
        }
        bool ok = int_in_bounds(b, v);
        for (size_t i = 0; ok && b->n_enum && i <= b->n_enum; i++) {
            if (i == b->n_enum) {
                ok = false;
            } else if (b->enum_ints[i] == v) {
                break;
            }
        }
        if (!ok) {
            lex_error(lx, "%s: %"PRId64" is not allowed by the schema",
                      where, v);
            return NULL;
        }
        ds_put_format(&out, "%"PRId64, v);
        break;
    }
    case ATOM_BOOLEAN:
        if (strcmp(tok, "true") && strcmp(tok, "false")) {
            lex_error(lx, "%s: expected true or false", where);
            return NULL;
        }
        ds_put_cstr(&out, tok);
        break;
    case ATOM_REAL: {
        double d;
        if (!parse_double(lx, tok, where, &d)) {
            return NULL;
        }
        ds_put_format(&out, "%.15g", d);
        break;
    }
    case ATOM_UUID:
    case ATOM_VOID:
    case N_ATOM_TYPES:
    default:
        lex_error(lx, "%s: no literal atoms of type %s", where,
                  atom_type_name(b->type));
        return NULL;
    }
    return ds_steal_cstr(&out);
}

static void atom_spec_destroy(struct atom_spec *);

static void
tmpl_destroy(struct tmpl *t)
{
    for (size_t i = 0; i < t->n; i++) {
        free(t->pieces[i].lit);
        free(t->pieces[i].dist.items);
    }
    free(t->pieces);
}

/* 'n' templates, each followed by a weight if 'weighted'. */
static bool
parse_templates(struct lexer *lx, struct atom_spec *a, int64_t n,
                bool weighted, uint64_t salt, const char *where)
{
    a->tmpls = xcalloc(n, sizeof *a->tmpls);
    a->tmpl_cum = xcalloc(n, sizeof *a->tmpl_cum);
    double total = 0;
    for (int64_t i = 0; i < n; i++) {
        const char *t = lex_next(lx, "template");
        double w = 1;
        if (!t || !parse_tmpl(lx, t, salt + 1000 * i, &a->tmpls[i])) {
            return false;
        }
        a->n_tmpls++;
        if (weighted && (!parse_double(lx, lex_next(lx, "weight"), "weight",
                                       &w) || w < 0)) {
            return false;
        }
        total += w;
        a->tmpl_cum[i] = llround(total * WEIGHT_SCALE);
        if (a->tmpls[i].escapes && a->base->max_len != SIZE_MAX) {
            lex_error(lx, "%s: {match}/{actions} on a column with "
                      "maxLength", where);
            return false;
        }
    }
    if (!a->tmpl_cum[n - 1]) {
        lex_error(lx, "%s: weights are all zero", where);
        return false;
    }
    return true;
}

static bool
expect_type(struct lexer *lx, const struct base_type *b, enum atom_type t,
            const char *spec, const char *where)
{
    if (b->type != t) {
        lex_error(lx, "%s: \"%s\" needs a %s column, this one is %s",
                  where, spec, atom_type_name(t), atom_type_name(b->type));
        return false;
    }
    return true;
}

static bool
parse_atom_spec(struct lexer *lx, const struct schema *schema,
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
        if (!expect_type(lx, b, ATOM_STRING, kind, where)) {
            return false;
        }
        if (b->n_enum) {
            lex_error(lx, "%s: enum column: use \"pick\" or \"enum\"", where);
            return false;
        }
        if (!parse_templates(lx, a, 1, false, salt, where)) {
            return false;
        }
    } else if (!strcmp(kind, "oneof")) {
        a->kind = S_STR;
        int64_t n;
        if (!expect_type(lx, b, ATOM_STRING, kind, where)) {
            return false;
        }
        if (b->n_enum) {
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
            if (!b->n_enum) {
                lex_error(lx, "%s: \"enum\" on a column without an enum",
                          where);
                return false;
            }
            n = b->n_enum;
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
                if (b->type == ATOM_STRING) {
                    put_json_string(&d, b->enum_strings[i],
                                    strlen(b->enum_strings[i]));
                } else {
                    ds_put_format(&d, "%"PRId64, b->enum_ints[i]);
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
        if (!expect_type(lx, b, ATOM_INTEGER, kind, where)
            || !parse_dist(lx, lex_next(lx, "distribution"), &a->dist)) {
            return false;
        }
        if (!int_in_bounds(b, dist_min(&a->dist))
            || !int_in_bounds(b, dist_max(&a->dist)) || b->n_enum) {
            lex_error(lx, "%s: integers outside the column's range "
                      "[%"PRId64", %"PRId64"] (or an enum column)", where,
                      b->min_int, b->max_int);
            return false;
        }
    } else if (!strcmp(kind, "rank")) {
        a->kind = S_RANK;
        if (!expect_type(lx, b, ATOM_INTEGER, kind, where)
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
        if (!expect_type(lx, b, ATOM_INTEGER, kind, where)) {
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
        if (!expect_type(lx, b, ATOM_BOOLEAN, kind, where)
            || !parse_double(lx, lex_next(lx, "probability"), "probability",
                             &a->p)) {
            return false;
        }
    } else if (!strcmp(kind, "real")) {
        a->kind = S_REAL;
        if (!expect_type(lx, b, ATOM_REAL, kind, where)
            || !parse_double(lx, lex_next(lx, "low"), "low", &a->lo)
            || !parse_double(lx, lex_next(lx, "high"), "high", &a->hi)) {
            return false;
        }
    } else if (!strcmp(kind, "ref")) {
        a->kind = S_REF;
        if (!expect_type(lx, b, ATOM_UUID, kind, where)) {
            return false;
        }
        const char *tn = lex_next(lx, "referenced table");
        if (!tn) {
            return false;
        }
        a->ref_table = schema_find_table(schema, tn);
        if (a->ref_table < 0) {
            lex_error(lx, "%s: no table \"%s\" in the schema", where, tn);
            return false;
        }
        if (b->ref_table >= 0 && b->ref_table != a->ref_table) {
            lex_error(lx, "%s: the column references %s, not %s", where,
                      b->ref_table_name, tn);
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

static void
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

static bool
parse_column(struct lexer *lx, struct profile *p, struct table_spec *ts,
             const char *col_name, struct col_spec *cs)
{
    const struct schema *schema = p->schema;
    char where[256];
    snprintf(where, sizeof where, "%s.%s", ts->t->name, col_name);
    memset(cs, 0, sizeof *cs);
    cs->column = table_find_column(ts->t, col_name);
    if (cs->column < 0) {
        lex_error(lx, "table %s has no column \"%s\"", ts->t->name,
                  col_name);
        return false;
    }
    const struct column *c = cs->col = &ts->t->columns[cs->column];
    if (c->ephemeral) {
        lex_error(lx, "%s: ephemeral columns are not stored", where);
        return false;
    }
    cs->salt = salt_of(ts->t->name, col_name, 0);
    const char *form = lx->pos < lx->n ? lx->tokens[lx->pos] : "";
    bool quoted = lx->pos < lx->n && lx->quoted[lx->pos];

    if (!quoted && !strcmp(form, "map")) {
        lx->pos++;
        if (!column_is_map(c) || c->key.type != ATOM_STRING) {
            lex_error(lx, "%s: \"map\" needs a map column with string keys",
                      where);
            return false;
        }
        cs->form = F_MAP_KEYS;      /* Entries follow on "key" lines. */
    } else if (!quoted && !strcmp(form, "mapgen")) {
        lx->pos++;
        if (!column_is_map(c)) {
            lex_error(lx, "%s: \"mapgen\" needs a map column", where);
            return false;
        }
        cs->form = F_MAP_GEN;
        if (!parse_dist(lx, lex_next(lx, "size distribution"), &cs->size)
            || !parse_atom_spec(lx, schema, &c->key, cs->salt, where,
                                &cs->elem)
            || !parse_atom_spec(lx, schema, &c->value, cs->salt + 1, where,
                                &cs->value)) {
            return false;
        }
    } else if (!quoted && (!strcmp(form, "set") || !strcmp(form, "opt")
                           || !strcmp(form, "optrow")
                           || !strcmp(form, "children"))) {
        lx->pos++;
        if (column_is_map(c) || column_is_scalar(c)) {
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
            cs->elem.type = ATOM_UUID;
            cs->elem.base = &c->key;
            cs->elem.ref_table = schema_find_table(schema, tn);
            if (cs->elem.ref_table < 0 || c->key.ref_table
                != cs->elem.ref_table) {
                lex_error(lx, "%s: children must be rows of the column's "
                          "refTable (%s)", where,
                          c->key.ref_table_name ? c->key.ref_table_name
                          : "none");
                return false;
            }
            if (!schema->tables[cs->elem.ref_table].is_root
                && !c->key.ref_strong) {
                lex_error(lx, "%s: a weak reference cannot own non-root "
                          "rows", where);
                return false;
            }
        } else if (!parse_atom_spec(lx, schema, &c->key, cs->salt, where,
                                    &cs->elem)) {
            return false;
        }
    } else {
        if (column_is_map(c)) {
            lex_error(lx, "%s: map column: use \"map\" or \"mapgen\"", where);
            return false;
        }
        if (column_is_scalar(c)) {
            cs->form = F_SCALAR;
        } else {
            /* A bare atom spec on a set column means exactly one atom. */
            cs->form = F_SET;
            if (!parse_dist(lx, "1", &cs->size)) {
                return false;
            }
        }
        if (!parse_atom_spec(lx, schema, &c->key, cs->salt, where,
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

static bool
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
    char *key_text = literal_atom(lx, &cs->col->key, key, where);
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
    if (!parse_atom_spec(lx, p->schema, &cs->col->value,
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

static int
find_col_spec(const struct table_spec *ts, const char *name)
{
    for (size_t i = 0; i < ts->n_cols; i++) {
        if (!strcmp(ts->cols[i].col->name, name)) {
            return i;
        }
    }
    return -1;
}

static bool
parse_log_line(struct lexer *lx, struct profile *p)
{
    static const char *const names[] = {
        [OP_INSERT] = "insert", [OP_DELETE] = "delete",
        [OP_MODIFY] = "modify", [OP_CHILD_INSERT] = "child-insert",
        [OP_CHILD_DELETE] = "child-delete",
    };
    const char *kind = lex_next(lx, "log operation");
    if (!kind) {
        return false;
    }
    struct log_op op = { .col_spec = -1 };
    size_t k;
    for (k = 0; k < ARRAY_SIZE(names); k++) {
        if (!strcmp(kind, names[k])) {
            break;
        }
    }
    if (k == ARRAY_SIZE(names)) {
        lex_error(lx, "unknown log operation \"%s\" (insert, delete, modify, "
                  "child-insert, child-delete)", kind);
        return false;
    }
    op.kind = k;
    const char *tn = lex_next(lx, "table");
    if (!tn) {
        return false;
    }
    op.table = schema_find_table(p->schema, tn);
    if (op.table < 0 || !p->tables[op.table]) {
        lex_error(lx, "log %s: table \"%s\" has no profile", kind, tn);
        return false;
    }
    const struct table_spec *ts = p->tables[op.table];
    if (k == OP_MODIFY || k == OP_CHILD_INSERT || k == OP_CHILD_DELETE) {
        const char *cn = lex_next(lx, "column");
        if (!cn) {
            return false;
        }
        op.col_spec = find_col_spec(ts, cn);
        if (op.col_spec < 0) {
            lex_error(lx, "log %s: column %s.%s has no spec", kind, tn, cn);
            return false;
        }
        const struct col_spec *cs = &ts->cols[op.col_spec];
        bool children = cs->form == F_SET && cs->elem.kind == S_CHILDREN;
        if (k == OP_MODIFY && cs->form != F_SCALAR
            && cs->form != F_MAP_KEYS) {
            lex_error(lx, "log modify: %s.%s must be a scalar column or a "
                      "map with listed keys", tn, cn);
            return false;
        }
        if (k != OP_MODIFY && !children) {
            lex_error(lx, "log %s: %s.%s is not a children column", kind, tn,
                      cn);
            return false;
        }
        if (k == OP_CHILD_DELETE && cs->col->min > 0) {
            lex_error(lx, "log child-delete: %s.%s must keep at least one "
                      "child", tn, cn);
            return false;
        }
    }
    if (!parse_double(lx, lex_next(lx, "weight"), "weight", &op.weight)
        || op.weight < 0) {
        return false;
    }
    p->ops = xrealloc(p->ops, (p->n_ops + 1) * sizeof *p->ops);
    p->ops[p->n_ops++] = op;
    return true;
}

/* Checks what only the whole profile can tell. */
static bool
profile_check(struct lexer *lx, struct profile *p)
{
    const struct schema *s = p->schema;
    /* Which tables are referenced, and how. */
    bool *owned = xcalloc(s->n_tables, sizeof *owned);
    bool *covered = xcalloc(s->n_tables, sizeof *covered);
    bool *referenced = xcalloc(s->n_tables, sizeof *referenced);
    bool ok = true;
    for (size_t t = 0; t < s->n_tables; t++) {
        const struct table_spec *ts = p->tables[t];
        for (size_t c = 0; ts && c < ts->n_cols; c++) {
            const struct col_spec *cs = &ts->cols[c];
            const struct atom_spec *as[2] = { &cs->elem, &cs->value };
            for (int k = 0; k < 2; k++) {
                if (as[k]->kind == S_CHILDREN && as[k]->base) {
                    owned[as[k]->ref_table] = true;
                    referenced[as[k]->ref_table] = true;
                } else if (as[k]->kind == S_REF && as[k]->base) {
                    referenced[as[k]->ref_table] = true;
                    if (as[k]->ref_mode == REF_COVER && as[k]->base->ref_strong
                        && as[k]->base->ref_table >= 0) {
                        covered[as[k]->ref_table] = true;
                    }
                    if (!p->tables[as[k]->ref_table]) {
                        lex_error(lx, "%s.%s references %s, which has no "
                                  "profile", ts->t->name, cs->col->name,
                                  s->tables[as[k]->ref_table].name);
                        ok = false;
                    }
                }
            }
            for (size_t e = 0; e < cs->n_entries; e++) {
                const struct atom_spec *v = &cs->entries[e].value;
                if (v->kind == S_REF) {
                    referenced[v->ref_table] = true;
                }
            }
            if (cs->form == F_MAP_KEYS && !cs->n_entries) {
                lex_error(lx, "%s.%s: map without key lines", ts->t->name,
                          cs->col->name);
                ok = false;
            }
        }
    }
    for (size_t t = 0; ok && t < s->n_tables; t++) {
        const struct table_spec *ts = p->tables[t];
        if (!ts) {
            /* Owned rows need the child table's own "table" line (without
             * it nothing counts them; profile_resolve() relies on it). */
            if (owned[t]) {
                lex_error(lx, "table %s: rows owned through a children "
                          "column, so declare it \"table %s children\"",
                          s->tables[t].name, s->tables[t].name);
                ok = false;
            }
            continue;
        }
        if (ts->children && !owned[t]) {
            lex_error(lx, "table %s: declared \"children\" but no column "
                      "owns its rows", ts->t->name);
            ok = false;
        } else if (!ts->children && owned[t]) {
            lex_error(lx, "table %s: rows owned through a children column, "
                      "so declare it \"table %s children\"", ts->t->name,
                      ts->t->name);
            ok = false;
        } else if (!s->tables[t].is_root && !owned[t] && !covered[t]
                   && (ts->rows > 0 || ts->group_parent >= 0)) {
            lex_error(lx, "table %s is not a root table: its rows must be "
                      "owned (children) or referenced with \"ref %s cover\" "
                      "from a strong reference", ts->t->name, ts->t->name);
            ok = false;
        }
    }
    for (size_t i = 0; ok && i < p->n_ops; i++) {
        const struct log_op *op = &p->ops[i];
        const struct table_spec *ts = p->tables[op->table];
        int target = op->table;
        if (op->kind == OP_CHILD_INSERT || op->kind == OP_CHILD_DELETE) {
            target = ts->cols[op->col_spec].elem.ref_table;
        }
        bool has_children = false;
        for (size_t c = 0; c < p->tables[target]->n_cols; c++) {
            if (p->tables[target]->cols[c].elem.kind == S_CHILDREN) {
                has_children = true;
            }
        }
        if (op->kind == OP_INSERT && ts->group_parent >= 0) {
            lex_error(lx, "log: rows of %s belong to groups (\"per\"): "
                      "inserting is not supported", ts->t->name);
            ok = false;
        } else if ((op->kind == OP_DELETE || op->kind == OP_INSERT)
            && !s->tables[op->table].is_root) {
            lex_error(lx, "log: %s rows can only be inserted or deleted "
                      "through their parent (child-insert/child-delete)",
                      ts->t->name);
            ok = false;
        } else if ((op->kind == OP_DELETE || op->kind == OP_CHILD_DELETE)
                   && (has_children || (referenced[target]
                                        && op->kind == OP_DELETE))) {
            lex_error(lx, "log: deleting %s rows would also change other "
                      "rows (it owns children or is referenced)",
                      s->tables[target].name);
            ok = false;
        } else if (op->kind == OP_CHILD_DELETE) {
            /* Only its owner may reference a deletable child. */
            for (size_t t = 0; t < s->n_tables && ok; t++) {
                const struct table_spec *o = p->tables[t];
                for (size_t c = 0; o && c < o->n_cols; c++) {
                    if (o->cols[c].elem.kind == S_REF
                        && o->cols[c].elem.ref_table == target) {
                        lex_error(lx, "log: %s rows are referenced from "
                                  "%s.%s, so they cannot be deleted",
                                  s->tables[target].name, o->t->name,
                                  o->cols[c].col->name);
                        ok = false;
                        break;
                    }
                }
            }
        } else if (op->kind == OP_INSERT && has_children) {
            /* New rows start with no children: fine, unless the schema
             * needs at least one. */
            for (size_t c = 0; c < ts->n_cols; c++) {
                if (ts->cols[c].elem.kind == S_CHILDREN
                    && ts->cols[c].col->min > 0) {
                    lex_error(lx, "log insert: %s.%s needs children",
                              ts->t->name, ts->cols[c].col->name);
                    ok = false;
                }
            }
        }
    }
    free(owned);
    free(covered);
    free(referenced);
    return ok;
}

struct profile *
profile_read(const char *file_name, const struct schema *schema,
             char **errorp)
{
    *errorp = NULL;
    FILE *f = fopen(file_name, "r");
    if (!f) {
        *errorp = xasprintf("%s: cannot open: %s", file_name,
                            strerror(errno));
        return NULL;
    }
    struct profile *p = xzalloc(sizeof *p);
    p->file_name = xstrdup(file_name);
    p->schema = schema;
    p->tables = xcalloc(schema->n_tables, sizeof *p->tables);
    struct lexer lx = { .file_name = file_name };
    struct table_spec *cur = NULL;
    char *line = NULL;
    size_t line_size = 0;
    while (!lx.error && getline(&line, &line_size, f) != -1) {
        lx.line_no++;
        if (!lex_line(&lx, line) || !lx.n) {
            continue;
        }
        const char *first = lex_next(&lx, "keyword");
        if (lx.indented) {
            if (!cur) {
                lex_error(&lx, "indented line before any \"table\" line");
            } else if (!strcmp(first, "key")) {
                parse_key_line(&lx, p, cur);
            } else if (find_col_spec(cur, first) >= 0) {
                lex_error(&lx, "column %s.%s appears twice", cur->t->name,
                          first);
            } else {
                cur->cols = xrealloc(cur->cols,
                                     (cur->n_cols + 1) * sizeof *cur->cols);
                /* Counted even on error, so that cleanup sees it. */
                parse_column(&lx, p, cur, first, &cur->cols[cur->n_cols++]);
            }
        } else if (!strcmp(first, "profile")) {
            const char *name = lex_next(&lx, "profile name");
            if (name) {
                free(p->name);
                p->name = xstrdup(name);
            }
        } else if (!strcmp(first, "table")) {
            const char *tn = lex_next(&lx, "table name");
            const char *rows = lex_next(&lx, "row count or \"children\"");
            if (!rows) {
                continue;
            }
            int t = schema_find_table(schema, tn);
            if (t < 0) {
                lex_error(&lx, "no table \"%s\" in schema %s", tn,
                          schema->name);
                continue;
            }
            if (p->tables[t]) {
                lex_error(&lx, "table %s appears twice", tn);
                continue;
            }
            cur = p->tables[t] = xzalloc(sizeof *cur);
            cur->table = t;
            cur->t = &schema->tables[t];
            cur->salt = salt_of(tn, NULL, 0);
            cur->group_parent = -1;
            if (!strcmp(rows, "children")) {
                cur->children = true;
            } else if (!strcmp(rows, "per")) {
                const char *pn = lex_next(&lx, "group-parent table");
                int pt = pn ? schema_find_table(schema, pn) : -1;
                if (pt < 0 || !p->tables[pt] || pt == t) {
                    lex_error(&lx, "table %s: \"per\" needs an earlier "
                              "table of the profile", tn);
                    continue;
                }
                cur->group_parent = pt;
                if (!parse_dist(&lx, lex_next(&lx, "rows per parent row"),
                                &cur->group_size)) {
                    continue;
                }
                if (dist_min(&cur->group_size) < 0) {
                    lex_error(&lx, "table %s: negative group size", tn);
                    continue;
                }
            } else if (!parse_double(&lx, rows, "row count", &cur->rows)
                       || cur->rows < 0) {
                lex_error(&lx, "table %s: bad row count", tn);
                continue;
            }
            if (lx.pos < lx.n) {
                const char *opt = lex_next(&lx, "option");
                if (!strcmp(opt, "fixed") && !cur->children) {
                    cur->fixed = true;
                } else {
                    lex_error(&lx, "table %s: unexpected \"%s\"", tn, opt);
                }
            }
        } else if (!strcmp(first, "log")) {
            parse_log_line(&lx, p);
        } else {
            lex_error(&lx, "\"%s\": expected profile, table or log (column "
                      "and key lines are indented)", first);
        }
        if (!lx.error && lx.pos < lx.n && !lx.indented
            && !strcmp(first, "profile")) {
            lex_error(&lx, "unexpected \"%s\"", lx.tokens[lx.pos]);
        }
    }
    free(line);
    bool read_error = ferror(f);
    fclose(f);
    lex_clear(&lx);
    if (!lx.error && read_error) {
        lx.error = xasprintf("%s: read error", file_name);
    }
    if (!lx.error) {
        lx.line_no = 0;
        lx.file_name = file_name;
        if (!profile_check(&lx, p) && !lx.error) {
            lx.error = xasprintf("%s: invalid profile", file_name);
        }
        if (lx.error && !strncmp(lx.error + strlen(file_name), ":0: ", 4)) {
            /* Whole-profile errors have no line. */
            char *e = xasprintf("%s: %s", file_name,
                                lx.error + strlen(file_name) + 4);
            free(lx.error);
            lx.error = e;
        }
    }
    if (lx.error) {
        *errorp = lx.error;
        profile_destroy(p);
        return NULL;
    }
    double total = 0;
    for (size_t i = 0; i < p->n_ops; i++) {
        total += p->ops[i].weight;
        p->ops[i].cum = llround(total * WEIGHT_SCALE);
    }
    p->ops_total = p->n_ops ? p->ops[p->n_ops - 1].cum : 0;
    if (!p->name) {
        p->name = xstrdup(schema->name);
    }
    return p;
}

void
profile_destroy(struct profile *p)
{
    if (!p) {
        return;
    }
    for (size_t t = 0; t < p->schema->n_tables; t++) {
        struct table_spec *ts = p->tables[t];
        for (size_t c = 0; ts && c < ts->n_cols; c++) {
            struct col_spec *cs = &ts->cols[c];
            atom_spec_destroy(&cs->elem);
            atom_spec_destroy(&cs->value);
            for (size_t e = 0; e < cs->n_entries; e++) {
                free(cs->entries[e].key);
                atom_spec_destroy(&cs->entries[e].value);
            }
            free(cs->entries);
            free(cs->size.items);
        }
        if (ts) {
            free(ts->cols);
            free(ts->group_size.items);
            free(ts->group_start);
        }
        free(ts);
    }
    for (size_t i = 0; i < p->n_segments; i++) {
        free(p->segments[i].start);
    }
    free(p->segments);
    free(p->tables);
    free(p->ops);
    free(p->name);
    free(p->file_name);
    free(p);
}

static void
scale_pools(struct atom_spec *a, double scale)
{
    for (size_t k = 0; k < a->n_tmpls; k++) {
        for (size_t i = 0; i < a->tmpls[k].n; i++) {
            struct piece *pc = &a->tmpls[k].pieces[i];
            if (pc->pool_base > 0) {
                pc->pool = (uint64_t) fmax(1, llround(pc->pool_base * scale));
            }
        }
    }
}

bool
profile_resolve(struct profile *p, double scale, uint64_t seed,
                char **errorp)
{
    const struct schema *s = p->schema;
    *errorp = NULL;
    /* Collect the segments, in schema order for determinism. */
    for (size_t i = 0; i < p->n_segments; i++) {
        free(p->segments[i].start);
    }
    free(p->segments);
    p->segments = NULL;
    p->n_segments = 0;
    for (size_t t = 0; t < s->n_tables; t++) {
        struct table_spec *ts = p->tables[t];
        for (size_t c = 0; ts && c < ts->n_cols; c++) {
            if (ts->cols[c].elem.kind == S_CHILDREN) {
                p->segments = xrealloc(p->segments, (p->n_segments + 1)
                                       * sizeof *p->segments);
                ts->cols[c].elem.segment = p->n_segments;
                p->segments[p->n_segments++] = (struct segment) {
                    .parent_table = t, .col_spec = c,
                    .child_table = ts->cols[c].elem.ref_table,
                };
            }
        }
    }

    /* Pools grow with the rows, so the share of distinct strings does not
     * depend on the scale. */
    for (size_t t = 0; t < s->n_tables; t++) {
        struct table_spec *ts = p->tables[t];
        for (size_t c = 0; ts && c < ts->n_cols; c++) {
            struct col_spec *cs = &ts->cols[c];
            scale_pools(&cs->elem, scale);
            scale_pools(&cs->value, scale);
            for (size_t e = 0; e < cs->n_entries; e++) {
                scale_pools(&cs->entries[e].value, scale);
            }
        }
    }

    bool *known = xcalloc(s->n_tables, sizeof *known);
    for (size_t t = 0; t < s->n_tables; t++) {
        struct table_spec *ts = p->tables[t];
        if (!ts) {
            known[t] = true;
        } else if (ts->group_parent >= 0) {
            ts->n_rows = 0;
        } else if (!ts->children) {
            double rows = ts->fixed ? ts->rows : ts->rows * scale;
            ts->n_rows = ts->rows == 0 ? 0 : (uint64_t) fmax(1, llround(rows));
            known[t] = true;
        } else {
            ts->n_rows = 0;
        }
    }
    /* Resolve segments whose parent is known, until nothing changes; a child
     * table is known once all its segments are. */
    bool *done = xcalloc(p->n_segments ? p->n_segments : 1, sizeof *done);
    for (bool progress = true; progress; ) {
        progress = false;
        for (size_t t = 0; t < s->n_tables; t++) {
            struct table_spec *ts = p->tables[t];
            if (known[t] || !ts || ts->group_parent < 0
                || !known[ts->group_parent]) {
                continue;
            }
            const struct table_spec *ps = p->tables[ts->group_parent];
            free(ts->group_start);
            ts->n_group_parents = ps->n_rows;
            ts->group_start = xmalloc((ps->n_rows + 1)
                                      * sizeof *ts->group_start);
            ts->group_start[0] = 0;
            for (uint64_t r = 0; r < ps->n_rows; r++) {
                struct rng rng = rng_derive(seed, ts->salt, r, 0x67727570);
                ts->group_start[r + 1] = ts->group_start[r]
                                         + dist_sample(&ts->group_size, &rng);
            }
            ts->n_rows = ts->group_start[ps->n_rows];
            known[t] = progress = true;
        }
        for (size_t i = 0; i < p->n_segments; i++) {
            struct segment *sg = &p->segments[i];
            if (done[i] || !known[sg->parent_table]) {
                continue;
            }
            struct table_spec *ps = p->tables[sg->parent_table];
            const struct col_spec *cs = &ps->cols[sg->col_spec];
            sg->n_parents = ps->n_rows;
            sg->start = xmalloc((sg->n_parents + 1) * sizeof *sg->start);
            sg->start[0] = 0;
            for (uint64_t r = 0; r < sg->n_parents; r++) {
                struct rng rng = rng_derive(seed, ps->salt, r, cs->salt);
                int64_t n = dist_sample(&cs->size, &rng);
                if (n < (int64_t) cs->col->min) {
                    n = cs->col->min;
                }
                if ((uint64_t) n > cs->col->max) {
                    n = cs->col->max;
                }
                sg->start[r + 1] = sg->start[r] + n;
            }
            struct table_spec *cts = p->tables[sg->child_table];
            sg->base = cts->n_rows;
            cts->n_rows += sg->start[sg->n_parents];
            done[i] = true;
            progress = true;
            bool all = true;
            for (size_t j = 0; j < p->n_segments; j++) {
                if (p->segments[j].child_table == sg->child_table
                    && !done[j]) {
                    all = false;
                }
            }
            known[sg->child_table] = all;
        }
    }
    bool ok = true;
    for (size_t t = 0; t < s->n_tables && ok; t++) {
        if (!known[t]) {
            *errorp = xasprintf("%s: table %s: children form a cycle",
                                p->file_name, s->tables[t].name);
            ok = false;
        } else if (p->tables[t] && s->tables[t].max_rows >= 0
                   && p->tables[t]->n_rows
                      > (uint64_t) s->tables[t].max_rows) {
            *errorp = xasprintf("%s: table %s: %"PRIu64" rows, but the "
                                "schema allows at most %lld", p->file_name,
                                s->tables[t].name, p->tables[t]->n_rows,
                                s->tables[t].max_rows);
            ok = false;
        }
    }
    /* Sequences must stay within the column's range. */
    for (size_t t = 0; t < s->n_tables && ok; t++) {
        const struct table_spec *ts = p->tables[t];
        for (size_t c = 0; ts && c < ts->n_cols && ok; c++) {
            const struct atom_spec *a = &ts->cols[c].elem;
            if (a->kind == S_SEQ && ts->n_rows
                && (int64_t) (a->a + ts->n_rows - 1) > a->base->max_int) {
                *errorp = xasprintf("%s: %s.%s: seq %"PRId64" + %"PRIu64
                                    " rows exceeds the maximum %"PRId64,
                                    p->file_name, ts->t->name,
                                    ts->cols[c].col->name, a->a, ts->n_rows,
                                    a->base->max_int);
                ok = false;
            }
            if (a->kind == S_RANK && ts->group_parent < 0) {
                *errorp = xasprintf("%s: %s.%s: rank needs a \"per\" table",
                                    p->file_name, ts->t->name,
                                    ts->cols[c].col->name);
                ok = false;
            } else if (a->kind == S_RANK
                       && a->a + dist_max(&ts->group_size) - 1
                          > a->base->max_int) {
                *errorp = xasprintf("%s: %s.%s: rank %"PRId64" + group "
                                    "size exceeds the maximum %"PRId64,
                                    p->file_name, ts->t->name,
                                    ts->cols[c].col->name, a->a,
                                    a->base->max_int);
                ok = false;
            } else if (a->kind == S_REF && a->ref_mode == REF_OWNER
                       && a->ref_table != ts->group_parent) {
                *errorp = xasprintf("%s: %s.%s: \"owner\" must reference "
                                    "the table's \"per\" parent",
                                    p->file_name, ts->t->name,
                                    ts->cols[c].col->name);
                ok = false;
            }
            if (ok && (a->kind == S_REF) && ts->n_rows
                && !p->tables[a->ref_table]->n_rows
                && ts->cols[c].col->min > 0) {
                *errorp = xasprintf("%s: %s.%s needs a reference but %s has "
                                    "no rows", p->file_name, ts->t->name,
                                    ts->cols[c].col->name,
                                    s->tables[a->ref_table].name);
                ok = false;
            }
        }
    }
    free(known);
    free(done);
    return ok;
}

uint64_t
table_group_owner(const struct table_spec *ts, uint64_t row)
{
    uint64_t lo = 0, hi = ts->n_group_parents;
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (ts->group_start[mid] <= row) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

double
row_uniform(uint64_t seed, const struct table_spec *ts, uint64_t row)
{
    struct rng r = rng_derive(seed, ts->salt, row, 0x726f77);
    return (double) (rng_next(&r) >> 11) * 0x1.0p-53;
}
