/* Histograms and string shapes for dataset twins; see twin-shape.h. */
#include "twin-shape.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ds.h"
#include "ovsdb/rng.h"
#include "util.h"

/* ---- Histograms of integers. ---- */

static size_t
i64_slot(const struct i64_hist *h, int64_t v)
{
    size_t i = mix64((uint64_t) v) & h->mask;
    while (h->slots[i].n && h->slots[i].v != v) {
        i = (i + 1) & h->mask;
    }
    return i;
}

void
i64_hist_add(struct i64_hist *h, int64_t v, uint64_t n)
{
    if (!n) {
        return;
    }
    if ((h->n + 1) * 2 > h->mask + 1) {
        struct i64_hist b = { .mask = h->mask ? 2 * h->mask + 1 : 15,
                              .total = h->total };
        b.slots = xcalloc(b.mask + 1, sizeof *b.slots);
        for (size_t i = 0; h->slots && i <= h->mask; i++) {
            if (h->slots[i].n) {
                b.slots[i64_slot(&b, h->slots[i].v)] = h->slots[i];
                b.n++;
            }
        }
        free(h->slots);
        *h = b;
    }
    size_t i = i64_slot(h, v);
    if (!h->slots[i].n) {
        h->slots[i].v = v;
        h->n++;
    }
    h->slots[i].n += n;
    h->total += n;
}

void
i64_hist_destroy(struct i64_hist *h)
{
    free(h->slots);
    memset(h, 0, sizeof *h);
}

static int
cmp_count(const void *a_, const void *b_)
{
    const struct i64_count *a = a_, *b = b_;
    return a->v < b->v ? -1 : a->v > b->v;
}

/* The entries sorted by value; the caller frees them. */
static struct i64_count *
i64_hist_sorted(const struct i64_hist *h)
{
    struct i64_count *v = xmalloc((h->n ? h->n : 1) * sizeof *v);
    size_t k = 0;
    for (size_t i = 0; h->slots && i <= h->mask; i++) {
        if (h->slots[i].n) {
            v[k++] = h->slots[i];
        }
    }
    qsort(v, k, sizeof *v, cmp_count);
    return v;
}

int64_t
i64_hist_max(const struct i64_hist *h)
{
    int64_t max = INT64_MIN;
    for (size_t i = 0; h->slots && i <= h->mask; i++) {
        if (h->slots[i].n && h->slots[i].v > max) {
            max = h->slots[i].v;
        }
    }
    return max;
}

void
i64_hist_put_dist(const struct i64_hist *h, size_t max_items, struct ds *d)
{
    struct i64_count *v = i64_hist_sorted(h);
    if (!h->n) {
        ds_put_cstr(d, "0");
    } else if (h->n <= max_items) {
        for (size_t i = 0; i < h->n; i++) {
            ds_put_format(d, "%s%"PRId64, i ? "," : "", v[i].v);
            if (h->n > 1) {
                ds_put_format(d, ":%"PRIu64, v[i].n);
            }
        }
    } else {
        /* Ranges of about equal weight; a value heavier than a range's
         * share stands alone, so spikes stay exact. */
        uint64_t share = h->total / max_items + 1;
        size_t i = 0;
        bool first = true;
        while (i < h->n) {
            size_t j = i;
            uint64_t w = v[i].n;
            while (j + 1 < h->n && w < share && v[j + 1].n < share) {
                w += v[++j].n;
            }
            /* A range is drawn uniformly: move one end so that its mean
             * is the mean of the values it stands for. */
            int64_t lo = v[i].v, hi = v[j].v;
            if (j > i) {
                double sum = 0;
                for (size_t k = i; k <= j; k++) {
                    sum += (double) v[k].v * v[k].n;
                }
                double mean2 = 2 * sum / w;
                if (mean2 - lo <= hi) {
                    hi = llround(mean2 - lo);
                } else {
                    lo = llround(mean2 - hi);
                }
                hi = hi < lo ? lo : hi;
            }
            ds_put_format(d, "%s%"PRId64, first ? "" : ",", lo);
            if (hi > lo) {
                ds_put_format(d, "..%"PRId64, hi);
            }
            ds_put_format(d, ":%"PRIu64, w);
            first = false;
            i = j + 1;
        }
    }
    free(v);
}

