/* Profile parsing, stage 1: a line as tokens, numbers and weighted
 * distributions; see profile-parse.h. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ds.h"
#include "profile-parse.h"

/* ---- Tokenizer: one line at a time. ---- */


void
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

void
lex_clear(struct lexer *lx)
{
    for (size_t i = 0; i < lx->n; i++) {
        free(lx->tokens[i]);
    }
    lx->n = lx->pos = 0;
}

/* Splits 'line' into bare words and "quoted strings" (with \" and \\
 * escapes); '#' outside quotes starts a comment. */
bool
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

const char *
lex_next(struct lexer *lx, const char *what)
{
    if (lx->pos >= lx->n) {
        lex_error(lx, "missing %s", what);
        return NULL;
    }
    return lx->tokens[lx->pos++];
}

bool
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

bool
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

bool
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

bool
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

int64_t
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

void
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

uint64_t
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

/* ---- Stratified draws ("draws even"). ---- */

int64_t
dist_quantile(const struct dist *d, double u)
{
    double x = u * d->total;
    uint64_t prev = 0;
    for (size_t i = 0; i < d->n; i++) {
        const struct dist_item *it = &d->items[i];
        if (x < it->cum || i == d->n - 1) {
            if (it->hi == it->lo || it->cum == prev) {
                return it->lo;
            }
            double pos = (x - prev) / (it->cum - prev);
            uint64_t span = (uint64_t) (it->hi - it->lo) + 1;
            uint64_t k = (uint64_t) (pos * span);
            return it->lo + (int64_t) (k < span ? k : span - 1);
        }
        prev = it->cum;
    }
    return d->n ? d->items[d->n - 1].hi : 0;
}

/* A keyed bijection of [0, n): a balanced Feistel network on the smallest
 * even number of bits that covers n, walking the cycle until it lands
 * inside (at most 4 tries on average). */
static uint64_t
permute_below(uint64_t x, uint64_t n, uint64_t key)
{
    int bits = 2;
    while (bits < 62 && (1ULL << bits) < n) {
        bits += 2;
    }
    int half = bits / 2;
    uint64_t mask = (1ULL << half) - 1;
    do {
        uint64_t l = x >> half, r = x & mask;
        for (uint64_t i = 0; i < 4; i++) {
            uint64_t f = mix64(r ^ key ^ (i * 0x9e3779b97f4a7c15ULL)) & mask;
            uint64_t t = l ^ f;
            l = r;
            r = t;
        }
        x = (l << half) | r;
    } while (x >= n);
    return x;
}

double
strat_uniform(uint64_t seed, uint64_t salt, uint64_t row, uint64_t n)
{
    if (row >= n) {
        struct rng r = rng_derive(seed, salt, row, 0x7374726174);
        return (double) (rng_next(&r) >> 11) * 0x1.0p-53;
    }
    return (permute_below(row, n, mix64(seed ^ salt)) + 0.5) / n;
}
