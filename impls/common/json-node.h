/* The node layout behind the shared tree source (json-tree.c): 'struct json'
 * and the small inline primitives that touch its layout-dependent parts
 * (reference count, string, object and array storage, interning), plus the
 * impl's hooks.  json-tree.c holds the API and the tree walks and calls
 * only these, so every layout choice is made here, once.  A folder with a
 * layout of its own ships a json-node.h defining the same primitives
 * (impls/compact/json-node.h); the shared sources include <json-node.h>,
 * so they find the folder's first.
 *
 * The impl folder's "impl.h" picks the layout with these macros (each 0 or
 * 1 unless noted):
 *
 *   JSON_IMPL_NAME            folder name, a string
 *   JSON_IMPL_FEATURES        comma-separated feature list, a string
 *   JSON_IMPL_REFCOUNT        'count' field; json_clone() is count++
 *   JSON_IMPL_SERIALIZED      real JSON_SERIALIZED_OBJECT nodes
 *   JSON_IMPL_INLINE_STRINGS  strings of up to 23 bytes inside the node
 *   JSON_IMPL_INLINE_ARRAYS   arrays of up to 3 elements inside the node
 *   JSON_IMPL_INTERNED        string nodes hash-consed in one intern table
 *                             (json-tree.c): equal strings share one node;
 *                             'type' and 'storage_type' shrink to one byte
 *                             each to make room for the string's cached
 *                             hash, so the node stays 40 bytes (needs
 *                             REFCOUNT and inline strings or arrays)
 *   JSON_IMPL_INTERN_INLINE   with INTERNED: 1 (default) if strings short
 *                             enough to sit in the node are interned too,
 *                             0 if only heap strings are
 *   JSON_IMPL_HOOKS           optional: a header (in the impl folder) that
 *                             defines hook_string_created() and
 *                             hook_serialized() instead of the no-ops below
 *   JSON_IMPL_NODE_STORE      optional: a header that decides where nodes
 *                             and their blocks live instead of the heap,
 *                             with a parse store for the parser's
 *                             JSON_PARSER_STORE (impls/arena/node-store.h:
 *                             a parser's arena, for the ovs-arena family);
 *                             the node keeps its 'store' flags in a byte
 *                             after 'storage_type', which shrinks to one
 *                             byte (needs inline strings or arrays)
 *
 * Feature switches are tested with plain 'if' in the primitives: the
 * compiler folds them, and both branches stay compiled and type-checked. */
#ifndef JSONBENCH_JSON_NODE_H
#define JSONBENCH_JSON_NODE_H 1

#include "impl.h"

#include "json.h"

#include <stdint.h>
#include <string.h>

#include "shash.h"
#include "util.h"

/* Capacity of the node's union, in string bytes (23 + NUL) and pointers. */
#define STRING_INLINE_LEN 24
#define ARRAY_INLINE_LEN 3

/* What this layout keeps in the node (0: nothing). */
#define STRING_INLINE_MAX (JSON_IMPL_INLINE_STRINGS ? STRING_INLINE_LEN - 1 : 0)
#define ARRAY_INLINE_MAX (JSON_IMPL_INLINE_ARRAYS ? ARRAY_INLINE_LEN : 0)

#define HAS_STORAGE_TYPE (JSON_IMPL_INLINE_STRINGS || JSON_IMPL_INLINE_ARRAYS)

#ifdef JSON_IMPL_NODE_STORE
#define HAS_NODE_STORE 1
#else
#define HAS_NODE_STORE 0
#endif

#ifndef JSON_IMPL_INTERNED
#define JSON_IMPL_INTERNED 0
#endif
#ifndef JSON_IMPL_INTERN_INLINE
#define JSON_IMPL_INTERN_INLINE 1
#endif

