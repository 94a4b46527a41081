/* impls/compact: the node layout and its primitives: the counterpart of
 * impls/common/json-node.h, with the same primitives, for the shared
 * json-tree.c, json-scalar.c and json-array.c (which include
 * <json-node.h>, so this folder's is found first).
 *
 * Every node starts with an 8-byte header and is allocated at the size its
 * type needs, never sizeof(struct json):
 *
 *   null, false, true       8 bytes   header only
 *   integer, real           16        + the number
 *   serialized object       16        + pointer to the text
 *   array                   24        + vector pointer, 32-bit n and
 *                                       capacity, or up to 2 elements
 *   object                  40        + the struct shash itself (the API
 *                                       hands out a struct shash *, and the
 *                                       harness iterates it, so objects
 *                                       keep one, embedded rather than a
 *                                       second allocation)
 *   string                  12 + len + 1: + 32-bit hash + the bytes
 *
 * Strings are interned (see common/intern-table.h): one node per distinct
 * string, shared with count++; the cached hash serves the table and
 * json_hash().  The reference count is 32 bits: json_clone() fails loudly
 * rather than wrap. */
#ifndef JSONBENCH_COMPACT_JSON_NODE_H
#define JSONBENCH_COMPACT_JSON_NODE_H 1

#include <impl.h>   /* The including folder's (impls/arena builds on this one). */

#include "json.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "shash.h"
#include "util.h"

