/* Row and transaction generation; see gen.h. */
#include "gen.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ovsdb/uuid.h"
#include "util.h"

/* Every atom fits in this many bytes (templates are checked against it), so
 * reserving it up front keeps an atom's bytes in the buffer, where a default
 * value can be taken back and a set element compared with the others. */
#define ATOM_ROOM (64u << 10)
#define MAX_GENERATED_LEN 16000

static const char hexdigits[] = "0123456789abcdef";

double
gen_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- A set of 64-bit values (0 is reserved as empty). ---- */

static void
u64_set_clear(struct u64_set *s)
{
    if (s->mask > 1023) {
        /* After a large set, start small again: clearing is per column. */
        free(s->slots);
        memset(s, 0, sizeof *s);
    } else if (s->n) {
        memset(s->slots, 0, (s->mask + 1) * sizeof *s->slots);
        s->n = 0;
    }
}

/* Sizes an empty set for 'n' values at once, instead of growing it. */
static void
u64_set_reserve(struct u64_set *s, size_t n)
{
    size_t slots = 64;
    while (slots < 2 * n + 2) {
        slots *= 2;
    }
    if (slots > s->mask + 1) {
        free(s->slots);
        s->slots = xcalloc(slots, sizeof *s->slots);
        s->mask = slots - 1;
        s->n = 0;
    }
}

static bool u64_set_add(struct u64_set *, uint64_t);

static void
u64_set_grow(struct u64_set *s)
{
    struct u64_set bigger = { .mask = s->mask ? s->mask * 2 + 1 : 63 };
    bigger.slots = xcalloc(bigger.mask + 1, sizeof *bigger.slots);
    for (size_t i = 0; s->slots && i <= s->mask; i++) {
        if (s->slots[i]) {
            u64_set_add(&bigger, s->slots[i]);
        }
    }
    free(s->slots);
    *s = bigger;
}

/* Returns false if 'v' was already there. */
static bool
u64_set_add(struct u64_set *s, uint64_t v)
{
    v = v ? v : 1;
    if ((s->n + 1) * 2 > s->mask + 1) {
        u64_set_grow(s);
    }
    for (size_t i = mix64(v) & s->mask; ; i = (i + 1) & s->mask) {
        if (!s->slots[i]) {
            s->slots[i] = v;
            s->n++;
            return true;
        }
        if (s->slots[i] == v) {
            return false;
        }
    }
}

static bool
u64_set_contains(const struct u64_set *s, uint64_t v)
{
    v = v ? v : 1;
    if (!s->slots) {
        return false;
    }
    for (size_t i = mix64(v) & s->mask; s->slots[i]; i = (i + 1) & s->mask) {
        if (s->slots[i] == v) {
            return true;
        }
    }
    return false;
}

static uint64_t
hash_text(const char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL ^ n;
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = mix64(h ^ w);
        p += 8;
        n -= 8;
    }
    uint64_t w = 0;
    memcpy(&w, p, n);
    return mix64(h ^ w ^ 0x5555);
}

/* ---- Small formatters. ---- */

/* Two hex digits per byte value. */
static char hex_pairs[512];

static void
init_hex_pairs(void)
{
    for (int i = 0; i < 256; i++) {
        hex_pairs[2 * i] = hexdigits[i >> 4];
        hex_pairs[2 * i + 1] = hexdigits[i & 15];
    }
}

/* Version 4, RFC 4122 variant, as uuid_generate() makes them. */
static void
format_uuid(uint64_t hi, uint64_t lo, char *out)
{
    struct uuid u = uuid_from_u64(hi, lo);
    uuid_set_v4(&u);
    uuid_put(&u, out);
}

void
gen_row_uuid(const struct gen *g, int table, uint64_t row, char *out)
{
    struct rng r = rng_derive(g->seed, g->p->tables[table]->salt, row,
                              0x75756964);
    uint64_t hi = rng_next(&r);
    format_uuid(hi, rng_next(&r), out);
}

static void
put_uuid_atom(struct gen *g, int table, uint64_t row)
{
    char *p = out_room(g->o, 47);
    memcpy(p, "[\"uuid\",\"", 9);
    gen_row_uuid(g, table, row, p + 9);
    memcpy(p + 45, "\"]", 2);
    g->o->len += 47;
}

static void
put_u8(struct out *o, unsigned int v)
{
    out_put_u64(o, v & 255);
}

static void
put_hex(struct out *o, struct rng *r, int n)
{
    char *p = out_room(o, n);
    uint64_t bits = 0;
    for (int i = 0; i < n; i++) {
        if (!(i & 15)) {
            bits = rng_next(r);
        }
        p[i] = hexdigits[bits & 15];
        bits >>= 4;
    }
    o->len += n;
}

static void
put_mac(struct out *o, struct rng *r)
{
    uint64_t v = rng_next(r);
    char *p = out_room(o, 17);
    memcpy(p, "fa:16:3e:", 9);
    for (int i = 0; i < 3; i++) {
        p[9 + 3 * i] = hexdigits[(v >> (8 * i + 4)) & 15];
        p[10 + 3 * i] = hexdigits[(v >> (8 * i)) & 15];
        if (i < 2) {
            p[11 + 3 * i] = ':';
        }
    }
    o->len += 17;
}

static void
put_ip4(struct out *o, uint64_t v)
{
    out_lit(o, "10.");
    put_u8(o, v >> 16);
    out_putc(o, '.');
    put_u8(o, v >> 8);
    out_putc(o, '.');
    put_u8(o, v);
}

static void
put_ip6(struct out *o, struct rng *r)
{
    out_lit(o, "fd");
    put_hex(o, r, 2);
    out_putc(o, ':');
    put_hex(o, r, 4);
    out_putc(o, ':');
    put_hex(o, r, 4);
    out_lit(o, "::");
    put_hex(o, r, 3);
}

/* ---- OVN-like match and action text. ---- */

static void
put_port_name(struct out *o, struct rng *r)
{
    uint64_t hi = rng_next(r);
    char *p = out_room(o, 36);
    format_uuid(hi, rng_next(r), p);
    o->len += 36;
}

