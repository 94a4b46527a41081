/* impls/interned: the node layout of 'ovs' (json-node.h of impls/common,
 * configured by impl.h) with one change: 'type' and 'storage_type' are one
 * byte each, which frees 4 bytes in the node's header for the string's
 * hash, cached when the string is interned (the intern table and
 * json_hash() use it).  The node stays 40 bytes.  Everything else, and the
 * switches below, are as in impls/common/json-node.h.
 *
 *   JSON_IMPL_NAME, JSON_IMPL_FEATURES, JSON_IMPL_REFCOUNT,
 *   JSON_IMPL_SERIALIZED, JSON_IMPL_INLINE_STRINGS, JSON_IMPL_INLINE_ARRAYS
 *   as there; JSON_IMPL_INTERN_INLINE (interned/impl.h): 1 if strings short
 *   enough to sit in the node are interned too, 0 if only heap strings
 *   are. */
#ifndef JSONBENCH_JSON_NODE_H
#define JSONBENCH_JSON_NODE_H 1

#include "impl.h"

#include "json.h"

#include <stdint.h>
#include <string.h>

#include "util.h"

/* Capacity of the node's union, in string bytes (23 + NUL) and pointers. */
#define STRING_INLINE_LEN 24
#define ARRAY_INLINE_LEN 3

/* What this layout keeps in the node (0: nothing). */
#define STRING_INLINE_MAX (JSON_IMPL_INLINE_STRINGS ? STRING_INLINE_LEN - 1 : 0)
#define ARRAY_INLINE_MAX (JSON_IMPL_INLINE_ARRAYS ? ARRAY_INLINE_LEN : 0)

#define HAS_STORAGE_TYPE (JSON_IMPL_INLINE_STRINGS || JSON_IMPL_INLINE_ARRAYS)

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
    uint8_t type;               /* enum json_type. */
    uint8_t storage_type;       /* enum json_storage_type. */
    uint32_t hash;              /* Interned strings: hash of the bytes. */
    size_t count;
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

_Static_assert(JSON_IMPL_REFCOUNT && HAS_STORAGE_TYPE,
               "the interned layout is refcounted with a storage type");
_Static_assert(sizeof(struct json) == 40,
               "node size is part of what is measured");

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
    enum xalloc_category old = xalloc_category_set(XALLOC_JSON_NODE);
    struct json *json = xmalloc(sizeof *json);
    xalloc_category_set(old);
    json->type = type;
    set_storage(json, JSON_STORAGE_DYNAMIC);
    ref_init(json);
    return json;
}

static inline void
node_free(struct json *json)
{
    xfree(json);
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
    } else {
        enum xalloc_category old = xalloc_category_set(XALLOC_STRING);
        json->string = xmemdup0(s, len);
        xalloc_category_set(old);
    }
}

/* Gives the new string node 'json' the heap string 's' (freed at once if it
 * is copied into the node instead). */
static inline void
string_set_nocopy(struct json *json, char *s)
{
    if (JSON_IMPL_INLINE_STRINGS) {
        size_t len = strlen(s);
        if (string_fits_inline(len)) {
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
        xfree(json->string);
    }
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
        /* The fourth element moves the array to the heap. */
        enum xalloc_category old = xalloc_category_set(XALLOC_ARRAY);
        struct json **elems = xmalloc(2 * ARRAY_INLINE_LEN * sizeof *elems);
        xalloc_category_set(old);
        memcpy(elems, json->elems_inline, n * sizeof *elems);
        array_set_vector(json, elems, n, 2 * ARRAY_INLINE_LEN);
    }
    struct json_array *a = &json->array;
    if (a->n >= a->n_allocated) {
        a->n_allocated = a->n_allocated ? 2 * a->n_allocated : 1;
        enum xalloc_category old = xalloc_category_set(XALLOC_ARRAY);
        a->elems = xrealloc(a->elems, a->n_allocated * sizeof *a->elems);
        xalloc_category_set(old);
    }
    a->elems[a->n++] = element;
}

/* 'json', just detached from its parent array, as its own tree: it is
 * already (json_array_pop()). */
static inline struct json *
node_detach(struct json *json)
{
    return json;
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
        xfree(elems);
        return;
    }
    if (a->n < a->n_allocated) {
        a->n_allocated = a->n;
        if (a->n) {
            enum xalloc_category old = xalloc_category_set(XALLOC_ARRAY);
            a->elems = xrealloc(a->elems, a->n * sizeof *a->elems);
            xalloc_category_set(old);
        } else {
            xfree(a->elems);
            a->elems = NULL;
        }
    }
}

/* Frees the element vector (not the elements). */
static inline void
array_free(struct json *json)
{
    if (!array_is_inline(json)) {
        xfree(json->array.elems);
    }
}

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

#endif /* JSONBENCH_JSON_NODE_H */
