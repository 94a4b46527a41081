/* Where the string map (shash.c) keeps its buckets, nodes and names: the
 * heap, in the allocation category the caller asks for, each name its own
 * block.  shash.c includes it as <shash-store.h>, so an impl folder can
 * ship its own (impls/compact/: each name in its node, so a JSON object
 * member is one allocation; impls/arena/: a parser's maps in its arena).
 *
 *   SHASH_NAME_IN_NODE  1 if a node's name follows it in the node's block
 *                       (the _nocopy calls then copy the name in and free
 *                       theirs), 0 if the node points to a block of its
 *                       own */
#ifndef JSONBENCH_SHASH_STORE_H
#define JSONBENCH_SHASH_STORE_H 1

#include "util.h"

#define SHASH_NAME_IN_NODE 0

static inline void *
shash_store_alloc(enum xalloc_category c, size_t size)
{
    return xmalloc_as(c, size);
}

static inline void *
shash_store_calloc(enum xalloc_category c, size_t n, size_t size)
{
    return xcalloc_as(c, n, size);
}

static inline void
shash_store_free(void *p)
{
    xfree(p);
}

/* A copy of the 'len' bytes of 'name' for a node that points to its name
 * (SHASH_NAME_IN_NODE 0). */
static inline char *
shash_store_memdup0(enum xalloc_category c, const char *name, size_t len)
{
    return xmemdup0_as(c, name, len);
}

#endif /* JSONBENCH_SHASH_STORE_H */