static void
put_match_clause(struct out *o, struct rng *r)
{
    switch (rng_below(r, 14)) {
    case 0: out_lit(o, "inport == \\\""); put_port_name(o, r);
        out_lit(o, "\\\""); break;
    case 1: out_lit(o, "outport == \\\""); put_port_name(o, r);
        out_lit(o, "\\\""); break;
    case 2: out_lit(o, "eth.src == "); put_mac(o, r); break;
    case 3: out_lit(o, "eth.dst == "); put_mac(o, r); break;
    case 4: out_lit(o, "ip4.src == "); put_ip4(o, rng_next(r)); break;
    case 5: out_lit(o, "ip4.dst == "); put_ip4(o, rng_next(r));
        out_lit(o, "/24"); break;
    case 6: out_lit(o, "ip6.dst == "); put_ip6(o, r); break;
    case 7: out_lit(o, "tcp.dst == "); out_put_u64(o, rng_below(r, 65536));
        break;
    case 8: out_lit(o, "reg0["); out_put_u64(o, rng_below(r, 32));
        out_lit(o, "] == 1"); break;
    case 9: out_lit(o, "ct.est && !ct.rel && !ct.new && ct.rpl"); break;
    case 10: out_lit(o, "ct_mark.blocked == 0"); break;
    case 11: out_lit(o, "ip4.src == $pg_"); put_hex(o, r, 8);
        out_lit(o, "_ip4"); break;
    case 12: out_lit(o, "arp.tpa == "); put_ip4(o, rng_next(r)); break;
    default: out_lit(o, "udp.src == 68 && udp.dst == 67"); break;
    }
}

static void
put_action(struct out *o, struct rng *r)
{
    switch (rng_below(r, 12)) {
    case 0: out_lit(o, "reg0["); out_put_u64(o, rng_below(r, 32));
        out_lit(o, "] = 1;"); break;
    case 1: out_lit(o, "ct_commit { ct_mark.blocked = 0; };"); break;
    case 2: out_lit(o, "eth.dst = "); put_mac(o, r); out_putc(o, ';');
        break;
    case 3: out_lit(o, "ip4.dst = "); put_ip4(o, rng_next(r));
        out_putc(o, ';'); break;
    case 4: out_lit(o, "outport = \\\""); put_port_name(o, r);
        out_lit(o, "\\\";"); break;
    case 5: out_lit(o, "ct_lb_mark(backends="); put_ip4(o, rng_next(r));
        out_lit(o, ":80,"); put_ip4(o, rng_next(r)); out_lit(o, ":80);");
        break;
    case 6: out_lit(o, "reg9[2] = lookup_arp(inport, ip4.src, eth.src);");
        break;
    case 7: out_lit(o, "flags.loopback = 1;"); break;
    case 8: out_lit(o, "ct_next;"); break;
    case 9: out_lit(o, "reg1 = "); put_ip4(o, rng_next(r));
        out_lit(o, "; eth.src = "); put_mac(o, r); out_putc(o, ';'); break;
    case 10: out_lit(o, "next(pipeline=ingress, table=");
        out_put_u64(o, rng_below(r, 30)); out_lit(o, ");"); break;
    default: out_lit(o, "output;"); break;
    }
}

/* Appends clauses until about 'target' bytes are written. */
static void
put_expression(struct out *o, struct rng *r, int64_t target, bool actions)
{
    size_t start = o->len;
    if (target <= 0) {
        return;
    }
    if (target > MAX_GENERATED_LEN) {
        target = MAX_GENERATED_LEN;
    }
    for (;;) {
        if (actions) {
            put_action(o, r);
        } else {
            put_match_clause(o, r);
        }
        if ((int64_t) (o->len - start) >= target - 8) {
            break;
        }
        if (actions) {
            out_putc(o, ' ');
        } else {
            out_lit(o, " && ");
        }
    }
    if (actions && (int64_t) (o->len - start) < target) {
        out_lit(o, " next;");
    }
}

/* ---- Atoms. ---- */

