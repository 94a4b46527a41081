/* Dataset profiles: what rows ovsdb-gen writes for each table of a schema.
 * The format is documented in datasets/README.md; the parser checks every
 * spec against the schema (types, enums, integer bounds, references) so that
 * the generated database is valid for the real ovsdb-tool. */
#ifndef DATASETS_PROFILE_H
#define DATASETS_PROFILE_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ovsdb/rng.h"
#include "ovsdb/schema.h"

/* A weighted mixture of integer ranges, e.g. "1:60,5..8:35,50..80:5". */
struct dist_item {
    int64_t lo, hi;
    uint64_t cum;               /* Cumulative weight, scaled to integers. */
};
struct dist {
    struct dist_item *items;
    size_t n;
    uint64_t total;
};

/* Pieces of a string template such as "neutron-{uuid@50}". */
enum piece_kind {
    P_LIT,          /* Literal text (stored JSON-escaped). */
    P_UUID,         /* Random UUID text. */
    P_KEY,          /* UUID text unique to the row (same in every column). */
    P_INDEX,        /* Row index. */
    P_INT,          /* Integer from a distribution. */
    P_HEX,          /* N random hex digits. */
    P_IP4,          /* Random 10.x.y.z. */
    P_IP4I,         /* IPv4 address unique to the row index. */
    P_IP6,          /* Random fd00:... address. */
    P_MAC,          /* Random fa:16:3e:xx:xx:xx. */
    P_MACI,         /* MAC address unique to the row index. */
    P_WORD,         /* Random lowercase word, length from a distribution. */
    P_MATCH,        /* OVN match expression, length from a distribution. */
    P_ACTIONS,      /* OVN actions, length from a distribution. */
    P_TXN,          /* Transaction number (0 in the initial rows). */
    P_UPPER,        /* Random uppercase word, length from a distribution. */
    P_ALPHA,        /* Random mixed-case word, length from a distribution. */
    P_TEXT,         /* Random printable text (letters, digits, spaces and
                     * punctuation), length from a distribution. */
};

struct piece {
    enum piece_kind kind;
    char *lit;                  /* P_LIT: escaped text. */
    size_t lit_len;
    size_t raw_len;             /* P_LIT: unescaped length. */
    struct dist dist;           /* P_INT, P_WORD, P_MATCH, P_ACTIONS. */
    int64_t n;                  /* P_HEX: digits. */
    uint64_t pool;              /* Draw from this many variants (0: all;
                                 * POOL_ROW: one per row, whatever the
                                 * column). */
    double pool_base;           /* "@N": N at scale 1 (0 if fixed). */
    uint64_t salt;
};

#define POOL_ROW UINT64_MAX

struct tmpl {
    struct piece *pieces;
    size_t n;
    bool escapes;               /* Output may contain escaped characters. */
    uint64_t pool;              /* "{pool:N}": the whole string is one of */
    double pool_base;           /* this many variants (0: no pool); N at */
    uint64_t salt;              /* scale 1 (0 if "{pool:=N}", fixed). */
};

enum spec_kind {
    S_STR,          /* String template (or a weighted choice of them). */
    S_PICK,         /* Weighted choice among listed atoms. */
    S_ENUM,         /* Uniform choice among the schema's enum. */
    S_INT,          /* Integer from a distribution. */
    S_SEQ,          /* START + row index. */
    S_MOD,          /* START + row index % M. */
    S_RANK,         /* START + the row's position within its group. */
    S_CYCLE,        /* Listed atoms in turn: item (row index % N). */
    S_BOOL,         /* true with probability P. */
    S_REAL,         /* Uniform real in [LO, HI]. */
    S_REF,          /* Reference to a row of another table. */
    S_CHILDREN,     /* The set of child rows this row owns. */
};

enum ref_mode {
    REF_RAND,       /* Random row (in a set: a block of consecutive rows). */
    REF_COVER,      /* Round robin, so that every target row is used. */
    REF_ROW,        /* Row index % target rows. */
    REF_DIV,        /* (Row index / K) % target rows. */
    REF_OWNER,      /* The row of the group-parent table this row is in. */
};

struct pick_item {
    char *text;                 /* JSON text of the atom, ready to write. */
    size_t len;
    uint64_t cum;
};

struct atom_spec {
    enum spec_kind kind;
    enum atomic_type type;        /* Atom type of the column's key or value. */
    const struct base_type *base;
    struct tmpl *tmpls;         /* S_STR: one template, or weighted ones */
    uint64_t *tmpl_cum;         /* ("oneof"). */
    size_t n_tmpls;
    struct pick_item *picks;    /* S_PICK, S_ENUM. */
    size_t n_picks;
    uint64_t pick_total;
    struct dist dist;           /* S_INT. */
    int64_t a, b;               /* S_SEQ start; S_MOD modulus, start. */
    double p, lo, hi;           /* S_BOOL; S_REAL. */
    int ref_table;              /* S_REF, S_CHILDREN. */
    enum ref_mode ref_mode;
    int64_t ref_k;
    uint64_t cover_next;        /* S_REF cover: next row. */
    int segment;                /* S_CHILDREN: index into profile segments. */
};

