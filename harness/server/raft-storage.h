/* Loading a clustered (raft) database file as ovsdb-server 3.1 does, and
 * what it keeps afterwards besides the rows (struct db's 'storage'):
 *
 *   - raft reads every record first (raft_open()), each entry's data kept
 *     as its parsed tree; then the server reads the snapshot and each
 *     committed entry in turn (read_db()): raft serializes the data once
 *     and keeps only that text (raft_entry_steal_parsed_data(), OVS
 *     0de882954), the server applies the tree as a transaction and frees
 *     it;
 *   - every transaction applied, the snapshot included, is cloned into the
 *     transaction history (server/txn-history.h), which is trimmed after
 *     each one (--history-trim each, OVS bd2a80b1d: 3.3, and 3.2.0, 3.1.3,
 *     3.0.5, 2.17.8 by backports) or once
 *     the whole file is read (end: 3.1.0, as Debian 12 ships it).
 *
 * Only the full model keeps them; --model json-only applies the snapshot
 * and the entries and keeps nothing else. */
#ifndef HARNESS_RAFT_STORAGE_H
#define HARNESS_RAFT_STORAGE_H 1

#include <stdint.h>

#include "server/txn-history.h"

struct db;
struct db_load_stats;
struct json;
struct log_reader;

enum history_trim { HISTORY_TRIM_EACH, HISTORY_TRIM_END };
extern enum history_trim history_trim;
extern const char *const history_trim_names[2];

struct raft_kept_entry {
    uint64_t term, index;
    struct json *data;          /* Serialized [schema or null, txn]. */
    char eid[37];
};

struct db_storage {
    struct json *snap_data;     /* Serialized [schema, data]. */
    uint64_t snap_index, snap_term;
    struct raft_kept_entry *entries;
    size_t n_entries;
    struct txn_history history;
    uint64_t peak_history_txns; /* The most the history held at once. */
    long long peak_history_atoms;
};

/* Loads the rest of clustered file 'r', whose record 0 'header' has been
 * read (taken).  Returns NULL and sets '*dbp', or a malloc'd error naming
 * file, record and offset. */
char *raft_storage_load(struct log_reader *r, struct json *header,
                        struct db **dbp, struct db_load_stats *);

#endif