/* {upper}, {alpha} and {text}: 'n' random characters of the class. */
static void
put_chars(struct out *o, struct rng *r, int64_t n, enum piece_kind kind)
{
    static const char upper[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    static const char alpha[] = "abcdefghijklmnopqrstuvwxyz"
                                "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    /* Mostly letters and digits, with the spaces and punctuation of
     * expressions and lists; nothing that JSON escapes. */
    static const char text[] = "abcdefghijklmnopqrstuvwxyz"
                               "abcdefghijklmnopqrstuvwxyz0123456789"
                               "      ..::==--__,,;()[]/&|!$";
    const char *set = kind == P_UPPER ? upper : kind == P_ALPHA ? alpha
                      : text;
    size_t len = kind == P_UPPER ? sizeof upper - 1
                 : kind == P_ALPHA ? sizeof alpha - 1 : sizeof text - 1;

    n = n < 0 ? 0 : n > MAX_GENERATED_LEN ? MAX_GENERATED_LEN : n;
    char *p = out_room(o, n);
    for (int64_t k = 0; k < n; k++) {
        p[k] = set[rng_below(r, len)];
    }
    o->len += n;
}

struct row_ctx {
    int table;
    uint64_t row;
};

static void
put_template(struct gen *g, const struct tmpl *t, struct rng *rng,
             const struct row_ctx *ctx)
{
    struct out *o = g->o;
    struct rng whole;
    if (t->pool) {
        /* "{pool:N}": every piece drawn from one of N streams. */
        whole = rng_derive(t->salt, rng_below(rng, t->pool), g->seed,
                           0x74706f6f6c);
        rng = &whole;
    }
    for (size_t i = 0; i < t->n; i++) {
        const struct piece *pc = &t->pieces[i];
        struct rng pooled, *r = rng;
        if (pc->pool == POOL_ROW) {
            pooled = rng_derive(g->seed, g->p->tables[ctx->table]->salt,
                                ctx->row, pc->salt);
            r = &pooled;
        } else if (pc->pool) {
            pooled = rng_derive(pc->salt, rng_below(rng, pc->pool), g->seed,
                                0x706f6f6c);
            r = &pooled;
        }
        switch (pc->kind) {
        case P_LIT:
            out_put(o, pc->lit, pc->lit_len);
            break;
        case P_UUID: {
            uint64_t hi = rng_next(r);
            char *p = out_room(o, 36);
            format_uuid(hi, rng_next(r), p);
            o->len += 36;
            break;
        }
        case P_KEY: {
            struct rng k = rng_derive(g->seed, g->p->tables[ctx->table]->salt,
                                      ctx->row, 0x6b6579);
            uint64_t hi = rng_next(&k);
            char *p = out_room(o, 36);
            format_uuid(hi, rng_next(&k), p);
            o->len += 36;
            break;
        }
        case P_INDEX:
            out_put_u64(o, ctx->row);
            break;
        case P_INT:
            out_put_i64(o, dist_sample(&pc->dist, r));
            break;
        case P_HEX:
            put_hex(o, r, pc->n);
            break;
        case P_IP4:
            put_ip4(o, rng_next(r));
            break;
        case P_IP4I:
            out_put_u64(o, 10 + (ctx->row >> 24));
            out_putc(o, '.');
            put_u8(o, ctx->row >> 16);
            out_putc(o, '.');
            put_u8(o, ctx->row >> 8);
            out_putc(o, '.');
            put_u8(o, ctx->row);
            break;
        case P_IP6:
            put_ip6(o, r);
            break;
        case P_MAC:
            put_mac(o, r);
            break;
        case P_MACI: {
            /* 0a: locally administered, unlike the random fa:16:3e ones. */
            char *p = out_room(o, 17);
            memcpy(p, "0a:", 3);
            uint64_t v = ctx->row;
            for (int k = 4; k >= 0; k--) {
                memcpy(p + 3 + 3 * k, &hex_pairs[2 * (v & 255)], 2);
                if (k < 4) {
                    p[3 + 3 * k + 2] = ':';
                }
                v >>= 8;
            }
            o->len += 17;
            break;
        }
        case P_WORD: {
            int64_t n = dist_sample(&pc->dist, r);
            n = n > MAX_GENERATED_LEN ? MAX_GENERATED_LEN : n;
            char *p = out_room(o, n);
            for (int64_t k = 0; k < n; k++) {
                p[k] = 'a' + rng_below(r, 26);
            }
            o->len += n;
            break;
        }
        case P_UPPER:
        case P_ALPHA:
        case P_TEXT:
            put_chars(o, r, dist_sample(&pc->dist, r), pc->kind);
            break;
        case P_MATCH:
        case P_ACTIONS:
            put_expression(o, r, dist_sample(&pc->dist, r),
                           pc->kind == P_ACTIONS);
            break;
        case P_TXN:
            out_put_u64(o, g->txn);
            break;
        }
    }
}

static uint64_t
ref_target_rows(const struct gen *g, int table)
{
    return g->p->tables[table]->n_rows;
}

/* Writes one atom.  'j' is the element's position within its set, used by
 * references so that a set's elements are distinct rows. */
static void
put_atom(struct gen *g, struct atom_spec *a, struct rng *rng,
         const struct row_ctx *ctx, uint64_t j, uint64_t ref_start)
{
    struct out *o = g->o;
    out_room(o, ATOM_ROOM);
    switch (a->kind) {
    case S_STR: {
        out_putc(o, '"');
        size_t start = o->len;
        const struct tmpl *t = a->tmpls;
        if (a->n_tmpls > 1) {
            uint64_t x = rng_below(rng, a->tmpl_cum[a->n_tmpls - 1]);
            for (size_t k = 0; x >= a->tmpl_cum[k]; k++) {
                t++;
            }
        }
        put_template(g, t, rng, ctx);
        size_t n = o->len - start;
        const struct base_type *b = a->base;
        if (n > b->u.string.max_len) {
            o->len = start + b->u.string.max_len;
        }
        while (o->len - start < b->u.string.min_len) {
            out_putc(o, 'x');
        }
        out_putc(o, '"');
        break;
    }
    case S_PICK: {
        const struct pick_item *it = a->picks;
        if (a->n_picks > 1) {
            uint64_t x = rng_below(rng, a->pick_total);
            while (x >= it->cum) {
                it++;
            }
        }
        out_put(o, it->text, it->len);
        break;
    }
    case S_INT:
        out_put_i64(o, dist_sample(&a->dist, rng));
        break;
    case S_SEQ:
        out_put_i64(o, a->a + (int64_t) ctx->row + (int64_t) j);
        break;
    case S_MOD:
        out_put_i64(o, a->a + (int64_t) ((ctx->row + j) % a->b));
        break;
    case S_RANK: {
        const struct table_spec *ts = g->p->tables[ctx->table];
        uint64_t owner = table_group_owner(ts, ctx->row);
        out_put_i64(o, a->a + (int64_t) (ctx->row - ts->group_start[owner]));
        break;
    }
    case S_CYCLE: {
        const struct pick_item *it = &a->picks[(ctx->row + j) % a->n_picks];
        out_put(o, it->text, it->len);
        break;
    }
    case S_BOOL:
        if (rng_chance(rng, a->p)) {
            out_lit(o, "true");
        } else {
            out_lit(o, "false");
        }
        break;
    case S_REAL: {
        double v = a->lo + (a->hi - a->lo)
                   * ((double) (rng_next(rng) >> 11) * 0x1.0p-53);
        char tmp[32];
        int n = snprintf(tmp, sizeof tmp, "%.15g", v);
        out_put(o, tmp, n);
        break;
    }
    case S_REF: {
        uint64_t n = ref_target_rows(g, a->ref_table);
        uint64_t row = 0;
        switch (a->ref_mode) {
        case REF_RAND:
            row = (ref_start + j) % n;
            break;
        case REF_COVER:
            row = a->cover_next++ % n;
            break;
        case REF_ROW:
            row = (ctx->row + j) % n;
            break;
        case REF_DIV:
            row = (ctx->row / a->ref_k + j) % n;
            break;
        case REF_OWNER:
            row = table_group_owner(g->p->tables[ctx->table], ctx->row);
            break;
        }
        put_uuid_atom(g, a->ref_table, row);
        break;
    }
    case S_ENUM:        /* Parsed into S_PICK. */
    case S_CHILDREN:    /* Written by put_children(). */
        break;
    }
}

static bool
is_default_text(const char *p, size_t n, enum atomic_type type)
{
    switch (type) {
    case ATOMIC_STRING: return n == 2;                     /* "" */
    case ATOMIC_INTEGER: return n == 1 && p[0] == '0';
    case ATOMIC_REAL: return n == 1 && p[0] == '0';
    case ATOMIC_BOOLEAN: return n == 5 && p[0] == 'f';
    default: return false;
    }
}

static void
count_atoms(struct gen *g, int table, enum atomic_type type, uint64_t n)
{
    g->atoms[table] += n;
    g->atoms_by_type[type] += n;
}

static void
put_column_name(struct gen *g, const struct col_spec *cs, bool *first)
{
    struct out *o = g->o;
    if (!*first) {
        out_putc(o, ',');
    }
    *first = false;
    out_putc(o, '"');
    out_put(o, cs->col->name, strlen(cs->col->name));
    out_lit(o, "\":");
}

static int64_t
clamp_size(int64_t n, const struct column_schema *c)
{
    if (n < (int64_t) c->type.n_min) {
        n = c->type.n_min;
    }
    if ((uint64_t) n > c->type.n_max) {
        n = c->type.n_max;
    }
    return n;
}

/* Writes the elements of a set column; returns how many. */
static uint64_t
put_set(struct gen *g, struct col_spec *cs, struct rng *rng,
        const struct row_ctx *ctx, int64_t n, bool *first)
{
    struct out *o = g->o;
    struct atom_spec *a = &cs->elem;
    uint64_t ref_start = 0;
    if (a->kind == S_REF) {
        uint64_t rows = ref_target_rows(g, a->ref_table);
        n = (uint64_t) n > rows ? (int64_t) rows : n;
        ref_start = rows ? rng_below(rng, rows) : 0;
    }
    if (n <= 0) {
        return 0;
    }
    out_room(o, 512);
    size_t col_start = o->len;
    bool was_first = *first;
    put_column_name(g, cs, first);
    if (n > 1) {
        out_lit(o, "[\"set\",[");
    }
    bool dedupe = a->kind != S_REF;
    u64_set_clear(&g->seen);
    if (dedupe) {
        u64_set_reserve(&g->seen, n);
    }
    uint64_t written = 0;
    for (int64_t j = 0; j < n; j++) {
        for (int attempt = 0; ; attempt++) {
            out_room(o, ATOM_ROOM + 1);
            size_t start = o->len;
            if (written) {
                out_putc(o, ',');
            }
            size_t atom_start = o->len;
            put_atom(g, a, rng, ctx, j, ref_start);
            if (!dedupe || u64_set_add(&g->seen,
                                       hash_text(o->buf + atom_start,
                                                 o->len - atom_start))) {
                written++;
                break;
            }
            o->len = start;
            if (attempt >= 8) {
                break;
            }
        }
    }
    if (n > 1) {
        out_lit(o, "]]");
    }
    if (!written) {
        o->len = col_start;
        *first = was_first;
    }
    return written;
}

static void
put_children(struct gen *g, struct col_spec *cs, const struct row_ctx *ctx,
             bool with_children, bool *first)
{
    const struct segment *sg = &g->p->segments[cs->elem.segment];
    uint64_t lo = 0, hi = 0;
    if (with_children && ctx->row < sg->n_parents) {
        lo = sg->base + sg->start[ctx->row];
        hi = sg->base + sg->start[ctx->row + 1];
    }
    if (lo == hi) {
        return;
    }
    struct out *o = g->o;
    put_column_name(g, cs, first);
    if (hi - lo > 1) {
        out_lit(o, "[\"set\",[");
    }
    for (uint64_t c = lo; c < hi; c++) {
        if (c > lo) {
            out_putc(o, ',');
        }
        put_uuid_atom(g, sg->child_table, c);
    }
    if (hi - lo > 1) {
        out_lit(o, "]]");
    }
    count_atoms(g, ctx->table, ATOMIC_UUID, hi - lo);
}

static void
put_map_pair_open(struct out *o, uint64_t written)
{
    if (written) {
        out_putc(o, ',');
    }
    out_putc(o, '[');
}

/* Whether map key 'e' is in this row: a chance, or a stratified draw. */
static bool
key_present(const struct gen *g, const struct col_spec *cs,
            const struct row_ctx *ctx, size_t e, struct rng *rng)
{
    const struct table_spec *ts = g->p->tables[ctx->table];
    if (g->p->even) {
        return strat_uniform(g->seed, ts->salt ^ (cs->salt + e + 1),
                             ctx->row, ts->n_rows) < cs->entries[e].p;
    }
    return rng_chance(rng, cs->entries[e].p);
}

/* The size of a set or generated map: random, or a stratified draw. */
static int64_t
draw_size(const struct gen *g, const struct col_spec *cs,
          const struct row_ctx *ctx, struct rng *rng)
{
    const struct table_spec *ts = g->p->tables[ctx->table];
    if (g->p->even) {
        return dist_quantile(&cs->size,
                             strat_uniform(g->seed, ts->salt ^ ~cs->salt,
                                           ctx->row, ts->n_rows));
    }
    return dist_sample(&cs->size, rng);
}

static void
put_map_keys(struct gen *g, struct col_spec *cs, struct rng *rng,
             const struct row_ctx *ctx, bool *first)
{
    struct out *o = g->o;
    /* Decide which keys are present first, so that an empty map writes
     * nothing. */
    uint64_t present[4] = { 0 };
    uint64_t n = 0;
    for (size_t e = 0; e < cs->n_entries; e++) {
        if (cs->entries[e].p >= 1 || key_present(g, cs, ctx, e, rng)) {
            if (e < 256) {
                present[e / 64] |= 1ULL << (e % 64);
            }
            n++;
        }
    }
    if (!n) {
        return;
    }
    put_column_name(g, cs, first);
    out_lit(o, "[\"map\",[");
    uint64_t written = 0;
    for (size_t e = 0; e < cs->n_entries && e < 256; e++) {
        if (!(present[e / 64] & (1ULL << (e % 64)))) {
            continue;
        }
        put_map_pair_open(o, written++);
        out_put(o, cs->entries[e].key, cs->entries[e].key_len);
        out_putc(o, ',');
        put_atom(g, &cs->entries[e].value, rng, ctx, 0, 0);
        out_putc(o, ']');
    }
    out_lit(o, "]]");
    count_atoms(g, ctx->table, cs->col->type.key.type, written);
    count_atoms(g, ctx->table, cs->col->type.value.type, written);
}

static void
put_map_gen(struct gen *g, struct col_spec *cs, struct rng *rng,
            const struct row_ctx *ctx, bool *first)
{
    struct out *o = g->o;
    int64_t n = clamp_size(draw_size(g, cs, ctx, rng), cs->col);
    if (n <= 0) {
        return;
    }
    out_room(o, 512);
    put_column_name(g, cs, first);
    out_lit(o, "[\"map\",[");
    u64_set_clear(&g->seen);
    u64_set_reserve(&g->seen, n);
    uint64_t written = 0;
    for (int64_t j = 0; j < n; j++) {
        for (int attempt = 0; attempt < 8; attempt++) {
            out_room(o, ATOM_ROOM + 2);
            size_t start = o->len;
            put_map_pair_open(o, written);
            size_t key_start = o->len;
            put_atom(g, &cs->elem, rng, ctx, j, rng_next(rng));
            if (u64_set_add(&g->seen, hash_text(o->buf + key_start,
                                                o->len - key_start))) {
                out_putc(o, ',');
                put_atom(g, &cs->value, rng, ctx, j, rng_next(rng));
                out_putc(o, ']');
                written++;
                break;
            }
            o->len = start;
        }
    }
    out_lit(o, "]]");
    count_atoms(g, ctx->table, cs->col->type.key.type, written);
    count_atoms(g, ctx->table, cs->col->type.value.type, written);
}

static struct rng
column_rng(const struct gen *g, const struct table_spec *ts, uint64_t row,
           const struct col_spec *cs)
{
    return rng_derive(g->seed, ts->salt, row, cs->salt);
}

static int64_t
in_window(const struct gen *g, const struct table_spec *ts, uint64_t row,
          const struct col_spec *cs)
{
    double u = row_uniform(g->seed, ts, row);
    return u >= cs->row_lo && u < cs->row_hi;
}

static void
put_column(struct gen *g, struct table_spec *ts, struct col_spec *cs,
           const struct row_ctx *ctx, bool with_children, bool *first)
{
    struct out *o = g->o;
    struct rng rng = column_rng(g, ts, ctx->row, cs);
    switch (cs->form) {
    case F_SCALAR: {
        out_room(o, ATOM_ROOM + 512);
        size_t col_start = o->len;
        bool was_first = *first;
        put_column_name(g, cs, first);
        size_t atom_start = o->len;
        put_atom(g, &cs->elem, &rng, ctx, 0,
                 cs->elem.kind == S_REF
                 ? rng_below(&rng, ref_target_rows(g, cs->elem.ref_table))
                 : 0);
        if (is_default_text(o->buf + atom_start, o->len - atom_start,
                            cs->col->type.key.type)) {
            o->len = col_start;     /* Compaction leaves defaults out. */
            *first = was_first;
        }
        count_atoms(g, ctx->table, cs->col->type.key.type, 1);
        break;
    }
    case F_SET:
        if (cs->elem.kind == S_CHILDREN) {
            put_children(g, cs, ctx, with_children, first);
        } else {
            int64_t n = cs->row_window
                        ? clamp_size(in_window(g, ts, ctx->row, cs), cs->col)
                        : clamp_size(draw_size(g, cs, ctx, &rng), cs->col);
            count_atoms(g, ctx->table, cs->col->type.key.type,
                        put_set(g, cs, &rng, ctx, n, first));
        }
        break;
    case F_MAP_KEYS:
        put_map_keys(g, cs, &rng, ctx, first);
        break;
    case F_MAP_GEN:
        put_map_gen(g, cs, &rng, ctx, first);
        break;
    }
}

/* Writes "uuid":{columns} for one row. */
static void
put_row(struct gen *g, int table, uint64_t row, bool with_children)
{
    struct out *o = g->o;
    struct table_spec *ts = g->p->tables[table];
    struct row_ctx ctx = { .table = table, .row = row };
    char *p = out_room(o, 64);
    p[0] = '"';
    gen_row_uuid(g, table, row, p + 1);
    memcpy(p + 37, "\":{", 3);
    o->len += 40;
    bool first = true;
    for (size_t c = 0; c < ts->n_cols; c++) {
        put_column(g, ts, &ts->cols[c], &ctx, with_children, &first);
    }
    out_putc(o, '}');
    g->atoms[table] += g->base_atoms[table];
    for (int t = 0; t < N_ATOMIC_TYPES; t++) {
        g->atoms_by_type[t] += g->base_by_type[table][t];
    }
    g->rows[table]++;
}

/* ---- Setup. ---- */

void
gen_init(struct gen *g, struct profile *p, uint64_t seed, struct out *o)
{
    memset(g, 0, sizeof *g);
    init_hex_pairs();
    g->p = p;
    g->s = p->schema;
    g->seed = seed;
    g->o = o;
    size_t n = g->s->n_tables;
    g->rows = xcalloc(n, sizeof *g->rows);
    g->atoms = xcalloc(n, sizeof *g->atoms);
    g->inserted = xcalloc(n, sizeof *g->inserted);
    g->base_atoms = xcalloc(n, sizeof *g->base_atoms);
    g->base_by_type = xcalloc(n, sizeof *g->base_by_type);
    g->new_children = xcalloc(p->n_segments + 1, sizeof *g->new_children);
    g->n_new_children = xcalloc(p->n_segments + 1,
                                sizeof *g->n_new_children);
    /* _uuid and _version are two UUID atoms in every row (OVSDB counts
     * them), and an unspecified scalar column holds its default atom. */
    for (size_t t = 0; t < n; t++) {
        const struct table_spec *ts = p->tables[t];
        if (!ts) {
            continue;
        }
        g->base_atoms[t] = 2;
        g->base_by_type[t][ATOMIC_UUID] = 2;
        for (size_t c = 0; c < ts->t->n_columns; c++) {
            const struct column_schema *col = ts->t->columns[c];
            bool specified = false;
            for (size_t k = 0; k < ts->n_cols; k++) {
                specified |= ts->cols[k].column == (int) c;
            }
            if (!specified && ovsdb_type_is_scalar(&col->type)) {
                g->base_atoms[t]++;
                g->base_by_type[t][col->type.key.type]++;
            }
        }
        g->rows_total += ts->n_rows;
    }
    /* Dates are derived from the seed, never from the clock. */
    g->date_ms = 1700000000000ULL + (mix64(seed) % 100000000000ULL);
}

void
gen_destroy(struct gen *g)
{
    free(g->rows);
    free(g->atoms);
    free(g->inserted);
    free(g->base_atoms);
    free(g->base_by_type);
    for (size_t i = 0; i <= g->p->n_segments; i++) {
        free(g->new_children[i]);
    }
    free(g->new_children);
    free(g->n_new_children);
    free(g->deleted.slots);
    free(g->seen.slots);
}

static void
progress(struct gen *g, bool last)
{
    if (!g->progress) {
        return;
    }
    double now = gen_now();
    if (!last && now - g->last_progress < 2.0) {
        return;
    }
    g->last_progress = now;
    double mb = out_total_bytes(g->o) / 1e6;
    double secs = now - g->start_time;
    fprintf(stderr, "ovsdb-gen: %.1f MB, %"PRIu64"/%"PRIu64" rows "
            "(%.0f%%), %.1f s, %.1f MB/s\n", mb, g->rows_done,
            g->rows_total,
            g->rows_total ? 100.0 * g->rows_done / g->rows_total : 100.0,
            secs, secs > 0 ? mb / secs : 0);
}

static void
put_date(struct gen *g)
{
    out_lit(g->o, "\"_date\":");
    out_put_u64(g->o, g->date_ms);
}

/* Every atom spec's round-robin position, to undo a trial generation. */
static size_t
cover_state(struct gen *g, uint64_t *save, bool restore)
{
    size_t n = 0;
    for (size_t t = 0; t < g->s->n_tables; t++) {
        struct table_spec *ts = g->p->tables[t];
        for (size_t c = 0; ts && c < ts->n_cols; c++) {
            struct atom_spec *as[2] = { &ts->cols[c].elem,
                                        &ts->cols[c].value };
            for (int k = 0; k < 2; k++, n++) {
                if (save && restore) {
                    as[k]->cover_next = save[n];
                } else if (save) {
                    save[n] = as[k]->cover_next;
                }
            }
        }
    }
    return n;
}

/* Estimates the size of the initial record from a sample of rows, so that
 * its header can be reserved with the right number of digits (a wrong guess
 * only costs a shift of the body).  Leaves no trace in the generator. */
static uint64_t
estimate_initial_bytes(struct gen *g)
{
    size_t n_specs = cover_state(g, NULL, false);
    uint64_t *covers = xmalloc((n_specs + 1) * sizeof *covers);
    cover_state(g, covers, false);
    size_t nt = g->s->n_tables;
    uint64_t *rows = xmemdup(g->rows, nt * sizeof *rows);
    uint64_t *atoms = xmemdup(g->atoms, nt * sizeof *atoms);
    uint64_t by_type[N_ATOMIC_TYPES];
    memcpy(by_type, g->atoms_by_type, sizeof by_type);

    struct out *real = g->o;
    struct out scratch;
    memset(&scratch, 0, sizeof scratch);
    scratch.cap = 1u << 20;
    scratch.buf = xmalloc(scratch.cap);
    scratch.spool_fd = -1;
    g->o = &scratch;
    double total = 64;
    for (size_t t = 0; t < nt; t++) {
        const struct table_spec *ts = g->p->tables[t];
        if (!ts || !ts->n_rows) {
            continue;
        }
        uint64_t k = ts->n_rows < 256 ? ts->n_rows : 256, bytes = 0;
        for (uint64_t i = 0; i < k; i++) {
            scratch.len = 0;
            put_row(g, t, i * ts->n_rows / k, true);
            bytes += scratch.len + 1;
        }
        total += (double) bytes / k * ts->n_rows + strlen(ts->t->name) + 6;
    }
    g->o = real;
    free(scratch.buf);

    cover_state(g, covers, true);
    memcpy(g->rows, rows, nt * sizeof *rows);
    memcpy(g->atoms, atoms, nt * sizeof *atoms);
    memcpy(g->atoms_by_type, by_type, sizeof by_type);
    free(covers);
    free(rows);
    free(atoms);
    return total;
}

static int
decimal_digits(uint64_t v)
{
    int n = 1;
    while (v >= 10) {
        v /= 10;
        n++;
    }
    return n;
}

static void
frame_open(struct gen *g, uint64_t txn)
{
    if (g->frame) {
        g->frame->open(g, g->frame->aux, txn);
    }
}

static void
frame_close(struct gen *g, uint64_t txn)
{
    if (g->frame) {
        g->frame->close(g, g->frame->aux, txn);
    }
}

void
gen_initial_record(struct gen *g, bool diff)
{
    struct out *o = g->o;
    int digits = decimal_digits(estimate_initial_bytes(g)
                                + (g->frame ? g->frame->initial_extra : 0));
    /* Tests force a wrong guess to exercise the shift. */
    const char *skew = getenv("OVSDB_GEN_TEST_DIGITS_SKEW");
    if (skew) {
        digits += atoi(skew);
        digits = digits < 1 ? 1 : digits > 20 ? 20 : digits;
    }
    out_record_begin_direct(o, digits);
    frame_open(g, 0);
    out_putc(o, '{');
    put_date(g);
    for (size_t t = 0; t < g->s->n_tables; t++) {
        const struct table_spec *ts = g->p->tables[t];
        if (!ts || !ts->n_rows) {
            continue;
        }
        out_lit(o, ",\"");
        out_put(o, ts->t->name, strlen(ts->t->name));
        out_lit(o, "\":{");
        for (uint64_t r = 0; r < ts->n_rows; r++) {
            if (r) {
                out_putc(o, ',');
            }
            put_row(g, t, r, true);
            if (!(++g->rows_done & 4095)) {
                progress(g, false);
            }
        }
        out_putc(o, '}');
    }
    if (diff) {
        out_lit(o, ",\"_comment\":\"ovsdb-gen: initial rows\","
                "\"_is_diff\":true}");
    } else {
        out_lit(o, ",\"_comment\":\"compacted by ovsdb-gen\"}");
    }
    frame_close(g, 0);
    out_record_end(o);
    /* Strong references with "cover" must have reached every row, or
     * ovsdb-tool would collect the rest as garbage. */
    for (size_t t = 0; t < g->s->n_tables; t++) {
        const struct table_spec *ts = g->p->tables[t];
        for (size_t c = 0; ts && c < ts->n_cols; c++) {
            const struct atom_spec *a = &ts->cols[c].elem;
            if (a->kind == S_REF && a->ref_mode == REF_COVER
                && !g->s->tables[a->ref_table]->is_root
                && a->cover_next < g->p->tables[a->ref_table]->n_rows) {
                ovs_fatal(0, "%s: %s.%s references only %"PRIu64" of the "
                          "%"PRIu64" %s rows; the rest would be garbage "
                          "collected (raise its set sizes or row count)",
                          g->p->file_name, ts->t->name, ts->cols[c].col->name,
                          a->cover_next, g->p->tables[a->ref_table]->n_rows,
                          g->s->tables[a->ref_table]->name);
            }
        }
    }
    progress(g, true);
}

/* ---- Log transactions. ---- */

static uint64_t
live_rows(const struct gen *g, int table)
{
    return g->p->tables[table]->n_rows + g->inserted[table];
}

static uint64_t
deleted_key(int table, uint64_t row)
{
    return ((uint64_t) table << 40) | row;
}

/* Picks a row of 'table' that exists now, among its first 'hot' rows if
 * 'hot' is not 0; returns false if none found. */
static bool
pick_live_row(struct gen *g, struct rng *r, int table, uint64_t hot,
              uint64_t *row)
{
    uint64_t n = live_rows(g, table);
    n = hot && hot < n ? hot : n;
    for (int attempt = 0; n && attempt < 64; attempt++) {
        *row = rng_below(r, n);
        if (!u64_set_contains(&g->deleted, deleted_key(table, *row))) {
            return true;
        }
    }
    return false;
}

static void
open_table(struct gen *g, int table, bool *first)
{
    struct out *o = g->o;
    out_lit(o, ",\"");
    out_put(o, g->s->tables[table]->name, strlen(g->s->tables[table]->name));
    out_lit(o, "\":{");
    *first = false;
}

static void
put_row_key(struct gen *g, int table, uint64_t row)
{
    char *p = out_room(g->o, 40);
    p[0] = '"';
    gen_row_uuid(g, table, row, p + 1);
    memcpy(p + 37, "\":", 2);
    g->o->len += 39;
}

/* Parent row's diff: adds or removes one child (symmetric difference). */
static void
put_child_diff(struct gen *g, int parent_table, uint64_t parent,
               const struct col_spec *cs, int child_table, uint64_t child)
{
    bool first;
    open_table(g, parent_table, &first);
    put_row_key(g, parent_table, parent);
    out_lit(g->o, "{\"");
    out_put(g->o, cs->col->name, strlen(cs->col->name));
    out_lit(g->o, "\":");
    put_uuid_atom(g, child_table, child);
    out_lit(g->o, "}}");
}

static const char *
op_name(enum log_op_kind k)
{
    switch (k) {
    case OP_INSERT: return "insert";
    case OP_DELETE: return "delete";
    case OP_MODIFY: return "modify";
    case OP_CHILD_INSERT: return "child-insert";
    case OP_CHILD_DELETE: return "child-delete";
    case OP_SET_ADD: return "set-add";
    }
    return "?";
}

static bool
log_insert(struct gen *g, const struct log_op *op, struct rng *r)
{
    uint64_t row = live_rows(g, op->table);
    bool first;

    open_table(g, op->table, &first);
    put_row(g, op->table, row, false);
    out_putc(g->o, '}');
    g->inserted[op->table]++;
    g->n_log_inserts++;
    return true;
}

static bool
log_delete(struct gen *g, const struct log_op *op, struct rng *r)
{
    uint64_t row;
    bool first;

    if (!pick_live_row(g, r, op->table, op->hot, &row)) {
        return false;
    }
    open_table(g, op->table, &first);
    put_row_key(g, op->table, row);
    out_lit(g->o, "null}");
    u64_set_add(&g->deleted, deleted_key(op->table, row));
    g->rows[op->table]--;
    g->n_log_deletes++;
    return true;
}

static bool
log_modify(struct gen *g, const struct log_op *op, struct rng *r)
{
    struct out *o = g->o;
    uint64_t row;
    bool first;

    if (!pick_live_row(g, r, op->table, op->hot, &row)) {
        return false;
    }
    struct col_spec *cs = &g->p->tables[op->table]->cols[op->col_spec];
    struct row_ctx ctx = { .table = op->table, .row = row };
    open_table(g, op->table, &first);
    put_row_key(g, op->table, row);
    out_lit(o, "{\"");
    out_put(o, cs->col->name, strlen(cs->col->name));
    out_lit(o, "\":");
    /* A scalar's diff is its new value; a map's diff of one pair replaces
     * that key's value (or adds the key).  Only initial rows count atoms. */
    uint64_t saved_atoms = g->atoms[op->table];
    uint64_t saved_types[N_ATOMIC_TYPES];
    memcpy(saved_types, g->atoms_by_type, sizeof saved_types);
    if (cs->form == F_SCALAR) {
        put_atom(g, &cs->elem, r, &ctx, 0,
                 cs->elem.kind == S_REF
                 ? rng_below(r, ref_target_rows(g, cs->elem.ref_table))
                 : 0);
    } else {
        const struct map_entry *e = &cs->entries[rng_below(r,
                                                           cs->n_entries)];
        out_lit(o, "[\"map\",[[");
        out_put(o, e->key, e->key_len);
        out_putc(o, ',');
        put_atom(g, CONST_CAST(struct atom_spec *, &e->value), r, &ctx, 0,
                 0);
        out_lit(o, "]]]");
    }
    g->atoms[op->table] = saved_atoms;
    memcpy(g->atoms_by_type, saved_types, sizeof saved_types);
    out_lit(o, "}}");
    g->n_log_modifies++;
    return true;
}

/* Inserts a new child row of the children column 'cs' of 'parent_table''s
 * row 'parent', with the parent's diff; returns the child's row index. */
static uint64_t
insert_child(struct gen *g, int parent_table, struct col_spec *cs,
             uint64_t parent)
{
    int child_table = cs->elem.ref_table;
    int seg = cs->elem.segment;
    uint64_t child = live_rows(g, child_table);
    bool first;

    open_table(g, child_table, &first);
    put_row(g, child_table, child, false);
    out_putc(g->o, '}');
    put_child_diff(g, parent_table, parent, cs, child_table, child);
    g->inserted[child_table]++;
    g->new_children[seg] = xrealloc(g->new_children[seg],
                                    (g->n_new_children[seg] + 1)
                                    * sizeof *g->new_children[seg]);
    g->new_children[seg][g->n_new_children[seg]++]
        = (struct new_child) { child, parent };
    g->n_log_inserts++;
    return child;
}

static bool
log_child_insert(struct gen *g, const struct log_op *op, struct rng *r)
{
    struct col_spec *cs = &g->p->tables[op->table]->cols[op->col_spec];
    uint64_t row;

    if (!pick_live_row(g, r, op->table, op->hot, &row)) {
        return false;
    }
    insert_child(g, op->table, cs, row);
    return true;
}

/* A new row of 'table' for a set-add: a root table's on its own, a child
 * table's through a random live owner.  Returns false if no owner is
 * left. */
static bool
insert_new_row(struct gen *g, struct rng *r, int table, uint64_t *row)
{
    if (g->s->tables[table]->is_root) {
        bool first;
        *row = live_rows(g, table);
        open_table(g, table, &first);
        put_row(g, table, *row, false);
        out_putc(g->o, '}');
        g->inserted[table]++;
        g->n_log_inserts++;
        return true;
    }
    for (size_t i = 0; i < g->p->n_segments; i++) {
        const struct segment *sg = &g->p->segments[i];
        uint64_t parent;
        if (sg->child_table == table
            && pick_live_row(g, r, sg->parent_table, 0, &parent)) {
            struct table_spec *ps = g->p->tables[sg->parent_table];
            *row = insert_child(g, sg->parent_table, &ps->cols[sg->col_spec],
                                parent);
            return true;
        }
    }
    return false;
}

/* One new element in a set column of a (hot) row: a reference to a new
 * row, or a value from the op's spec with the transaction number as its
 * row index ({ip4i}, {i}, {key}: distinct in every transaction). */
static bool
log_set_add(struct gen *g, const struct log_op *op, struct rng *r)
{
    struct col_spec *cs = &g->p->tables[op->table]->cols[op->col_spec];
    struct out *o = g->o;
    uint64_t row, target = 0;
    bool first;

    if (!pick_live_row(g, r, op->table, op->hot, &row)
        || (!op->has_value
            && !insert_new_row(g, r, cs->elem.ref_table, &target))) {
        return false;
    }
    open_table(g, op->table, &first);
    put_row_key(g, op->table, row);
    out_lit(o, "{\"");
    out_put(o, cs->col->name, strlen(cs->col->name));
    out_lit(o, "\":");
    if (op->has_value) {
        /* Only initial rows count atoms. */
        uint64_t saved_atoms = g->atoms[op->table];
        uint64_t saved_types[N_ATOMIC_TYPES];
        memcpy(saved_types, g->atoms_by_type, sizeof saved_types);
        struct row_ctx ctx = { .table = op->table, .row = g->txn };
        put_atom(g, CONST_CAST(struct atom_spec *, &op->value), r, &ctx, 0,
                 0);
        g->atoms[op->table] = saved_atoms;
        memcpy(g->atoms_by_type, saved_types, sizeof saved_types);
    } else {
        put_uuid_atom(g, cs->elem.ref_table, target);
    }
    out_lit(o, "}}");
    g->n_log_modifies++;
    return true;
}

/* The parent row that owns initial child 'x' of segment 'sg'. */
static uint64_t
segment_parent(const struct segment *sg, uint64_t x)
{
    uint64_t lo = 0, hi = sg->n_parents;

    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (sg->start[mid] <= x) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

static bool
log_child_delete(struct gen *g, const struct log_op *op, struct rng *r)
{
    struct col_spec *cs = &g->p->tables[op->table]->cols[op->col_spec];
    int child_table = cs->elem.ref_table;
    int seg = cs->elem.segment;
    const struct segment *sg = &g->p->segments[seg];
    uint64_t initial = sg->start[sg->n_parents];
    uint64_t n = initial + g->n_new_children[seg];
    bool first;

    for (int attempt = 0; n && attempt < 64; attempt++) {
        uint64_t x = rng_below(r, n), child, parent;
        if (x < initial) {
            child = sg->base + x;
            parent = segment_parent(sg, x);
        } else {
            child = g->new_children[seg][x - initial].child;
            parent = g->new_children[seg][x - initial].parent;
        }
        if (u64_set_contains(&g->deleted, deleted_key(child_table, child))) {
            continue;
        }
        open_table(g, child_table, &first);
        put_row_key(g, child_table, child);
        out_lit(g->o, "null}");
        put_child_diff(g, op->table, parent, cs, child_table, child);
        u64_set_add(&g->deleted, deleted_key(child_table, child));
        g->rows[child_table]--;
        g->n_log_deletes++;
        return true;
    }
    return false;
}

/* Writes one operation of a log transaction; false if it found no row to
 * apply to (the caller draws another). */
static bool
log_op(struct gen *g, const struct log_op *op, struct rng *r)
{
    static bool (*const writers[])(struct gen *, const struct log_op *,
                                   struct rng *) = {
        [OP_INSERT] = log_insert,
        [OP_DELETE] = log_delete,
        [OP_MODIFY] = log_modify,
        [OP_CHILD_INSERT] = log_child_insert,
        [OP_CHILD_DELETE] = log_child_delete,
        [OP_SET_ADD] = log_set_add,
    };
    return writers[op->kind](g, op, r);
}

void
gen_log_records(struct gen *g, uint64_t n)
{
    struct out *o = g->o;
    if (!g->p->n_ops) {
        ovs_fatal(0, "%s: the log form needs \"log\" lines in the profile",
                  g->p->file_name);
    }
    for (uint64_t k = 1; k <= n; k++) {
        g->txn = k;
        struct rng r = rng_derive(g->seed, 0x6c6f67, k, 0);
        g->date_ms += 1 + rng_below(&r, 5000);
        size_t start;
        const struct log_op *op;
        /* An operation with nothing to work on (every row deleted) gives way
         * to another. */
        for (int attempt = 0; ; attempt++) {
            uint64_t x = rng_below(&r, g->p->ops_total);
            op = g->p->ops;
            while (x >= op->cum) {
                op++;
            }
            out_record_begin(o);
            frame_open(g, k);
            start = o->len;
            out_putc(o, '{');
            put_date(g);
            if (log_op(g, op, &r)) {
                break;
            }
            o->len = start;
            if (attempt > 100) {
                ovs_fatal(0, "log transaction %"PRIu64": no operation "
                          "applies", k);
            }
        }
        out_lit(o, ",\"_comment\":\"ovsdb-gen: ");
        out_put(o, op_name(op->kind), strlen(op_name(op->kind)));
        out_putc(o, ' ');
        out_put(o, g->s->tables[op->table]->name,
                strlen(g->s->tables[op->table]->name));
        out_lit(o, "\",\"_is_diff\":true}");
        frame_close(g, k);
        out_record_end(o);
        progress(g, false);
    }
}
