/* impls/compact: where the string map (impls/common/shash.c) keeps its
 * buckets and nodes: the heap, each node and its name in one allocation,
 * so a JSON object member costs one allocation instead of two; tagged
 * XALLOC_OBJECT whatever the caller asks (in this library the map serves
 * JSON objects and the schema's small name maps).  A folder building on
 * compact (impls/arena) can ship its own. */
#ifndef JSONBENCH_COMPACT_SHASH_STORE_H
#define JSONBENCH_COMPACT_SHASH_STORE_H 1

#include "util.h"

#define SHASH_NAME_IN_NODE 1

static inline void *
shash_store_alloc(enum xalloc_category c OVS_UNUSED, size_t size)
{
    return xmalloc_as(XALLOC_OBJECT, size);
}

static inline void *
shash_store_calloc(enum xalloc_category c OVS_UNUSED, size_t n,
                   size_t size)
{
    return xcalloc_as(XALLOC_OBJECT, n, size);
}

static inline void
shash_store_free(void *p)
{
    xfree(p);
}

#endif /* JSONBENCH_COMPACT_SHASH_STORE_H */
