/* The clustered (raft) form of ovsdb-gen's output: the records of a
 * one-server cluster as `ovsdb-tool create-cluster` writes them, with the
 * generated rows as the snapshot, and the log's transactions as raft log
 * entries after it.  Server, cluster and entry ids are drawn from the seed,
 * so the file is deterministic. */
#ifndef DATASETS_GEN_RAFT_H
#define DATASETS_GEN_RAFT_H 1

#include <stddef.h>
#include <stdint.h>

#include "ds.h"

struct db_schema;
struct gen;
struct gen_frame;

struct gen_raft {
    uint64_t seed;
    char *address;              /* local_address, e.g. tcp:127.0.0.1:6643. */
    struct ds header_open;      /* The header record up to its data. */
    char sid[37];               /* Server id, null-terminated. */
};

/* 'schema' is written without "ephemeral" (a cluster keeps every column,
 * as create-cluster converts them). */
void gen_raft_init(struct gen_raft *, const struct db_schema *schema,
                   const char *address, uint64_t seed);
void gen_raft_destroy(struct gen_raft *);
/* The frame that wraps the generator's transactions into raft records. */
void gen_raft_frame(struct gen_raft *, struct gen_frame *);

#endif /* DATASETS_GEN_RAFT_H */
