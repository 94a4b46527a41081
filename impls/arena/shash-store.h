/* impls/arena: where the string map keeps its buckets and nodes: in the
 * parser's arena while one runs (they are a parsed object's), else on the
 * heap as in compact.  A parsed object changed later mixes both, so a free
 * asks arena_owns() while any arena lives.  Replaces
 * impls/compact/shash-store.h.
 *
 * The ovs-arena family includes it from impls/ovs-arena/shash-store.h,
 * with the switches of node-store.h (ARENA_USE) and these two:
 *
 *   SHASH_NAME_IN_NODE     as in common/shash-store.h (default 1, as
 *                          compact's); with 0 a node's name is a block of
 *                          its own, in the arena too
 *   ARENA_SHASH_CATEGORY   the allocation category of the heap blocks
 *                          (default XALLOC_OBJECT, as compact's; ovs-arena:
 *                          the caller's, as common's) */
#ifndef JSONBENCH_ARENA_SHASH_STORE_H
#define JSONBENCH_ARENA_SHASH_STORE_H 1

#include <string.h>

#include "arena.h"
#include "util.h"

#ifndef SHASH_NAME_IN_NODE
#define SHASH_NAME_IN_NODE 1
#endif
#ifndef ARENA_SHASH_CATEGORY
#define ARENA_SHASH_CATEGORY(C) XALLOC_OBJECT
#endif
#ifndef ARENA_USE
#define ARENA_USE 1
#endif

/* True while a parse puts its blocks in an arena. */
static inline bool
shash_store_in_arena(void)
{
    return ARENA_USE && arena_current;
}

static inline void *
shash_store_alloc(enum xalloc_category c OVS_UNUSED, size_t size)
{
    if (shash_store_in_arena()) {
        return arena_alloc_block(size);
    }
    return xmalloc_as(ARENA_SHASH_CATEGORY(c), size);
}

static inline void *
shash_store_calloc(enum xalloc_category c OVS_UNUSED, size_t n,
                   size_t size)
{
    if (shash_store_in_arena()) {
        return memset(arena_alloc_block(n * size), 0, n * size);
    }
    return xcalloc_as(ARENA_SHASH_CATEGORY(c), n, size);
}

static inline void
shash_store_free(void *p)
{
    if (ARENA_USE && p && arena_n_chunks && arena_owns(p)) {
        return;                 /* Goes with its arena. */
    }
    xfree(p);
}

static inline char *
shash_store_memdup0(enum xalloc_category c OVS_UNUSED, const char *name,
                    size_t len)
{
    if (shash_store_in_arena()) {
        char *copy = arena_alloc_block(len + 1);
        memcpy(copy, name, len);
        copy[len] = '\0';
        return copy;
    }
    return xmemdup0_as(ARENA_SHASH_CATEGORY(c), name, len);
}

#endif /* JSONBENCH_ARENA_SHASH_STORE_H */
