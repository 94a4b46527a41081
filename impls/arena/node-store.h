/* impls/arena: where nodes and array vectors live: while a parser runs
 * (between parse_store_enter() and _leave()), in its arena; otherwise, and
 * for strings (interned, shared beyond any one tree), on the heap as in
 * compact.  Replaces impls/compact/node-store.h.
 *
 * Arena nodes keep compact's semantics: destroying one walks its subtree
 * (dropping the heap strings it holds) but frees nothing; destroying the
 * root frees the arena.  json_clone() of an arena node cannot be count++
 * (the clone would die with the arena): it deep-copies onto the heap, and
 * so does json_array_pop() for the element it hands out. */
#ifndef JSONBENCH_ARENA_NODE_STORE_H
#define JSONBENCH_ARENA_NODE_STORE_H 1

#include <string.h>

#include "arena.h"
#include "util.h"

static inline void
parse_store_init(struct parse_store *ps)
{
    ps->arena = NULL;
}

static inline struct parse_store *
parse_store_enter(struct parse_store *ps)
{
    struct parse_store *prev = arena_current;
    arena_current = ps;
    return prev;
}

static inline void
parse_store_leave(struct parse_store *prev)
{
    arena_current = prev;
}

static inline struct json *
node_store_alloc(enum json_type type, size_t size)
{
    if (arena_current && type != JSON_STRING) {
        bool root;
        struct json *json = arena_alloc(size, &root);
        json->store = root ? NODE_ARENA | NODE_ARENA_ROOT : NODE_ARENA;
        return json;
    }
    struct json *json = xmalloc_as(XALLOC_JSON_NODE, size);
    json->store = 0;
    return json;
}

static inline void
node_store_free(struct json *json)
{
    if (!(json->store & NODE_ARENA)) {
        xfree(json);
    } else if (json->store & NODE_ARENA_ROOT) {
        arena_release_root(json);
    }
}

static inline bool
node_store_pinned(const struct json *json)
{
    if (OVS_LIKELY(!(json->store & NODE_ARENA))) {
        return false;
    }
    if (json->type == JSON_OBJECT || json->type == JSON_ARRAY) {
        arena_stats.clones_container++;
    } else {
        arena_stats.clones_scalar++;
    }
    return true;
}

static inline struct json *
node_store_detach(struct json *json)
{
    if (json && json->store & NODE_ARENA) {
        struct json *copy = json_deep_clone(json);
        json_destroy(json);
        arena_stats.detaches++;
        return copy;
    }
    return json;
}

/* An arena array's vector is the arena's until it grows after parsing,
 * when it moves to the heap (NODE_HEAP_VECTOR). */
static inline bool
vector_in_arena(const struct json *json)
{
    return (json->store & (NODE_ARENA | NODE_HEAP_VECTOR)) == NODE_ARENA;
}

static inline struct json **
vector_store_realloc(struct json *json, struct json **elems, size_t old_n,
                     size_t new_n)
{
    if (vector_in_arena(json)) {
        if (arena_current) {
            return arena_realloc(elems, old_n * sizeof *elems,
                                 new_n * sizeof *elems);
        }
        struct json **copy = xmalloc_as(XALLOC_ARRAY, new_n * sizeof *elems);
        if (elems) {
            memcpy(copy, elems,
                   (old_n < new_n ? old_n : new_n) * sizeof *elems);
        }
        json->store |= NODE_HEAP_VECTOR;
        return copy;
    }
    return xrealloc_as(XALLOC_ARRAY, elems, new_n * sizeof *elems);
}

static inline void
vector_store_free(struct json *json, struct json **elems)
{
    if (!vector_in_arena(json)) {
        xfree(elems);
    }
}

#endif /* JSONBENCH_ARENA_NODE_STORE_H */
