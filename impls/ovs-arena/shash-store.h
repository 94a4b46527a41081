/* impls/ovs-arena: a JSON object's map as ovs's (each member name a block
 * of its own, allocated in the caller's category), with its buckets,
 * nodes and names in the arena during a database read parse:
 * impls/arena/shash-store.h with these switches (and impl.h's). */
#ifndef JSONBENCH_OVS_ARENA_SHASH_STORE_H
#define JSONBENCH_OVS_ARENA_SHASH_STORE_H 1

#include <impl.h>

#define SHASH_NAME_IN_NODE 0
#define ARENA_SHASH_CATEGORY(C) (C)

#include "arena/shash-store.h"

#endif /* JSONBENCH_OVS_ARENA_SHASH_STORE_H */