/* 10^(digits - 1), the smallest number with that many digits (but 1). */
static int64_t
pow10_floor(int digits)
{
    int64_t p = 1;
    for (int k = 1; k < digits; k++) {
        p *= 10;
    }
    return p;
}

static int
digit_count(int64_t v)
{
    uint64_t u = v < 0 ? -(uint64_t) v : (uint64_t) v;
    int n = 1;
    while (u >= 10 && n < 19) {
        u /= 10;
        n++;
    }
    return n;
}

void
i64_hist_put_magnitudes(const struct i64_hist *h, int64_t min, int64_t max,
                        struct ds *d)
{
    /* Index 0: zero; 1..18: positive by digits; 19..36: negative. */
    uint64_t w[37] = { 0 };
    for (size_t i = 0; h->slots && i <= h->mask; i++) {
        const struct i64_count *c = &h->slots[i];
        if (c->n) {
            int k = !c->v ? 0 : digit_count(c->v);
            k = k > 18 ? 18 : k;
            w[c->v < 0 ? 18 + k : k] += c->n;
        }
    }
    int order[37], n = 0;
    for (int k = 36; k >= 19; k--) {
        order[n++] = k;         /* Negatives, largest magnitude first. */
    }
    for (int k = 0; k <= 18; k++) {
        order[n++] = k;         /* Zero, then positives. */
    }
    bool first = true;
    for (int o = 0; o < n; o++) {
        int idx = order[o];
        if (!w[idx]) {
            continue;
        }
        int64_t lo, hi;
        if (idx == 0) {
            lo = hi = 0;
        } else if (idx <= 18) {
            lo = idx == 1 ? 1 : pow10_floor(idx);
            hi = idx == 18 ? INT64_MAX / 10 : pow10_floor(idx + 1) - 1;
        } else {
            hi = idx == 19 ? -1 : -pow10_floor(idx - 18);
            lo = idx == 36 ? -(INT64_MAX / 10) : -(pow10_floor(idx - 17) - 1);
        }
        /* Within the column's bounds; the observed values are. */
        lo = lo < min ? min : lo;
        hi = hi > max ? max : hi;
        if (hi < lo) {
            continue;
        }
        ds_put_format(d, "%s%"PRId64, first ? "" : ",", lo);
        if (hi > lo) {
            ds_put_format(d, "..%"PRId64, hi);
        }
        ds_put_format(d, ":%"PRIu64, w[idx]);
        first = false;
    }
    if (first) {
        ds_put_format(d, "%"PRId64, min > 0 ? min : max < 0 ? max : 0);
    }
}

/* ---- String shapes. ---- */

