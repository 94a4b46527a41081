/* Row generation for ovsdb-gen: writes rows and transactions as JSON text
 * straight into the record writer, with no JSON trees, and counts what it
 * writes the way OVSDB counts atoms. */
#ifndef DATASETS_GEN_H
#define DATASETS_GEN_H 1

#include <stdbool.h>
#include <stdint.h>

#include "ovsdb/record-writer.h"
#include "profile.h"

struct u64_set {
    uint64_t *slots;            /* 0 marks an empty slot. */
    size_t mask, n;
};

struct new_child {
    uint64_t child, parent;
};

struct gen;

/* Text written around each transaction's JSON object, inside its record:
 * the clustered form's raft records (gen-raft.h).  'txn' is 0 for the
 * initial rows, k for log transaction k. */
struct gen_frame {
    void (*open)(struct gen *, void *aux, uint64_t txn);
    void (*close)(struct gen *, void *aux, uint64_t txn);
    void *aux;
    size_t initial_extra;       /* Bytes open and close add to txn 0, about. */
};

struct gen {
    struct profile *p;
    const struct db_schema *s;
    uint64_t seed;
    struct out *o;
    uint64_t txn;               /* {txn} and the log's transaction number. */
    const struct gen_frame *frame;  /* NULL: none (standalone files). */

    /* What has been generated, per table and by atom type. */
    uint64_t *rows;
    uint64_t *atoms;
    uint64_t atoms_by_type[N_ATOMIC_TYPES];
    uint64_t *base_atoms;       /* Per table: atoms of unspecified columns. */
    uint64_t (*base_by_type)[N_ATOMIC_TYPES];

    /* Log form state, bounded by the number of transactions. */
    uint64_t *inserted;         /* Per table: rows added by the log. */
    struct u64_set deleted;     /* (table << 40) | row. */
    struct new_child **new_children;   /* Per segment. */
    size_t *n_new_children;
    uint64_t n_log_inserts, n_log_deletes, n_log_modifies;

    struct u64_set seen;        /* Scratch: elements of the current set. */
    uint64_t date_ms;

    /* Progress. */
    uint64_t rows_done, rows_total;
    double start_time, last_progress;
    bool progress;
};

void gen_init(struct gen *, struct profile *, uint64_t seed, struct out *);
void gen_destroy(struct gen *);

/* Writes the data record of the snapshot form (every row, one
 * transaction), or, with 'diff' ("_is_diff":true, as the log form and a
 * cluster's snapshot have it), the log form's initial transaction. */
void gen_initial_record(struct gen *, bool diff);
/* Writes 'n' log transactions. */
void gen_log_records(struct gen *, uint64_t n);

/* 36 characters, not null-terminated. */
void gen_row_uuid(const struct gen *, int table, uint64_t row, char *out);

double gen_now(void);

#endif /* DATASETS_GEN_H */
