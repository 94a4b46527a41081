/* impls/arena: where nodes and array vectors live: while a parser runs
 * (between parse_store_enter() and _leave()), in its arena; otherwise, and
 * for strings (interned, shared beyond any one tree), on the heap as in
 * compact.  Replaces impls/compact/node-store.h.
 *
 * Arena nodes keep compact's semantics: destroying one walks its subtree
 * (dropping the heap strings it holds) but frees nothing; destroying the
 * root frees the arena.  json_clone() of an arena node cannot be count++
 * (the clone would die with the arena): it deep-copies onto the heap, and
 * so does json_array_pop() for the element it hands out.
 *
 * Also the node store of impls/common/json-node.h for the ovs-arena family
 * (JSON_IMPL_NODE_STORE), which adds node_store_owned() for the blocks an
 * ovs node points to (string bytes, object maps: arena_alloc_block()
 * while its parse runs), and these switches, set in impl.h (defaults: impls/arena):
 *
 *   ARENA_DATABASE_ONLY  1: only parsers created with JSPF_DATABASE (the
 *                        database read path) use their store; others are
 *                        the heap's (default 0: every parser)
 *   ARENA_STRING_NODES   1: a parse's string nodes (and their bytes) are
 *                        in the arena too, so json_clone() copies them;
 *                        0 (default): on the heap, shared by count++
 *   ARENA_USE            0: no arena at all; a store's nodes are the heap's,
 *                        marked NODE_READ, and json_clone() of such a
 *                        string node copies it (impls/ovs-copytrim); 1
 *                        (default): the arena */
#ifndef JSONBENCH_ARENA_NODE_STORE_H
#define JSONBENCH_ARENA_NODE_STORE_H 1

#include <string.h>

#include "arena.h"
#include "json.h"
#include "util.h"

#ifndef ARENA_DATABASE_ONLY
#define ARENA_DATABASE_ONLY 0
#endif
#ifndef ARENA_STRING_NODES
#define ARENA_STRING_NODES 0
#endif
#ifndef ARENA_USE
#define ARENA_USE 1
#endif

/* json->store flag besides arena.h's: a heap node made while a store was
 * current (only without the arena). */
#define NODE_READ 8

static inline void
parse_store_init(struct parse_store *ps, int flags)
{
    ps->arena = NULL;
    ps->database = (flags & JSPF_DATABASE) != 0;
}

static inline struct parse_store *
parse_store_enter(struct parse_store *ps)
{
    struct parse_store *prev = arena_current;
    if (!ARENA_DATABASE_ONLY || ps->database) {
        arena_current = ps;
    }
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
    if (ARENA_USE && arena_current
        && (ARENA_STRING_NODES || type != JSON_STRING)) {
        bool root;
        struct json *json = arena_alloc(size, &root);
        json->store = root ? NODE_ARENA | NODE_ARENA_ROOT : NODE_ARENA;
        return json;
    }
    struct json *json = xmalloc_as(XALLOC_JSON_NODE, size);
    json->store = !ARENA_USE && arena_current ? NODE_READ : 0;
    return json;
}

/* True if the blocks 'json' points to (string bytes, object map) are in
 * its arena and go with it. */
static inline bool
node_store_owned(const struct json *json)
{
    return json->store & NODE_ARENA;
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

/* True if json_clone() must copy 'json': an arena node (a count++ would
 * outlive the arena), or a string node marked NODE_READ (a read path
 * string that something keeps becomes a fresh node). */
static inline bool
node_store_pinned(const struct json *json)
{
    if (OVS_LIKELY(!(json->store & (NODE_ARENA | NODE_READ)))) {
        return false;
    }
    if (json->type == JSON_OBJECT || json->type == JSON_ARRAY) {
        if (!(json->store & NODE_ARENA)) {
            return false;
        }
        arena_stats.clones_container++;
    } else {
        if (!(json->store & NODE_ARENA) && json->type != JSON_STRING) {
            return false;
        }
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

/* The vector of array 'json' shrunk from 'old_n' to 'new_n' elements
 * (NULL if none): an arena vector gives back its tail if it is the
 * arena's last block, a heap vector is realloc()ed. */
static inline struct json **
vector_store_shrink(struct json *json, struct json **elems, size_t old_n,
                    size_t new_n)
{
    if (vector_in_arena(json)) {
        if (arena_current) {
            elems = arena_realloc(elems, old_n * sizeof *elems,
                                  new_n * sizeof *elems);
        }
        return new_n ? elems : NULL;
    }
    if (new_n) {
        return xrealloc(elems, new_n * sizeof *elems);
    }
    xfree(elems);
    return NULL;
}

static inline void
vector_store_free(struct json *json, struct json **elems)
{
    if (!vector_in_arena(json)) {
        xfree(elems);
    }
}

#endif /* JSONBENCH_ARENA_NODE_STORE_H */
