/* impls/ovs-arena: where the blocks of a tree go.  While a database read
 * parser runs (JSPF_DATABASE: between read_store_enter() and _leave() in
 * json_parser_feed()), arena_current (impls/arena/arena.h) is its parse
 * store: with OVS_ARENA_USE_ARENA, nodes, heap string bytes, vectors, maps
 * and member names are bump-allocated in the parser's arena; without, they
 * are the heap's and only the nodes are marked (NODE_READ).  Outside such
 * a parse, and for every other parser, everything is the heap's.
 *
 * Blocks of an arena tree that changes after parsing mix both, so frees of
 * map blocks ask arena_owns() while any arena lives (never after the load:
 * each record's arena goes with its root). */
#ifndef JSONBENCH_OVS_ARENA_READ_STORE_H
#define JSONBENCH_OVS_ARENA_READ_STORE_H 1

#include <impl.h>

#include <string.h>

#include "arena/arena.h"
#include "util.h"

/* 1: a read parse's string nodes stay on the heap with ordinary reference
 * counts, so datums share them (impls/ovs-arena-heapstr); 0: in the
 * arena, copied when cloned. */
#ifndef OVS_ARENA_HEAP_STRINGS
#define OVS_ARENA_HEAP_STRINGS 0
#endif

/* json->store flag besides arena.h's NODE_ARENA, NODE_ARENA_ROOT and
 * NODE_HEAP_VECTOR: a heap node made by a database read parse (only
 * without the arena). */
#define NODE_READ 8

/* Inside a database read parse. */
static inline bool
read_store_active(void)
{
    return arena_current != NULL;
}

/* Inside one whose blocks go to the arena. */
static inline bool
read_store_arena(void)
{
    return OVS_ARENA_USE_ARENA && arena_current != NULL;
}

static inline struct parse_store *
read_store_enter(struct parse_store *ps)
{
    struct parse_store *prev = arena_current;
    arena_current = ps;
    return prev;
}

static inline void
read_store_leave(struct parse_store *prev)
{
    arena_current = prev;
}

/* 'size' bytes in the arena; never the arena's first block (that is the
 * root node's, see node_alloc()). */
static inline void *
read_store_arena_alloc(size_t size)
{
    bool root;
    void *p = arena_alloc(size, &root);
    if (root) {
        ovs_fatal(0, "ovs-arena: a tree's first block is not its root node");
    }
    return p;
}

/* A block for the tree being built: in the arena during an arena parse,
 * else malloc's in category 'c'. */
static inline void *
read_store_alloc(enum xalloc_category c, size_t size)
{
    return (read_store_arena() ? read_store_arena_alloc(size)
            : xmalloc_as(c, size));
}

static inline void *
read_store_calloc(enum xalloc_category c, size_t n, size_t size)
{
    if (read_store_arena()) {
        return memset(read_store_arena_alloc(n * size), 0, n * size);
    }
    return xcalloc_as(c, n, size);
}

static inline char *
read_store_memdup0(enum xalloc_category c, const char *s, size_t len)
{
    if (read_store_arena()) {
        char *copy = read_store_arena_alloc(len + 1);
        memcpy(copy, s, len);
        copy[len] = '\0';
        return copy;
    }
    return xmemdup0_as(c, s, len);
}

/* Frees 'p' unless it is an arena's (it goes with its arena). */
static inline void
read_store_free(void *p)
{
    if (OVS_ARENA_USE_ARENA && p && arena_n_chunks && arena_owns(p)) {
        return;
    }
    xfree(p);
}

#endif /* JSONBENCH_OVS_ARENA_READ_STORE_H */
