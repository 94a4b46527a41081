/* impls/compact: where nodes and array vectors live: the heap.  The one
 * place a folder building on compact (impls/arena) changes that: it ships
 * its own node-store.h, found first because json-node.h includes it as
 * <node-store.h> (the including folder comes before compact/ in the
 * include path).  Included by json-node.h after struct json. */
#ifndef JSONBENCH_COMPACT_NODE_STORE_H
#define JSONBENCH_COMPACT_NODE_STORE_H 1

#include "util.h"

/* A parser's share of the store: nothing on the heap. */
struct parse_store {
    int unused;
};

static inline void
parse_store_init(struct parse_store *ps OVS_UNUSED, int flags OVS_UNUSED)
{
}

/* Around each call into a parser: what it allocates goes to 'ps'. */
static inline struct parse_store *
parse_store_enter(struct parse_store *ps OVS_UNUSED)
{
    return NULL;
}

static inline void parse_store_leave(struct parse_store *prev OVS_UNUSED) { }

/* Memory for a node of 'size' bytes; sets json->store (0: the heap). */
static inline struct json *
node_store_alloc(enum json_type type OVS_UNUSED, size_t size)
{
    struct json *json = xmalloc_as(XALLOC_JSON_NODE, size);
    json->store = 0;
    return json;
}

static inline void
node_store_free(struct json *json)
{
    xfree(json);
}

/* True if json_clone() cannot share 'json' by count++. */
static inline bool
node_store_pinned(const struct json *json OVS_UNUSED)
{
    return false;
}

/* 'json', detached from its parent, made independent of it. */
static inline struct json *
node_store_detach(struct json *json)
{
    return json;
}

/* The vector of array 'json' resized from 'old_n' to 'new_n' elements. */
static inline struct json **
vector_store_realloc(struct json *json OVS_UNUSED, struct json **elems,
                     size_t old_n OVS_UNUSED, size_t new_n)
{
    return xrealloc_as(XALLOC_ARRAY, elems, new_n * sizeof *elems);
}

static inline void
vector_store_free(struct json *json OVS_UNUSED, struct json **elems)
{
    xfree(elems);
}

#endif /* JSONBENCH_COMPACT_NODE_STORE_H */