#define JSON_ASSERT(COND) \
    ((COND) ? (void) 0 \
            : ovs_fatal(0, "%s:%d: assertion %s failed", __FILE__, __LINE__, \
                        #COND))

/* Where a node's payload lives (only layouts with inline storage keep it). */
enum json_storage_type {
    JSON_STORAGE_DYNAMIC,       /* On the heap, or a scalar. */
    JSON_STORAGE_INLINE,        /* String bytes in the node. */
    JSON_STORAGE_INLINE_1,      /* Array of 1..3 elements in the node; */
    JSON_STORAGE_INLINE_2,      /* the element count is the storage */
    JSON_STORAGE_INLINE_3,      /* type itself. */
};

struct json_array {
    size_t n, n_allocated;
    struct json **elems;
};

struct json {
#if JSON_IMPL_INTERNED
    uint8_t type;               /* enum json_type. */
    uint8_t storage_type;       /* enum json_storage_type. */
    uint32_t hash;              /* Interned strings: hash of the bytes. */
#else
    enum json_type type;
#if HAS_NODE_STORE
    uint8_t storage_type;       /* enum json_storage_type, and */
    uint8_t store;              /* the node store's flags, in the hole. */
#elif HAS_STORAGE_TYPE
    enum json_storage_type storage_type;    /* In the hole after 'type'. */
#endif
#endif
#if JSON_IMPL_REFCOUNT
    size_t count;
#endif
    /* The inline members do not widen the union (struct json_array is as
     * large); layouts without inline storage never use them. */
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

_Static_assert(sizeof(struct json) == (JSON_IMPL_REFCOUNT ? 40 : 32),
               "node size is part of what is measured");
_Static_assert(!JSON_IMPL_INTERNED || (JSON_IMPL_REFCOUNT && HAS_STORAGE_TYPE),
               "the interned layout is refcounted with a storage type");
_Static_assert(!HAS_NODE_STORE || (HAS_STORAGE_TYPE && !JSON_IMPL_INTERNED),
               "a node store takes the byte after the storage type");

#if HAS_NODE_STORE
#include JSON_IMPL_NODE_STORE
#endif

/* What json_impl_info() reports as the node size. */
#define JSON_NODE_SIZE sizeof(struct json)

/* Hooks: no-ops unless the impl names a header that defines them (the
 * gate's deliberately regressed impl does). */
#ifdef JSON_IMPL_HOOKS
#include JSON_IMPL_HOOKS
#else
struct ds;

/* Called once per string node created. */
static inline void hook_string_created(void) { }

/* Called after json_to_ds() appended its output at 'start' in 'ds'. */
static inline void
hook_serialized(const struct ds *ds, size_t start)
{
    (void) ds;
    (void) start;
}
#endif

/* Storage type. */

static inline enum json_storage_type
storage_of(const struct json *json)
{
#if HAS_STORAGE_TYPE
    return json->storage_type;
#else
    (void) json;
    return JSON_STORAGE_DYNAMIC;
#endif
}

static inline void
set_storage(struct json *json, enum json_storage_type storage)
{
#if HAS_STORAGE_TYPE
    json->storage_type = storage;
#else
    (void) json;
    (void) storage;
#endif
}

/* Reference count (a layout without one has a single owner per node). */

static inline void
ref_init(struct json *json)
{
#if JSON_IMPL_REFCOUNT
    json->count = 1;
#else
    (void) json;
#endif
}

/* Adds a reference; only called when JSON_IMPL_REFCOUNT. */
static inline void
ref_get(const struct json *json)
{
#if JSON_IMPL_REFCOUNT
    CONST_CAST(struct json *, json)->count++;
#else
    (void) json;
#endif
}

/* Drops a reference.  True if it was the last one. */
static inline bool
ref_put(struct json *json)
{
#if JSON_IMPL_REFCOUNT
    JSON_ASSERT(json->count > 0);
    return !--json->count;
#else
    (void) json;
    return true;
#endif
}

static inline size_t
ref_count(const struct json *json)
{
#if JSON_IMPL_REFCOUNT
    return json->count;
#else
    (void) json;
    return 1;
#endif
}

/* Nodes. */

static inline struct json *
node_alloc(enum json_type type)
{
#if HAS_NODE_STORE
    struct json *json = node_store_alloc(type, sizeof *json);
#else
    struct json *json = xmalloc_as(XALLOC_JSON_NODE, sizeof *json);
#endif
    json->type = type;
    set_storage(json, JSON_STORAGE_DYNAMIC);
    ref_init(json);
    return json;
}

static inline void
node_free(struct json *json)
{
#if HAS_NODE_STORE
    node_store_free(json);
#else
    xfree(json);
#endif
}

/* True if json_clone() cannot share 'json' by count++ (on the heap:
 * never). */
static inline bool
node_pinned(const struct json *json)
{
#if HAS_NODE_STORE
    return node_store_pinned(json);
#else
    (void) json;
    return false;
#endif
}

/* True if the blocks the node points to (string bytes, object map) are
 * its store's, not the heap's. */
static inline bool
node_owns_blocks(const struct json *json)
{
#if HAS_NODE_STORE
    return node_store_owned(json);
#else
    (void) json;
    return false;
#endif
}

/* A block of 'size' bytes for node 'json' (category 'c' on the heap). */
static inline void *
node_block_alloc(const struct json *json, enum xalloc_category c,
                 size_t size)
{
#if HAS_NODE_STORE
    if (node_store_owned(json)) {
        return arena_alloc_block(size);
    }
#endif
    (void) json;
    return xmalloc_as(c, size);
}

static inline void
node_block_free(const struct json *json, void *p)
{
    if (!node_owns_blocks(json)) {
        xfree(p);
    }
}

/* Objects: the node points to its map. */

static inline struct shash *
object_of(const struct json *json)
{
    return json->object;
}

static inline void
object_init(struct json *json)
{
    json->object = node_block_alloc(json, XALLOC_OBJECT,
                                    sizeof *json->object);
    shash_init(json->object);
}

/* Frees the map of object node 'json' (not the members' values). */
static inline void
object_free(struct json *json)
{
    shash_destroy(json->object);
    node_block_free(json, json->object);
}

/* Strings. */

static inline bool
string_fits_inline(size_t len)
{
    return JSON_IMPL_INLINE_STRINGS && len <= STRING_INLINE_MAX;
}

/* Stores a copy of 'len' bytes of 's' in the new string node 'json'. */
static inline void
string_set_copy(struct json *json, const char *s, size_t len)
{
    if (string_fits_inline(len)) {
        memcpy(json->string_inline, s, len);
        json->string_inline[len] = '\0';
        set_storage(json, JSON_STORAGE_INLINE);
    } else if (node_owns_blocks(json)) {
        json->string = node_block_alloc(json, XALLOC_STRING, len + 1);
        memcpy(json->string, s, len);
        json->string[len] = '\0';
    } else {
        json->string = xmemdup0_as(XALLOC_STRING, s, len);
    }
}

/* Gives the new string node 'json' the heap string 's' (freed at once if it
 * is copied into the node instead). */
static inline void
string_set_nocopy(struct json *json, char *s)
{
    if (JSON_IMPL_INLINE_STRINGS || HAS_NODE_STORE) {
        size_t len = strlen(s);
        if (string_fits_inline(len) || node_owns_blocks(json)) {
            string_set_copy(json, s, len);
            xfree(s);
            return;
        }
    }
    xalloc_retag(s, XALLOC_STRING);
    json->string = s;
}

static inline const char *
string_of(const struct json *json)
{
    if (JSON_IMPL_INLINE_STRINGS && storage_of(json) == JSON_STORAGE_INLINE) {
        return json->string_inline;
    }
    return json->string;
}

static inline void
string_free(struct json *json)
{
    if (storage_of(json) == JSON_STORAGE_DYNAMIC) {
        node_block_free(json, json->string);
    }
}

/* A new string node holding a copy of the 'len' bytes of 's'. */
static inline struct json *
string_node_new(const char *s, size_t len)
{
    struct json *json = node_alloc(JSON_STRING);
    hook_string_created();
    string_set_copy(json, s, len);
    return json;
}

/* A new string node given the heap string 's'. */
static inline struct json *
string_node_nocopy(char *s)
{
    struct json *json = node_alloc(JSON_STRING);
    hook_string_created();
    string_set_nocopy(json, s);
    return json;
}

/* Interning (JSON_IMPL_INTERNED): which strings are in the table, and the
 * hash the table and json_hash() use. */

static inline bool
string_len_interned(size_t len)
{
    return (JSON_IMPL_INTERNED
            && (JSON_IMPL_INTERN_INLINE || !string_fits_inline(len)));
}

static inline bool
string_is_interned(const struct json *json)
{
    return (JSON_IMPL_INTERNED
            && (JSON_IMPL_INTERN_INLINE
                || storage_of(json) == JSON_STORAGE_DYNAMIC));
}

/* Makes the new node 'json' an interned string whose bytes hash to
 * 'hash'. */
static inline void
string_set_interned(struct json *json, uint32_t hash)
{
#if JSON_IMPL_INTERNED
    json->hash = hash;
#else
    (void) json;
    (void) hash;
#endif
}

static inline uint32_t
string_hash_of(const struct json *json)
{
#if JSON_IMPL_INTERNED
    return json->hash;
#else
    (void) json;
    return 0;
#endif
}

/* Arrays. */

static inline bool
array_is_inline(const struct json *json)
{
    return JSON_IMPL_INLINE_ARRAYS && storage_of(json) != JSON_STORAGE_DYNAMIC;
}

static inline bool
array_fits_inline(size_t n)
{
    return JSON_IMPL_INLINE_ARRAYS && n && n <= ARRAY_INLINE_MAX;
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

/* Copies 'n' element pointers, array_fits_inline(n), into the node. */
static inline void
array_set_inline(struct json *json, struct json *const *elems, size_t n)
{
    memcpy(json->elems_inline, elems, n * sizeof *elems);
    set_storage(json, JSON_STORAGE_INLINE_1 + n - 1);
}

/* Makes 'elems' (heap, 'n_allocated' slots, 'n' used) the node's vector. */
static inline void
array_set_vector(struct json *json, struct json **elems, size_t n,
                 size_t n_allocated)
{
    json->array.elems = elems;
    json->array.n = n;
    json->array.n_allocated = n_allocated;
    set_storage(json, JSON_STORAGE_DYNAMIC);
}

static inline void
array_push(struct json *json, struct json *element)
{
    if (JSON_IMPL_INLINE_ARRAYS
        && (array_is_inline(json) || !json->array.n_allocated)) {
        size_t n = array_size(json);
        if (n < ARRAY_INLINE_LEN) {
            json->elems_inline[n] = element;
            set_storage(json, JSON_STORAGE_INLINE_1 + n);
            return;
        }
        /* The fourth element moves the array to a vector. */
#if HAS_NODE_STORE
        struct json **elems = vector_store_realloc(json, NULL, 0,
                                                   2 * ARRAY_INLINE_LEN);
#else
        struct json **elems = xmalloc_as(XALLOC_ARRAY, 2 * ARRAY_INLINE_LEN
                                                       * sizeof *elems);
#endif
        memcpy(elems, json->elems_inline, n * sizeof *elems);
        array_set_vector(json, elems, n, 2 * ARRAY_INLINE_LEN);
    }
    struct json_array *a = &json->array;
    if (a->n >= a->n_allocated) {
#if HAS_NODE_STORE
        size_t old_n = a->n_allocated;
        a->n_allocated = old_n ? 2 * old_n : 1;
        a->elems = vector_store_realloc(json, a->elems, old_n,
                                        a->n_allocated);
#else
        a->n_allocated = a->n_allocated ? 2 * a->n_allocated : 1;
        a->elems = xrealloc_as(XALLOC_ARRAY, a->elems,
                               a->n_allocated * sizeof *a->elems);
#endif
    }
    a->elems[a->n++] = element;
}

/* 'json', just detached from its parent array, as its own tree: it is
 * already (json_array_pop()). */
static inline struct json *
node_detach(struct json *json)
{
#if HAS_NODE_STORE
    return node_store_detach(json);
#else
    return json;
#endif
}

/* Removes and returns the last of 'n' (> 0) elements. */
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

/* Frees the vector 'elems' of array 'json' (not the elements). */
static inline void
vector_free(struct json *json, struct json **elems)
{
#if HAS_NODE_STORE
    vector_store_free(json, elems);
#else
    (void) json;
    xfree(elems);
#endif
}

/* Gives back a vector's unused capacity, or moves a small one into the
 * node. */
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
#if HAS_NODE_STORE
        a->elems = vector_store_shrink(json, a->elems, a->n_allocated, a->n);
        a->n_allocated = a->n;
#else
        a->n_allocated = a->n;
        if (a->n) {
            a->elems = xrealloc(a->elems, a->n * sizeof *a->elems);
        } else {
            xfree(a->elems);
            a->elems = NULL;
        }
#endif
    }
}

/* A vector for json_array_create() of 'n' (> 0) elements. */
static inline struct json **
array_vector_alloc(size_t n)
{
    return xmalloc(n * sizeof(struct json *));
}

/* Frees the element vector (not the elements). */
static inline void
array_free(struct json *json)
{
    if (!array_is_inline(json)) {
        vector_free(json, json->array.elems);
    }
}

#endif /* JSONBENCH_JSON_NODE_H */
