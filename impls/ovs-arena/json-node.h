/* impls/ovs-arena: the node layout of impls/common/json-node.h with all of
 * ovs's features on (refcount, serialized, inline strings and arrays of up
 * to 3), plus a 'store' byte saying where a node's blocks live (see
 * read-store.h): the primitives below put a database read parse's blocks
 * in its arena and leave arena blocks alone when a tree is freed, except
 * the root node's, which takes the whole arena with it.  Same primitive
 * names as common's, so common/json-scalar.c and json-array.c build on
 * it. */
#ifndef JSONBENCH_JSON_NODE_H
#define JSONBENCH_JSON_NODE_H 1

#include <impl.h>

#include "json.h"

#include <string.h>

#include "read-store.h"
#include "util.h"

_Static_assert(JSON_IMPL_REFCOUNT && JSON_IMPL_SERIALIZED
               && JSON_IMPL_INLINE_STRINGS && JSON_IMPL_INLINE_ARRAYS,
               "impls/ovs-arena models ovs's layout only");

#define STRING_INLINE_LEN 24
#define ARRAY_INLINE_LEN 3
#define STRING_INLINE_MAX (STRING_INLINE_LEN - 1)
#define ARRAY_INLINE_MAX ARRAY_INLINE_LEN

#define JSON_ASSERT(COND) \
    ((COND) ? (void) 0 \
            : ovs_fatal(0, "%s:%d: assertion %s failed", __FILE__, __LINE__, \
                        #COND))

enum json_storage_type {
    JSON_STORAGE_DYNAMIC,       /* On the heap (or in the arena), or a
                                 * scalar. */
    JSON_STORAGE_INLINE,        /* String bytes in the node. */
    JSON_STORAGE_INLINE_1,      /* Array of 1..3 elements in the node; */
    JSON_STORAGE_INLINE_2,      /* the element count is the storage */
    JSON_STORAGE_INLINE_3,      /* type itself. */
};

struct json_array {
    size_t n, n_allocated;
    struct json **elems;
};

/* ovs's node: 'storage_type' and 'store' share the hole after 'type' that
 * ovs's enum storage type fills, so the node stays 40 bytes. */
struct json {
    enum json_type type;
    unsigned char storage_type; /* enum json_storage_type. */
    unsigned char store;        /* NODE_* flags (read-store.h). */
    size_t count;
    union {
        struct shash *object;
        struct json_array array;
        long long int integer;
        double real;
        char *string;           /* Also the text of a serialized object. */
        char string_inline[STRING_INLINE_LEN];
        struct json *elems_inline[ARRAY_INLINE_LEN];
    };
};

_Static_assert(sizeof(struct json) == 40,
               "node size is part of what is measured");

static inline enum json_storage_type
storage_of(const struct json *json)
{
    return json->storage_type;
}

static inline void
set_storage(struct json *json, enum json_storage_type storage)
{
    json->storage_type = storage;
}

/* Reference count.  An arena node's stays 1: json_clone() copies it. */

static inline void
ref_init(struct json *json)
{
    json->count = 1;
}

static inline void
ref_get(const struct json *json)
{
    CONST_CAST(struct json *, json)->count++;
}

static inline bool
ref_put(struct json *json)
{
    JSON_ASSERT(json->count > 0);
    return !--json->count;
}

static inline size_t
ref_count(const struct json *json)
{
    return json->count;
}

/* Nodes.  The first block of an arena is always a node, its root. */

static inline bool
node_in_arena(const struct json *json)
{
    return json->store & NODE_ARENA;
}

static inline struct json *
node_alloc(enum json_type type)
{
    struct json *json;
    if (read_store_arena()
        && !(OVS_ARENA_HEAP_STRINGS && type == JSON_STRING)) {
        bool root;
        json = arena_alloc(sizeof *json, &root);
        json->store = root ? NODE_ARENA | NODE_ARENA_ROOT : NODE_ARENA;
    } else {
        /* With OVS_ARENA_HEAP_STRINGS a read parse's string node is an
         * ordinary heap node: json_clone() shares it by count++. */
        json = xmalloc_as(XALLOC_JSON_NODE, sizeof *json);
        json->store = (read_store_active() && !OVS_ARENA_HEAP_STRINGS
                       ? NODE_READ : 0);
    }
    json->type = type;
    set_storage(json, JSON_STORAGE_DYNAMIC);
    ref_init(json);
    return json;
}

/* Frees a heap node; of an arena's nodes, only the root does anything: it
 * gives back the whole arena. */
static inline void
node_free(struct json *json)
{
    if (!node_in_arena(json)) {
        xfree(json);
    } else if (json->store & NODE_ARENA_ROOT) {
        arena_release_root(json);
    }
}

/* Strings. */

static inline bool
string_fits_inline(size_t len)
{
    return len <= STRING_INLINE_MAX;
}

static inline void
string_set_copy(struct json *json, const char *s, size_t len)
{
    if (string_fits_inline(len)) {
        memcpy(json->string_inline, s, len);
        json->string_inline[len] = '\0';
        set_storage(json, JSON_STORAGE_INLINE);
    } else if (node_in_arena(json)) {
        json->string = read_store_memdup0(XALLOC_STRING, s, len);
    } else {
        json->string = xmemdup0_as(XALLOC_STRING, s, len);
    }
}

static inline void
string_set_nocopy(struct json *json, char *s)
{
    size_t len = strlen(s);
    if (string_fits_inline(len) || node_in_arena(json)) {
        string_set_copy(json, s, len);
        xfree(s);
        return;
    }
    xalloc_retag(s, XALLOC_STRING);
    json->string = s;
}

static inline const char *
string_of(const struct json *json)
{
    if (storage_of(json) == JSON_STORAGE_INLINE) {
        return json->string_inline;
    }
    return json->string;
}

static inline void
string_free(struct json *json)
{
    if (storage_of(json) == JSON_STORAGE_DYNAMIC && !node_in_arena(json)) {
        xfree(json->string);
    }
}

/* Arrays.  An arena node's vector is the arena's until it grows after
 * parsing, when it moves to the heap (NODE_HEAP_VECTOR). */

static inline bool
array_is_inline(const struct json *json)
{
    return storage_of(json) != JSON_STORAGE_DYNAMIC;
}

static inline bool
array_fits_inline(size_t n)
{
    return n && n <= ARRAY_INLINE_MAX;
}

static inline size_t
array_size(const struct json *json)
{
    if (array_is_inline(json)) {
        return storage_of(json) - JSON_STORAGE_INLINE_1 + 1;
    }
    return json->array.n;
}

static inline struct json **
array_elems(const struct json *json)
{
    if (array_is_inline(json)) {
        return CONST_CAST(struct json **, json->elems_inline);
    }
    return json->array.elems;
}

static inline void
array_set_inline(struct json *json, struct json *const *elems, size_t n)
{
    memcpy(json->elems_inline, elems, n * sizeof *elems);
    set_storage(json, JSON_STORAGE_INLINE_1 + n - 1);
}

/* Makes 'elems' ('n_allocated' slots, 'n' used) the node's vector: a heap
 * vector for a heap node, NULL or an arena vector for an arena node. */
static inline void
array_set_vector(struct json *json, struct json **elems, size_t n,
                 size_t n_allocated)
{
    json->array.elems = elems;
    json->array.n = n;
    json->array.n_allocated = n_allocated;
    set_storage(json, JSON_STORAGE_DYNAMIC);
}

static inline bool
vector_in_arena(const struct json *json)
{
    return (json->store & (NODE_ARENA | NODE_HEAP_VECTOR)) == NODE_ARENA;
}

/* Resizes the vector 'elems' of 'json' from 'old_n' to 'new_n' slots. */
static inline struct json **
vector_realloc(struct json *json, struct json **elems, size_t old_n,
               size_t new_n)
{
    if (vector_in_arena(json)) {
        if (read_store_arena()) {
            return arena_realloc(elems, old_n * sizeof *elems,
                                 new_n * sizeof *elems);
        }
        /* Grown after parsing: to the heap. */
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
vector_free(struct json *json, struct json **elems)
{
    if (!vector_in_arena(json)) {
        xfree(elems);
    }
}

static inline void
array_push(struct json *json, struct json *element)
{
    if (array_is_inline(json) || !json->array.n_allocated) {
        size_t n = array_size(json);
        if (n < ARRAY_INLINE_LEN) {
            json->elems_inline[n] = element;
            set_storage(json, JSON_STORAGE_INLINE_1 + n);
            return;
        }
        /* The fourth element moves the array to a vector. */
        struct json *inline_elems[ARRAY_INLINE_LEN];
        memcpy(inline_elems, json->elems_inline, sizeof inline_elems);
        struct json **elems = vector_realloc(json, NULL, 0,
                                             2 * ARRAY_INLINE_LEN);
        memcpy(elems, inline_elems, n * sizeof *elems);
        array_set_vector(json, elems, n, 2 * ARRAY_INLINE_LEN);
    }
    struct json_array *a = &json->array;
    if (a->n >= a->n_allocated) {
        size_t new_n = a->n_allocated ? 2 * a->n_allocated : 1;
        a->elems = vector_realloc(json, a->elems, a->n_allocated, new_n);
        a->n_allocated = new_n;
    }
    a->elems[a->n++] = element;
}

/* 'json', just taken out of its parent array, as a tree of its own: an
 * arena node cannot outlive its arena, so it is copied to the heap. */
static inline struct json *
node_detach(struct json *json)
{
    if (json && node_in_arena(json)) {
        struct json *copy = json_deep_clone(json);
        json_destroy(json);
        arena_stats.detaches++;
        return copy;
    }
    return json;
}

static inline struct json *
array_remove_last(struct json *json, size_t n)
{
    struct json *last = array_elems(json)[n - 1];
    if (array_is_inline(json)) {
        if (n == 1) {
            array_set_vector(json, NULL, 0, 0);
        } else {
            set_storage(json, JSON_STORAGE_INLINE_1 + n - 2);
        }
        return last;
    }
    json->array.n--;
    return last;
}

/* Gives back a vector's unused capacity (an arena vector's only if it is
 * the arena's last block), or moves a small one into the node. */
static inline void
array_trim(struct json *json)
{
    if (storage_of(json) != JSON_STORAGE_DYNAMIC) {
        return;
    }
    struct json_array *a = &json->array;
    if (array_fits_inline(a->n)) {
        struct json **elems = a->elems;
        array_set_inline(json, elems, a->n);
        vector_free(json, elems);
        return;
    }
    if (a->n < a->n_allocated) {
        if (vector_in_arena(json)) {
            if (read_store_arena()) {
                a->elems = arena_realloc(a->elems,
                                         a->n_allocated * sizeof *a->elems,
                                         a->n * sizeof *a->elems);
            }
            a->n_allocated = a->n;
            if (!a->n) {
                a->elems = NULL;
            }
        } else {
            a->n_allocated = a->n;
            if (a->n) {
                a->elems = xrealloc(a->elems, a->n * sizeof *a->elems);
            } else {
                xfree(a->elems);
                a->elems = NULL;
            }
        }
    }
}

static inline void
array_free(struct json *json)
{
    if (!array_is_inline(json)) {
        vector_free(json, json->array.elems);
    }
}

/* No hooks. */
struct ds;

static inline void hook_string_created(void) { }

static inline void
hook_serialized(const struct ds *ds, size_t start)
{
    (void) ds;
    (void) start;
}

#endif /* JSONBENCH_JSON_NODE_H */
