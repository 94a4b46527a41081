/* Dataset twins, internals: what is counted of a database (twin-stats.c),
 * the structure decided from the counts (twin-decide.c), and the profile
 * written from both (twin-write.c); twin-derive.c runs them. */
#ifndef DATASETS_TWIN_STATS_H
#define DATASETS_TWIN_STATS_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db-load.h"
#include "ds.h"
#include "shash.h"
#include "twin-derive.h"
#include "twin-shape.h"

/* Map keys seen in fewer rows than this share are values, not keys. */
#define KEY_MIN_SHARE 0.005
#define MAX_KEYS 512            /* More distinct keys: generated keys. */
#define MAX_TOP 8               /* Frequent values with their own template. */
#define MAX_TEMPLATES 30        /* What "oneof" takes. */
#define DIST_ITEMS 32

/* String values counted by 64-bit hash (never their text). */
struct freq {
    struct freq_slot { uint64_t hash, count; } *slots;
    size_t mask, n;
};

/* A frequent string value: its own template, with the value's shape. */
struct top {
    uint64_t hash, count;
    struct shape shape;
    bool got;
};

/* The atoms of one kind in a column: its elements (or scalar), its map keys
 * or values, or the values of one map key. */
struct slot {
    const struct base_type *base;
    uint64_t n;
    struct i64_hist ints;
    double rmin, rmax;
    uint64_t n_true;
    uint64_t *enum_counts;      /* Per enum value. */
    struct freq freq;
    struct top *tops;
    size_t n_tops;
    struct shape_set shapes;
    uint32_t *hits;             /* References: per target row. */
    int ref_table;              /* -1 if not a reference. */
    bool strong;
    bool row_stable;            /* Shares values with another column. */
};

struct key_stat {
    char *key;
    uint64_t rows;
    struct slot value;
};

enum col_role {
    R_PLAIN,
    R_CHILDREN,                 /* Owns the rows it references. */
    R_COVER,                    /* References every row of a shared table. */
    R_UNIQUE_STRING,            /* Row-unique string (an index). */
    R_SEQ,                      /* Row-unique integer. */
    R_RANK,                     /* Position in its "per" group. */
    R_OWNER,                    /* The "per" group's parent row. */
    R_REF_ROW,                  /* Row-unique reference. */
};

struct col_stat {
    const struct column_schema *col;
    struct i64_hist sizes;      /* Sets and maps, per row, 0 included. */
    struct slot key, value;
    struct key_stat *keys;
    size_t n_keys;
    struct shash key_index;     /* key -> index + 1. */
    bool too_many_keys;
    enum col_role role;
};

enum table_mode { T_ROOT, T_CHILDREN, T_SHARED, T_PER, T_DROP };

struct table_stat {
    const struct table_schema *t;
    uint64_t rows;
    struct col_stat *cols;
    enum table_mode mode;
    int group_parent;           /* T_PER. */
    int group_col;              /* Its R_OWNER column. */
    bool emitted;

    /* String columns (scalars and sets), and in how many rows each
     * pair holds the same one value: columns that repeat each other. */
    size_t *eq_cols;
    size_t n_eq;
    uint64_t *eq;               /* n_eq x n_eq: equal in the same row. */
    uint64_t *eq_present;       /* Per column: rows with a value. */
};

struct deriver {
    const struct db_file *db;
    const struct db_schema *s;
    const struct twin_options *opt;
    struct table_stat *tables;
    uint32_t *ordinal;          /* Per store row: its index in its table. */
    struct ds notes;            /* Comments for the profile's head. */
};

/* twin-stats.c: the counts of every live row of 'db'. */
void deriver_init(struct deriver *, const struct db_file *,
                  const struct twin_options *);
void deriver_destroy(struct deriver *);
/* Pass 1 counts; pass 2 (after twin_decide()) collects string shapes. */
void visit_rows(struct deriver *, int pass);

/* twin-decide.c: tables' modes, columns' roles, frequent values. */
void twin_decide(struct deriver *);

/* twin-write.c: the profile text. */
void twin_write_profile(struct deriver *, struct ds *out);

/* A table that a reference can point to in the twin. */
static inline bool
target_usable(const struct deriver *d, int table)
{
    return table >= 0 && d->tables[table].rows
           && d->tables[table].mode != T_DROP;
}

#endif /* DATASETS_TWIN_STATS_H */
