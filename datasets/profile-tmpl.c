/* Profile parsing: string templates such as "neutron-{uuid@50}"; see
 * profile-parse.h. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ds.h"
#include "profile-parse.h"

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
    { "upper", P_UPPER, 1 }, { "alpha", P_ALPHA, 1 }, { "text", P_TEXT, 1 },
};

/* "{pool:N}" (N variants at scale 1, scaled with the rows) or "{pool:=N}"
 * (N at any scale): the whole string is drawn from the pool. */
static bool
parse_tmpl_pool(struct lexer *lx, const char *s, const char *arg,
                uint64_t salt, struct tmpl *t)
{
    bool fixed = *arg == '=';
    const char *end;
    int64_t v;

    if (t->pool) {
        lex_error(lx, "template \"%s\": {pool} appears twice", s);
        return false;
    }
    if (!parse_i64(arg + fixed, &end, &v) || *end || v < 1) {
        lex_error(lx, "template \"%s\": bad {pool:%s} ({pool:N} or "
                  "{pool:=N})", s, arg);
        return false;
    }
    t->pool = v;
    t->pool_base = fixed ? 0 : v;
    t->salt = salt_of(s, "pool", salt);
    return true;
}

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

/* Splits "@N" (N variants at scale 1, scaled with the rows), "@=N" (N
 * variants at any scale) or "@row" (one value per row) off 'body'. */
static bool
parse_pool(struct lexer *lx, const char *s, char *body, struct piece *pc)
{
    char *at = strchr(body, '@');
    int64_t v;
    const char *end;

    pc->pool = 0;
    pc->pool_base = 0;
    if (!at) {
        return true;
    }
    *at = '\0';
    bool fixed = at[1] == '=';
    if (!strcmp(at + 1, "row")) {
        pc->pool = POOL_ROW;
    } else if (!parse_i64(at + 1 + fixed, &end, &v) || *end || v < 1) {
        lex_error(lx, "template \"%s\": bad pool \"@%s\" (@N, @=N or @row)",
                  s, at + 1);
        return false;
    } else {
        pc->pool = v;
        pc->pool_base = fixed ? 0 : v;
    }
    return true;
}

/* The argument of a placeholder: a distribution or {hex:N}'s digits. */
static bool
parse_placeholder_arg(struct lexer *lx, const char *s, int arg_kind,
                      const char *arg, struct piece *pc)
{
    if (arg_kind == 1) {
        if (!parse_dist(lx, arg, &pc->dist)) {
            return false;
        }
        if (pc->kind != P_INT && dist_min(&pc->dist) < 0) {
            lex_error(lx, "template \"%s\": negative length", s);
            free(pc->dist.items);
            return false;
        }
    } else if (arg_kind == 2) {
        if (!parse_int_token(lx, arg, "{hex:N}", &pc->n)
            || pc->n < 1 || pc->n > 64) {
            lex_error(lx, "template \"%s\": {hex:N} needs 1..64", s);
            return false;
        }
    }
    return true;
}

/* Parses the placeholder '{body}' of template 's' into 'pc', the n'th
 * piece. */
static bool
parse_placeholder(struct lexer *lx, const char *s, char *body, uint64_t salt,
                  size_t n, struct piece *pc)
{
    memset(pc, 0, sizeof *pc);
    if (!parse_pool(lx, s, body, pc)) {
        return false;
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
        lex_error(lx, "template \"%s\": unknown placeholder {%s}", s, body);
        return false;
    }
    if ((placeholders[k].arg != 0) != (arg != NULL)) {
        lex_error(lx, "template \"%s\": {%s} %s an argument", s, body,
                  placeholders[k].arg ? "needs" : "takes no");
        return false;
    }
    pc->kind = placeholders[k].kind;
    /* A row-stable piece depends only on what it is, so that the same
     * placeholder in two columns of a row gives the same value. */
    pc->salt = pc->pool == POOL_ROW ? salt_of(body, arg, 0)
                                    : salt_of(s, body, salt + n);
    return parse_placeholder_arg(lx, s, placeholders[k].arg, arg, pc);
}

bool
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
        if (!strncmp(body, "pool:", 5)) {
            bool ok = parse_tmpl_pool(lx, s, body + 5, salt, t);
            free(body);
            if (!ok) {
                goto error;
            }
            continue;
        }

        /* The literal before it first: a piece's salt counts the pieces
         * before it. */
        tmpl_add_lit(t, &allocated, &raw);
        struct piece pc;
        bool ok = parse_placeholder(lx, s, body, salt, t->n, &pc);
        free(body);
        if (!ok) {
            goto error;
        }
        if (t->n >= allocated) {
            allocated = allocated ? allocated * 2 : 4;
            t->pieces = xrealloc(t->pieces, allocated * sizeof *t->pieces);
        }
        if (pc.kind == P_MATCH || pc.kind == P_ACTIONS) {
            t->escapes = true;
        }
        t->pieces[t->n++] = pc;
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


void
tmpl_destroy(struct tmpl *t)
{
    for (size_t i = 0; i < t->n; i++) {
        free(t->pieces[i].lit);
        free(t->pieces[i].dist.items);
    }
    free(t->pieces);
}

/* 'n' templates, each followed by a weight if 'weighted'. */
bool
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
        if (a->tmpls[i].escapes && a->base->u.string.max_len != UINT_MAX) {
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