#define JSON_ASSERT(COND) \
    ((COND) ? (void) 0 \
            : ovs_fatal(0, "%s:%d: assertion %s failed", __FILE__, __LINE__, \
                        #COND))

#define ARRAY_INLINE_LEN 2

struct json_array {
    struct json **elems;
    uint32_t n, n_allocated;
};

struct json {
    uint32_t count;
    uint8_t type;               /* enum json_type. */
    uint8_t n_inline;           /* Arrays: elements in the node (0: vector);
                                 * strings: 1 if interned. */
    uint16_t store;             /* node-store.h's flags (0: on the heap). */
    union {                     /* Only the type's member is allocated. */
        long long int integer;
        double real;
        char *string;           /* Serialized object's text. */
        struct json_array array;
        struct json *elems_inline[ARRAY_INLINE_LEN];
        struct shash object;
        struct {
            uint32_t hash;
            char bytes[4];      /* Really len + 1 bytes. */
        } str;
    };
};

#define NODE_HEADER_SIZE offsetof(struct json, integer)
#define NODE_STRING_OFFSET offsetof(struct json, str.bytes)

_Static_assert(NODE_HEADER_SIZE == 8, "8-byte header");

#include <node-store.h>
_Static_assert(NODE_STRING_OFFSET == 12, "string bytes after the hash");

/* Bytes allocated for a node of 'type' (not strings). */
static inline size_t
node_size_of(enum json_type type)
{
    switch (type) {
    case JSON_OBJECT:
        return NODE_HEADER_SIZE + sizeof(struct shash);
    case JSON_ARRAY:
        return NODE_HEADER_SIZE + sizeof(struct json_array);
    case JSON_INTEGER:
    case JSON_REAL:
    case JSON_SERIALIZED_OBJECT:
        return NODE_HEADER_SIZE + 8;
    case JSON_NULL:
    case JSON_FALSE:
    case JSON_TRUE:
    case JSON_STRING:
    case JSON_N_TYPES:
    default:
        return NODE_HEADER_SIZE;
    }
}

static inline struct json *
node_alloc_size(enum json_type type, size_t size)
{
    struct json *json = node_store_alloc(type, size);
    json->count = 1;
    json->type = type;
    json->n_inline = 0;
    return json;
}

static inline struct json *
node_alloc(enum json_type type)
{
    return node_alloc_size(type, node_size_of(type));
}

static inline void
node_free(struct json *json)
{
    node_store_free(json);
}

static inline struct json *
node_detach(struct json *json)
{
    return node_store_detach(json);
}

/* Reference count. */

static inline void
ref_get(const struct json *json)
{
    struct json *j = CONST_CAST(struct json *, json);
    JSON_ASSERT(j->count < UINT32_MAX);
    j->count++;
}

/* Drops a reference.  True if it was the last one. */
static inline bool
ref_put(struct json *json)
{
    JSON_ASSERT(json->count > 0);
    return !--json->count;
}

/* Strings: the bytes follow the hash in the node. */

static inline const char *
string_of(const struct json *json)
{
    return (const char *) json + NODE_STRING_OFFSET;
}

/* A new string node holding 'len' bytes of 's' with hash 'hash'. */
static inline struct json *
string_node_create(const char *s, size_t len, uint32_t hash)
{
    struct json *json = node_alloc_size(JSON_STRING,
                                        NODE_STRING_OFFSET + len + 1);
    char *bytes = (char *) json + NODE_STRING_OFFSET;
    memcpy(bytes, s, len);
    bytes[len] = '\0';
    json->str.hash = hash;
    return json;
}

/* What the shared json-tree.c asks of a layout (see common/json-node.h):
 * every feature on but inline strings, strings interned (unless
 * COMPACT_INTERN is 0), no hooks. */
#define JSON_IMPL_REFCOUNT 1
#define JSON_IMPL_SERIALIZED 1
#define JSON_IMPL_INTERNED COMPACT_INTERN
#define STRING_INLINE_MAX 0     /* Every string is in its node. */
#define ARRAY_INLINE_MAX ARRAY_INLINE_LEN
/* Nodes are sized by type: 24 is an array's, the largest fixed-size node
 * but an object's; a string is 12 + len + 1. */
#define JSON_NODE_SIZE (NODE_HEADER_SIZE + sizeof(struct json_array))

static inline void hook_string_created(void) { }

static inline size_t
ref_count(const struct json *json)
{
    return json->count;
}

static inline bool
node_pinned(const struct json *json)
{
    return node_store_pinned(json);
}

/* Objects: the map is in the node. */

static inline struct shash *
object_of(const struct json *json)
{
    return CONST_CAST(struct shash *, &json->object);
}

static inline void
object_init(struct json *json)
{
    shash_init(&json->object);
}

static inline void
object_free(struct json *json)
{
    shash_destroy(&json->object);
}

/* Strings: n_inline is 1 if the node is interned. */

static inline struct json *
string_node_new(const char *s, size_t len)
{
    return string_node_create(s, len, 0);
}

/* The bytes of 's' go into the node; 's' is freed. */
static inline struct json *
string_node_nocopy(char *s)
{
    struct json *json = string_node_new(s, strlen(s));
    xfree(s);
    return json;
}

static inline void
string_free(struct json *json OVS_UNUSED)
{
}

static inline bool
string_len_interned(size_t len OVS_UNUSED)
{
    return JSON_IMPL_INTERNED;
}

static inline bool
string_is_interned(const struct json *json)
{
    return json->n_inline;
}

static inline void
string_set_interned(struct json *json, uint32_t hash)
{
    json->str.hash = hash;
    json->n_inline = 1;
}

static inline uint32_t
string_hash_of(const struct json *json)
{
    return json->str.hash;
}

/* Makes '*standin' (NULL at first; room for '*cap' bytes) a string node
 * holding the 'len' bytes of 's' (no NUL among them, hash 'hash'), on the
 * heap whatever the node store: the parser's, reused
 * (JSON_PARSER_PENDING_STRINGS). */
static inline void
string_standin_set(struct json **standin, size_t *cap, const char *s,
                   size_t len, uint32_t hash)
{
    if (!*standin || len > *cap) {
        *cap = len > 2 * *cap ? len : 2 * *cap;
        *standin = xrealloc_as(XALLOC_JSON_NODE, *standin,
                               NODE_STRING_OFFSET + *cap + 1);
    }
    struct json *json = *standin;
    json->count = 1;
    json->type = JSON_STRING;
    json->n_inline = 0;
    json->store = 0;
    json->str.hash = hash;
    /* Through a plain pointer: 'bytes' is declared char[4] and really
     * len + 1 (UBSan's bounds check knows only the declaration). */
    char *bytes = (char *) json + NODE_STRING_OFFSET;
    memcpy(bytes, s, len);
    bytes[len] = '\0';
}

/* Arrays: up to ARRAY_INLINE_LEN elements in the node, else a vector that
 * the parser trims to its exact size when the array is complete. */

static inline size_t
array_size(const struct json *json)
{
    return json->n_inline ? json->n_inline : json->array.n;
}

static inline struct json **
array_elems(const struct json *json)
{
    return (json->n_inline ? CONST_CAST(struct json **, json->elems_inline)
            : json->array.elems);
}

static inline bool
array_fits_inline(size_t n)
{
    return n && n <= ARRAY_INLINE_LEN;
}

static inline void
array_set_inline(struct json *json, struct json *const *elems, size_t n)
{
    memcpy(json->elems_inline, elems, n * sizeof *elems);
    json->n_inline = n;
}

static inline void
array_set_vector(struct json *json, struct json **elems, size_t n,
                 size_t n_allocated)
{
    JSON_ASSERT(n_allocated <= UINT32_MAX);
    json->array.elems = elems;
    json->array.n = n;
    json->array.n_allocated = n_allocated;
    json->n_inline = 0;
}


static inline void
array_push(struct json *json, struct json *element)
{
    if (json->n_inline || !json->array.n_allocated) {
        size_t n = array_size(json);
        if (n < ARRAY_INLINE_LEN) {
            json->elems_inline[n] = element;
            json->n_inline = n + 1;
            return;
        }
        /* One more moves the array to a vector. */
        struct json **elems = vector_store_realloc(json, NULL, 0,
                                                   2 * ARRAY_INLINE_LEN);
        memcpy(elems, json->elems_inline, n * sizeof *elems);
        array_set_vector(json, elems, n, 2 * ARRAY_INLINE_LEN);
    }
    struct json_array *a = &json->array;
    if (a->n >= a->n_allocated) {
        JSON_ASSERT(a->n_allocated <= UINT32_MAX / 2);
        size_t old_n = a->n_allocated;
        a->n_allocated = old_n ? 2 * old_n : 1;
        a->elems = vector_store_realloc(json, a->elems, old_n,
                                        a->n_allocated);
    }
    a->elems[a->n++] = element;
}

/* Removes and returns the last of 'n' (> 0) elements. */
static inline struct json *
array_remove_last(struct json *json, size_t n)
{
    struct json *last = array_elems(json)[n - 1];
    if (json->n_inline) {
        if (n == 1) {
            array_set_vector(json, NULL, 0, 0);
        } else {
            json->n_inline = n - 1;
        }
        return last;
    }
    json->array.n--;
    return last;
}

/* Gives back a vector's unused capacity (exact size), or moves a small one
 * into the node. */
static inline void
array_trim(struct json *json)
{
    if (json->n_inline) {
        return;
    }
    struct json_array *a = &json->array;
    if (array_fits_inline(a->n)) {
        struct json **elems = a->elems;
        array_set_inline(json, elems, a->n);
        vector_store_free(json, elems);
        return;
    }
    if (a->n < a->n_allocated) {
        size_t old_n = a->n_allocated;
        a->n_allocated = a->n;
        if (a->n) {
            a->elems = vector_store_realloc(json, a->elems, old_n, a->n);
        } else {
            vector_store_free(json, a->elems);
            a->elems = NULL;
        }
    }
}

/* A vector for json_array_create() of 'n' (> 0) elements. */
static inline struct json **
array_vector_alloc(size_t n)
{
    return xmalloc_as(XALLOC_ARRAY, n * sizeof(struct json *));
}

static inline void
array_free(struct json *json)
{
    if (!json->n_inline) {
        vector_store_free(json, json->array.elems);
    }
}

#endif /* JSONBENCH_COMPACT_JSON_NODE_H */