static bool
is_hex(unsigned char c)
{
    return isdigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* Letters of a run: ASCII letters, and bytes a template cannot keep
 * (UTF-8 sequences, control characters) count as lowercase letters. */
static bool
is_letter(unsigned char c)
{
    return isalpha(c) || c >= 0x80 || c < 0x20;
}

static bool
boundary_before(const char *s, size_t i)
{
    return i == 0 || !(isalnum((unsigned char) s[i - 1]) || s[i - 1] == ':'
                       || s[i - 1] == '.');
}

static bool
boundary_after(const char *s, size_t n, size_t i)
{
    return i >= n || !(isalnum((unsigned char) s[i]) || s[i] == ':');
}

/* Length of UUID text at s[i], or 0. */
static size_t
match_uuid(const char *s, size_t n, size_t i)
{
    static const char pattern[] = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";
    if (n - i < 36 || !boundary_before(s, i)) {
        return 0;
    }
    for (size_t k = 0; k < 36; k++) {
        if (pattern[k] == '-' ? s[i + k] != '-'
                              : !is_hex((unsigned char) s[i + k])) {
            return 0;
        }
    }
    return boundary_after(s, n, i + 36) ? 36 : 0;
}

static size_t
match_mac(const char *s, size_t n, size_t i)
{
    if (n - i < 17 || !boundary_before(s, i)) {
        return 0;
    }
    for (size_t k = 0; k < 17; k++) {
        if (k % 3 == 2 ? s[i + k] != ':' : !is_hex((unsigned char) s[i + k])) {
            return 0;
        }
    }
    return boundary_after(s, n, i + 17) ? 17 : 0;
}

static size_t
match_ip4(const char *s, size_t n, size_t i)
{
    if (!boundary_before(s, i)) {
        return 0;
    }
    size_t k = i;
    for (int part = 0; part < 4; part++) {
        size_t digits = 0;
        while (k < n && isdigit((unsigned char) s[k]) && digits < 4) {
            k++;
            digits++;
        }
        if (!digits || digits > 3) {
            return 0;
        }
        if (part < 3) {
            if (k >= n || s[k] != '.') {
                return 0;
            }
            k++;
        }
    }
    if (k < n && (isalnum((unsigned char) s[k])
                  || (s[k] == '.' && k + 1 < n
                      && isdigit((unsigned char) s[k + 1])))) {
        return 0;
    }
    return k - i;
}

/* Hex groups joined by colons: with "::" or eight groups. */
static size_t
match_ip6(const char *s, size_t n, size_t i)
{
    if (!boundary_before(s, i)) {
        return 0;
    }
    size_t k = i, colons = 0, group = 0, hexes = 0;
    bool double_colon = false;
    while (k < n && (is_hex((unsigned char) s[k]) || s[k] == ':')) {
        if (s[k] == ':') {
            if (k > i && s[k - 1] == ':') {
                if (double_colon) {
                    return 0;
                }
                double_colon = true;
            }
            colons++;
            group = 0;
        } else if (++group > 4) {
            return 0;
        } else {
            hexes++;
        }
        k++;
    }
    if (colons < 2 || !hexes || (!double_colon && colons != 7)
        || (k < n && isalnum((unsigned char) s[k]))
        || (s[k - 1] == ':' && s[k - 2] != ':')) {
        return 0;
    }
    return k - i;
}

static void
add_piece(struct shape_piece *p, size_t *np, bool *overflow,
          enum shape_kind kind, char lit, size_t len)
{
    if (*np >= SHAPE_MAX_PIECES) {
        *overflow = true;
        return;
    }
    p[(*np)++] = (struct shape_piece) { kind, lit, len };
}

/* A run of letters and digits: hex, or letter and digit sub-runs. */
static void
split_run(const char *s, size_t n, struct shape_piece *p, size_t *np,
          bool *overflow)
{
    bool digit = false, letter = false, hex = true;
    for (size_t k = 0; k < n; k++) {
        unsigned char c = s[k];
        digit |= isdigit(c) != 0;
        letter |= !isdigit(c);
        hex &= isdigit(c) || (c >= 'a' && c <= 'f');
    }
    if (hex && digit && letter && n >= 4) {
        for (size_t k = 0; k < n; k += 64) {
            add_piece(p, np, overflow, SH_HEX, 0, n - k > 64 ? 64 : n - k);
        }
        return;
    }
    for (size_t k = 0; k < n; ) {
        size_t j = k;
        if (isdigit((unsigned char) s[k])) {
            while (j < n && isdigit((unsigned char) s[j]) && j - k < 18) {
                j++;
            }
            add_piece(p, np, overflow, SH_DIGITS, 0, j - k);
        } else {
            bool lower = false, upper = false;
            while (j < n && !isdigit((unsigned char) s[j])) {
                unsigned char c = s[j++];
                upper |= isupper(c) != 0;
                lower |= !isupper(c);
            }
            add_piece(p, np, overflow,
                      upper && lower ? SH_ALPHA : upper ? SH_UPPER : SH_LOWER,
                      0, j - k);
        }
        k = j;
    }
}

size_t
shape_of(const char *s, size_t n, struct shape_piece *p, struct ds *key)
{
    size_t np = 0;
    bool overflow = n > SHAPE_MAX_LEN;
    for (size_t i = 0; i < n && !overflow; ) {
        unsigned char c = s[i];
        size_t len;
        if ((len = match_uuid(s, n, i))) {
            add_piece(p, &np, &overflow, SH_UUID, 0, len);
        } else if ((len = match_mac(s, n, i))) {
            add_piece(p, &np, &overflow, SH_MAC, 0, len);
        } else if ((len = match_ip4(s, n, i))) {
            add_piece(p, &np, &overflow, SH_IP4, 0, len);
        } else if ((is_hex(c) || c == ':') && (len = match_ip6(s, n, i))) {
            add_piece(p, &np, &overflow, SH_IP6, 0, len);
        } else if (isalnum(c) || is_letter(c)) {
            len = 0;
            while (i + len < n && (isalnum((unsigned char) s[i + len])
                                   || is_letter(s[i + len]))) {
                len++;
            }
            split_run(s + i, len, p, &np, &overflow);
        } else {
            add_piece(p, &np, &overflow, SH_LIT, c, 1);
            len = 1;
        }
        i += len;
    }
    if (overflow) {
        np = 0;
        p[np++] = (struct shape_piece) { SH_TEXT, 0, n };
    }
    for (size_t k = 0; k < np; k++) {
        static const char codes[] = "_luaDHUM46T";
        ds_put_char(key, codes[p[k].kind]);
        if (p[k].kind == SH_LIT) {
            ds_put_char(key, p[k].lit);
        } else if (p[k].kind == SH_HEX) {
            ds_put_format(key, "%"PRIu32, p[k].len);
        }
        ds_put_char(key, '|');
    }
    return np;
}

void
shape_set_add(struct shape_set *set, const char *s, size_t n, bool first)
{
    struct shape_piece pieces[SHAPE_MAX_PIECES];
    struct ds key = DS_EMPTY_INITIALIZER;
    size_t np = shape_of(s, n, pieces, &key);
    ds_put_char(&key, '\0');

    if (!set->init) {
        shash_init(&set->index);
        set->init = true;
    }
    uintptr_t idx = (uintptr_t) shash_find_data(&set->index, key.string);
    struct shape *sh;
    if (idx) {
        sh = &set->v[idx - 1];
    } else {
        if (set->n >= set->allocated) {
            set->allocated = set->allocated ? 2 * set->allocated : 8;
            set->v = xrealloc(set->v, set->allocated * sizeof *set->v);
        }
        sh = &set->v[set->n++];
        memset(sh, 0, sizeof *sh);
        memcpy(sh->pieces, pieces, np * sizeof *pieces);
        sh->n_pieces = np;
        shash_add(&set->index, key.string, (void *) (uintptr_t) set->n);
    }
    for (size_t k = 0; k < np; k++) {
        i64_hist_add(&sh->lens[k], pieces[k].len, 1);
    }
    sh->n++;
    sh->distinct += first;
    ds_destroy(&key);
}

void
shape_set_destroy(struct shape_set *set)
{
    for (size_t i = 0; i < set->n; i++) {
        for (size_t k = 0; k < set->v[i].n_pieces; k++) {
            i64_hist_destroy(&set->v[i].lens[k]);
        }
    }
    free(set->v);
    if (set->init) {
        shash_destroy(&set->index);
    }
    memset(set, 0, sizeof *set);
}

/* {int:DIST}: numbers with the digit counts of the piece's lengths. */
static void
put_digits_dist(const struct i64_hist *lens, struct ds *d)
{
    struct i64_hist h = { 0 };
    bool first = true;
    for (size_t i = 0; lens->slots && i <= lens->mask; i++) {
        if (lens->slots[i].n) {
            i64_hist_add(&h, lens->slots[i].v, lens->slots[i].n);
        }
    }
    for (int64_t len = 1; len <= 18; len++) {
        size_t i = h.n ? i64_slot(&h, len) : 0;
        if (!h.n || !h.slots[i].n) {
            continue;
        }
        int64_t lo = 1;
        for (int64_t k = 1; k < len; k++) {
            lo *= 10;
        }
        ds_put_format(d, "%s%"PRId64"..%"PRId64":%"PRIu64, first ? "" : ",",
                      len == 1 ? 0 : lo, lo * 10 - 1, h.slots[i].n);
        first = false;
    }
    i64_hist_destroy(&h);
}

/* The first piece of a kind that a row-unique placeholder can replace. */
static int
unique_piece(const struct shape *sh)
{
    static const enum shape_kind order[] = {
        SH_UUID, SH_MAC, SH_IP4, SH_DIGITS,
    };
    for (size_t o = 0; o < ARRAY_SIZE(order); o++) {
        for (size_t k = 0; k < sh->n_pieces; k++) {
            if (sh->pieces[k].kind == order[o]) {
                return k;
            }
        }
    }
    return -1;
}

void
shape_put_template(const struct shape *sh, enum unique_mode unique,
                   bool row_stable, uint64_t pool, bool fixed_pool,
                   struct ds *d)
{
    int u = unique == UNIQUE_ROW ? unique_piece(sh) : -1;
    /* "@row": the piece's value depends on the row only, so that a column
     * that repeats another's value in the same row does here too. */
    const char *at = row_stable ? "@row" : "";
    if (pool && unique == UNIQUE_NO && !row_stable) {
        ds_put_format(d, "{pool:%s%"PRIu64"}", fixed_pool ? "=" : "", pool);
    }
    for (size_t k = 0; k < sh->n_pieces; k++) {
        const struct shape_piece *p = &sh->pieces[k];
        static const char *const words[] = {
            [SH_LOWER] = "word", [SH_UPPER] = "upper", [SH_ALPHA] = "alpha",
            [SH_TEXT] = "text",
        };
        bool mine = (int) k == u;
        switch ((enum shape_kind) p->kind) {
        case SH_LIT:
            if (p->lit == '{' || p->lit == '}') {
                ds_put_char(d, p->lit);
            }
            ds_put_char(d, p->lit);
            break;
        case SH_LOWER:
        case SH_UPPER:
        case SH_ALPHA:
        case SH_TEXT:
            ds_put_format(d, "{%s:", words[p->kind]);
            i64_hist_put_dist(&sh->lens[k], 16, d);
            ds_put_format(d, "%s}", at);
            break;
        case SH_DIGITS:
            if (mine) {
                ds_put_cstr(d, "{i}");
            } else {
                ds_put_cstr(d, "{int:");
                put_digits_dist(&sh->lens[k], d);
                ds_put_format(d, "%s}", at);
            }
            break;
        case SH_HEX:
            ds_put_format(d, "{hex:%"PRIu32"%s}", p->len, at);
            break;
        case SH_UUID:
            ds_put_format(d, "{%s%s}", mine ? "key" : "uuid", mine ? "" : at);
            break;
        case SH_MAC:
            ds_put_format(d, "{%s%s}", mine ? "maci" : "mac", mine ? "" : at);
            break;
        case SH_IP4:
            ds_put_format(d, "{%s%s}", mine ? "ip4i" : "ip4", mine ? "" : at);
            break;
        case SH_IP6:
            ds_put_format(d, "{ip6%s}", at);
            break;
        }
    }
    if (unique == UNIQUE_ROW && u < 0) {
        ds_put_cstr(d, "{i}");
    }
}

uint64_t
pool_for(uint64_t n, uint64_t distinct)
{
    if (!n || distinct >= n) {
        return 0;
    }
    if (distinct <= 1) {
        return 1;
    }
    /* P (1 - e^(-n/P)) grows with P from 1 towards n: bisect for
     * 'distinct'. */
    double lo = distinct, hi = 1e15;
    for (int i = 0; i < 200; i++) {
        double mid = sqrt(lo * hi);
        double got = mid * -expm1(-(double) n / mid);
        if (got < distinct) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return (uint64_t) llround(hi);
}

void
put_profile_quoted(struct ds *d, const char *s)
{
    ds_put_char(d, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') {
            ds_put_char(d, '\\');
        }
        ds_put_char(d, *s);
    }
    ds_put_char(d, '"');
}
