/* impls/arena: the arena that holds a parsed tree, and the parser's handle
 * on it.  An arena is a list of chunks, bump-allocated, freed all at once.
 * Its first chunk starts with the struct arena and then the first node the
 * parser allocated, the tree's root (flag NODE_ARENA_ROOT): freeing the
 * root frees the arena.  Chunks are registered so that arena_owns() can
 * tell arena memory from the heap's for the map and vector storage that a
 * tree changed after parsing may mix. */
#ifndef JSONBENCH_ARENA_H
#define JSONBENCH_ARENA_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

/* json->store flags. */
#define NODE_ARENA 1            /* The node is in an arena. */
#define NODE_ARENA_ROOT 2       /* ... and the arena goes with it. */
#define NODE_HEAP_VECTOR 4      /* An arena array whose vector is now the
                                 * heap's (grown after parsing). */

struct arena;

/* A parser's share: the arena its nodes go to, made on first use. */
struct parse_store {
    struct arena *arena;
    bool database;              /* Its parser was created with
                                 * JSPF_DATABASE (see node-store.h). */
};

/* The parse store being fed (NULL outside the parser's calls). */
extern struct parse_store *arena_current;
/* Chunks of all live arenas: arena_owns() is only needed when nonzero. */
extern size_t arena_n_chunks;

/* 'size' bytes (rounded to 8) in the current parse store's arena.  '*root'
 * is set if they are the arena's first allocation. */
void *arena_alloc(size_t size, bool *root);
/* 'size' bytes for a block that a node of the current arena points to
 * (string bytes, a map's buckets and nodes): never the arena's first
 * allocation, which is its root node's. */
static inline void *
arena_alloc_block(size_t size)
{
    bool root;
    void *p = arena_alloc(size, &root);
    if (root) {
        ovs_fatal(0, "arena: a tree's first block is not its root node");
    }
    return p;
}

/* Resizes 'p' (of 'old' bytes, in the current arena) to 'new': in place if
 * it is the last allocation, else a copy (the old bytes stay till the
 * end). */
void *arena_realloc(void *p, size_t old, size_t new);
/* Frees the arena whose root node is 'root'. */
void arena_release_root(void *root);
/* True if 'p' lies in a chunk of a live arena. */
bool arena_owns(const void *p);

/* Counters for the workloads' use of arena trees (JSONBENCH_ARENA_STATS=1
 * prints them at exit). */
struct arena_stats {
    uint64_t arenas, chunks, mapped_chunks, bytes;
    uint64_t clones_scalar, clones_container, detaches;
};
extern struct arena_stats arena_stats;

#endif /* JSONBENCH_ARENA_H */
