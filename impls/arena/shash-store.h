/* impls/arena: where the string map keeps its buckets and nodes: in the
 * parser's arena while one runs (they are a parsed object's), else on the
 * heap as in compact.  A parsed object changed later mixes both, so a free
 * asks arena_owns() while any arena lives.  Replaces
 * impls/compact/shash-store.h. */
#ifndef JSONBENCH_ARENA_SHASH_STORE_H
#define JSONBENCH_ARENA_SHASH_STORE_H 1

#include <string.h>

#include "arena.h"
#include "util.h"

#define SHASH_NAME_IN_NODE 1    /* As compact's. */

static inline void *
shash_store_alloc(enum xalloc_category c OVS_UNUSED, size_t size)
{
    if (arena_current) {
        bool root;
        return arena_alloc(size, &root);
    }
    return xmalloc_as(XALLOC_OBJECT, size);
}

static inline void *
shash_store_calloc(enum xalloc_category c OVS_UNUSED, size_t n,
                   size_t size)
{
    if (arena_current) {
        bool root;
        return memset(arena_alloc(n * size, &root), 0, n * size);
    }
    return xcalloc_as(XALLOC_OBJECT, n, size);
}

static inline void
shash_store_free(void *p)
{
    if (p && arena_n_chunks && arena_owns(p)) {
        return;                 /* Goes with its arena. */
    }
    xfree(p);
}

#endif /* JSONBENCH_ARENA_SHASH_STORE_H */