struct map_entry {
    char *key;                  /* JSON text of the key atom. */
    size_t key_len;
    double p;                   /* Probability that the pair is present. */
    struct atom_spec value;
};

enum col_form {
    F_SCALAR,       /* Exactly one atom. */
    F_SET,          /* 0..n atoms; size from a distribution. */
    F_MAP_KEYS,     /* Map with listed keys, each present with a chance. */
    F_MAP_GEN,      /* Map with generated keys; size from a distribution. */
};

struct col_spec {
    int column;                 /* Index in the schema table. */
    const struct column_schema *col;
    enum col_form form;
    struct dist size;           /* F_SET, F_MAP_GEN. */
    bool row_window;            /* F_SET of max 1: present iff the row's */
    double row_lo, row_hi;      /* uniform draw is in [lo, hi). */
    struct atom_spec elem;      /* Set element, scalar, or generated key. */
    struct atom_spec value;     /* F_MAP_GEN value. */
    struct map_entry *entries;  /* F_MAP_KEYS. */
    size_t n_entries;
    uint64_t salt;
};

/* A contiguous range of a child table's rows owned through one children
 * column: parent row i owns child rows base + start[i] .. base + start[i+1]. */
struct segment {
    int parent_table;
    int col_spec;               /* Index into the parent's col_specs. */
    int child_table;
    uint64_t base;
    uint64_t *start;            /* n_parent_rows + 1 entries. */
    uint64_t n_parents;
};

struct table_spec {
    int table;
    const struct table_schema *t;
    double rows;                /* Rows at scale 1, unless from children. */
    bool fixed;                 /* Not scaled. */
    bool children;              /* Rows come from segments. */
    int group_parent;           /* "per TABLE DIST": -1 or parent table, */
    struct dist group_size;     /* rows per parent row, and where each */
    uint64_t *group_start;      /* parent's group starts (n parents + 1). */
    uint64_t n_group_parents;
    uint64_t n_rows;            /* Resolved for the chosen scale. */
    struct col_spec *cols;
    size_t n_cols;
    uint64_t salt;
};

enum log_op_kind { OP_INSERT, OP_DELETE, OP_MODIFY, OP_CHILD_INSERT,
                   OP_CHILD_DELETE, OP_SET_ADD };

struct log_op {
    enum log_op_kind kind;
    int table;                  /* Target (or parent) table. */
    int col_spec;               /* OP_MODIFY, OP_CHILD_*, OP_SET_ADD. */
    double weight;
    uint64_t cum;
    uint64_t hot;               /* "hot K": rows drawn among the first K
                                 * (0: among all). */
    size_t shape;               /* Index into profile's log_shapes. */
    bool has_value;             /* OP_SET_ADD of a non-reference column: */
    struct atom_spec value;     /* the new element. */
};

struct profile {
    char *file_name;
    const struct db_schema *schema;
    struct table_spec **tables; /* Indexed like schema->tables; may be NULL. */
    struct segment *segments;
    size_t n_segments;
    struct log_op *ops;
    size_t n_ops;
    uint64_t ops_total;
    char **log_shapes;          /* [0] is "" (log lines before any */
    size_t n_log_shapes;        /* "log-shape" line). */
    char *name;
    bool even;                  /* "draws even": sizes, group sizes and map
                                 * keys drawn stratified over the rows, so
                                 * their totals follow the distribution
                                 * exactly (dataset twins). */
};

/* Parses 'file_name' against 'schema'.  On error returns NULL with a
 * malloc'd "FILE:LINE: message" in '*errorp'. */
struct profile *profile_read(const char *file_name,
                             const struct db_schema *schema, char **errorp);
void profile_destroy(struct profile *);

/* Keeps only the "log" lines of log shape 'name' (NULL: those before any
 * "log-shape" line).  On error (no such shape) returns false with a
 * malloc'd message. */
bool profile_select_log_shape(struct profile *, const char *name,
                              char **errorp);

/* Computes every table's row count for 'scale' and the children segments.
 * On error returns false with a malloc'd message. */
bool profile_resolve(struct profile *, double scale, uint64_t seed,
                     char **errorp);

int64_t dist_sample(const struct dist *, struct rng *);
/* The group-parent row that owns row 'row' of a grouped table. */
uint64_t table_group_owner(const struct table_spec *, uint64_t row);
/* Uniform in [0, 1), the same for every column of a row. */
double row_uniform(uint64_t seed, const struct table_spec *, uint64_t row);
int64_t dist_max(const struct dist *);
/* The value at quantile 'u' in [0, 1) (ranges spread uniformly). */
int64_t dist_quantile(const struct dist *, double u);
/* A stratified uniform in [0, 1) for row 'row' of 'n': the rows' values are
 * a keyed permutation of (0.5 .. n - 0.5) / n, so a distribution sampled
 * at them has exactly its mean over the rows.  Random for rows >= n. */
double strat_uniform(uint64_t seed, uint64_t salt, uint64_t row, uint64_t n);

#endif /* DATASETS_PROFILE_H */
