/* What ovsdb-stats counts in a loaded database, for the whole file and per
 * table: rows, atoms (as OVSDB counts them: 1 per scalar or set element, 2
 * per map pair, plus _uuid, _version and the default atom of every scalar
 * column left out), atoms by type, string lengths, distinct strings, set and
 * map sizes. */
#ifndef DATASETS_DB_COUNTS_H
#define DATASETS_DB_COUNTS_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db-load.h"
#include "ovsdb/types.h"

#define N_LEN_BUCKETS 7
extern const char *const len_bucket_names[N_LEN_BUCKETS];
#define N_SIZE_BUCKETS 10
extern const char *const size_bucket_names[N_SIZE_BUCKETS];

int len_bucket(size_t n);
int size_bucket(size_t n);

/* A set of 64-bit hashes (0 stands for 1). */
struct hash_set {
    uint64_t *slots;
    size_t mask, n;
};
/* Returns true if 'v' is new. */
bool hash_set_add(struct hash_set *, uint64_t v);
uint64_t hash_bytes64(const char *p, size_t n);

struct counts {
    uint64_t rows, atoms, bytes;
    uint64_t by_type[N_ATOMIC_TYPES];
    uint64_t len_hist[N_LEN_BUCKETS];
    uint64_t strings, string_bytes, short_strings;
    struct hash_set distinct;   /* Of the strings, by 64-bit hash. */
    uint64_t set_sizes[N_SIZE_BUCKETS], map_sizes[N_SIZE_BUCKETS];
    uint64_t max_set, max_map;
};

struct db_counts {
    struct counts total;
    struct counts *tables;      /* Per schema table, if asked for. */
    size_t n_tables;
};

/* Counts every live row of 'db' (per table too if 'per_table'); a row that
 * does not match its table's schema is a fatal error naming file, record
 * and byte offset. */
void db_counts_compute(struct db_counts *, const struct db_file *,
                       bool per_table);
void db_counts_destroy(struct db_counts *);

#endif /* DATASETS_DB_COUNTS_H */
