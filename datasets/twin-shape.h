/* What a dataset twin keeps of values: histograms of integers (sizes,
 * lengths, integer atoms) written as profile distributions, and the shapes
 * of strings (runs of character classes, UUID text, MAC, IPv4/IPv6,
 * numbers, hex) written as profile templates.  Nothing here keeps a string's
 * text. */
#ifndef DATASETS_TWIN_SHAPE_H
#define DATASETS_TWIN_SHAPE_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shash.h"

struct ds;

/* ---- Histograms of integers. ---- */

struct i64_hist {
    struct i64_count { int64_t v; uint64_t n; } *slots;
    size_t mask, n;             /* Slots with n > 0. */
    uint64_t total;             /* Sum of the counts. */
};

void i64_hist_add(struct i64_hist *, int64_t v, uint64_t n);
void i64_hist_destroy(struct i64_hist *);
int64_t i64_hist_max(const struct i64_hist *);
/* Appends "V:W,LO..HI:W,..." (weights are counts): each value if there are
 * at most 'max_items', else 'max_items' ranges of about equal weight. */
void i64_hist_put_dist(const struct i64_hist *, size_t max_items,
                       struct ds *);

/* Appends a distribution that keeps only the magnitudes of the values:
 * how many are zero, and how many have each number of digits (per sign),
 * as ranges within [min, max]. */
void i64_hist_put_magnitudes(const struct i64_hist *, int64_t min,
                             int64_t max, struct ds *);

/* ---- String shapes. ---- */

enum shape_kind {
    SH_LIT,         /* One punctuation or space character, kept. */
    SH_LOWER,       /* Lowercase letters (and bytes >= 0x80, controls). */
    SH_UPPER,
    SH_ALPHA,       /* Mixed-case letters. */
    SH_DIGITS,      /* A number in text. */
    SH_HEX,         /* Lowercase hex with digits and letters. */
    SH_UUID,
    SH_MAC,
    SH_IP4,
    SH_IP6,
    SH_TEXT,        /* Anything longer or more varied: printable text. */
};

#define SHAPE_MAX_PIECES 16
#define SHAPE_MAX_LEN 100       /* Longer strings are SH_TEXT. */

struct shape_piece {
    uint8_t kind;               /* enum shape_kind. */
    char lit;                   /* SH_LIT. */
    uint32_t len;
};

/* Splits the string into at most SHAPE_MAX_PIECES pieces (else one
 * SH_TEXT) and returns how many; the shape's key (kinds and kept
 * punctuation, lengths only of hex runs) goes into 'key'. */
size_t shape_of(const char *s, size_t n, struct shape_piece *,
                struct ds *key);

/* Strings of one shape. */
struct shape {
    struct shape_piece pieces[SHAPE_MAX_PIECES];
    size_t n_pieces;
    struct i64_hist lens[SHAPE_MAX_PIECES];     /* Lengths of each piece. */
    uint64_t n, distinct;
};

struct shape_set {
    struct shape *v;
    size_t n, allocated;
    struct shash index;         /* key -> index + 1. */
    bool init;
};

/* Adds one string ('first': its first occurrence, for the distinct
 * count). */
void shape_set_add(struct shape_set *, const char *s, size_t n, bool first);
void shape_set_destroy(struct shape_set *);

/* How a template is made unique per row (for the schema's indexes). */
enum unique_mode { UNIQUE_NO, UNIQUE_ROW };

/* Appends the template of 's' (unquoted profile syntax): "{pool:N}" first
 * if 'pool' (a fixed pool if 'fixed_pool'); with UNIQUE_ROW, the first
 * UUID, MAC, IPv4 or number becomes the row's own ({key}, {maci},
 * {ip4i}, {i}), or {i} is appended; 'row_stable' draws every other piece
 * per row ("@row": the same in every column of the row). */
void shape_put_template(const struct shape *, enum unique_mode,
                        bool row_stable, uint64_t pool, bool fixed_pool,
                        struct ds *);

/* The pool size that gives 'distinct' different values in 'n' uniform
 * draws (0: no pool, every draw is new). */
uint64_t pool_for(uint64_t n, uint64_t distinct);

/* Appends 's' as a quoted profile token. */
void put_profile_quoted(struct ds *, const char *s);

#endif /* DATASETS_TWIN_SHAPE_H */
