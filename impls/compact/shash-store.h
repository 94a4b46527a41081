/* impls/compact: where the string map keeps its buckets and nodes: the
 * heap, tagged XALLOC_OBJECT (in this library the map serves JSON objects
 * and the schema's small name maps).  shash.c includes it as
 * <shash-store.h>, so a folder building on compact (impls/arena) can ship
 * its own. */
#ifndef JSONBENCH_COMPACT_SHASH_STORE_H
#define JSONBENCH_COMPACT_SHASH_STORE_H 1

#include "util.h"

static inline void *
shash_store_alloc(size_t size)
{
    return xmalloc_as(XALLOC_OBJECT, size);
}

static inline void *
shash_store_calloc(size_t n, size_t size)
{
    return xcalloc_as(XALLOC_OBJECT, n, size);
}

static inline void
shash_store_free(void *p)
{
    xfree(p);
}

#endif /* JSONBENCH_COMPACT_SHASH_STORE_H */
