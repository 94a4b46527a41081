/* The JSON tree: node layout, constructors, accessors, copy/destroy,
 * equality, hashing and the serializer's tree walk.
 *
 * One source serves every built-in representation.  The impl folder's
 * "impl.h" picks the features with these macros (each 0 or 1):
 *
 *   JSON_IMPL_NAME            folder name, a string
 *   JSON_IMPL_REFCOUNT        'count' field; json_clone() is count++
 *   JSON_IMPL_SERIALIZED      real JSON_SERIALIZED_OBJECT nodes
 *   JSON_IMPL_INLINE_STRINGS  strings of up to 23 bytes inside the node
 *   JSON_IMPL_INLINE_ARRAYS   arrays of up to 3 elements inside the node
 *   JSON_IMPL_REGRESSED       deliberate extra cost (gate tests only)
 *
 * A folder may instead ship its own copy of this file (e.g. a port of an OVS
 * json.c patch); impls/meson.build then builds that one. */
#include "impl.h"

#include "json.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "ds.h"
#include "hash.h"
#include "json-text.h"
#include "shash.h"
#include "util.h"

#ifndef JSON_IMPL_REGRESSED
#define JSON_IMPL_REGRESSED 0
#endif

#define HAS_STORAGE_TYPE (JSON_IMPL_INLINE_STRINGS || JSON_IMPL_INLINE_ARRAYS)
#define STRING_INLINE_LEN 24    /* Bytes of the union: 23 + NUL. */
#define ARRAY_INLINE_LEN 3      /* Pointers that fit in the union. */

/* Where a node's payload lives (only in impls with inline storage). */
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
    enum json_type type;
#if HAS_STORAGE_TYPE
    enum json_storage_type storage_type;    /* In the hole after 'type'. */
#endif
#if JSON_IMPL_REFCOUNT
    size_t count;
#endif
    union {
        struct shash *object;
        struct json_array array;
        long long int integer;
        double real;
        char *string;           /* Also the text of a serialized object. */
#if JSON_IMPL_INLINE_STRINGS
        char string_inline[STRING_INLINE_LEN];
#endif
#if JSON_IMPL_INLINE_ARRAYS
        struct json *elems_inline[ARRAY_INLINE_LEN];
#endif
    };
};

_Static_assert(sizeof(struct json) == (JSON_IMPL_REFCOUNT ? 40 : 32),
               "node size is part of what is measured");

#define JSON_ASSERT(COND) \
    ((COND) ? (void) 0 \
            : ovs_fatal(0, "%s:%d: assertion %s failed", __FILE__, __LINE__, \
                        #COND))

/* Impl identity. */

static const struct json_impl_info impl_info = {
    .name = JSON_IMPL_NAME,
    .features = JSON_IMPL_FEATURES,
    .node_size = sizeof(struct json),
    .string_inline_max = JSON_IMPL_INLINE_STRINGS ? STRING_INLINE_LEN - 1 : 0,
    .array_inline_max = JSON_IMPL_INLINE_ARRAYS ? ARRAY_INLINE_LEN : 0,
    .refcount = JSON_IMPL_REFCOUNT,
    .serialized = JSON_IMPL_SERIALIZED,
};

const struct json_impl_info *
json_impl_info(void)
{
    return &impl_info;
}

const char *
json_type_to_string(enum json_type type)
{
    switch (type) {
    case JSON_NULL: return "null";
    case JSON_FALSE: return "false";
    case JSON_TRUE: return "true";
    case JSON_OBJECT: return "object";
    case JSON_ARRAY: return "array";
    case JSON_INTEGER:
    case JSON_REAL: return "number";
    case JSON_STRING: return "string";
    case JSON_SERIALIZED_OBJECT: return "serialized object";
    case JSON_N_TYPES:
    default: return "<invalid>";
    }
}

/* Storage helpers. */

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

static inline struct json *
json_create(enum json_type type)
{
    struct json *json = xmalloc(sizeof *json);
    json->type = type;
    set_storage(json, JSON_STORAGE_DYNAMIC);
#if JSON_IMPL_REFCOUNT
    json->count = 1;
#endif
    return json;
}

static inline void
json_free_node(struct json *json)
{
    xfree(json);
}

#if JSON_IMPL_REGRESSED
/* The deliberate regression: a short-lived allocation per string node. */
static void
regression_string_tax(void)
{
    xfree(xmalloc(32));
}
#else
static inline void regression_string_tax(void) { }
#endif

/* Scalars. */

struct json *
json_null_create(void)
{
    return json_create(JSON_NULL);
}

struct json *
json_boolean_create(bool b)
{
    return json_create(b ? JSON_TRUE : JSON_FALSE);
}

struct json *
json_integer_create(long long int integer)
{
    struct json *json = json_create(JSON_INTEGER);
    json->integer = integer;
    return json;
}

struct json *
json_real_create(double real)
{
    struct json *json = json_create(JSON_REAL);
    json->real = real;
    return json;
}

/* Strings. */

struct json *
json_string_create_len(const char *s, size_t len)
{
    struct json *json = json_create(JSON_STRING);
    regression_string_tax();
#if JSON_IMPL_INLINE_STRINGS
    if (len < STRING_INLINE_LEN) {
        memcpy(json->string_inline, s, len);
        json->string_inline[len] = '\0';
        set_storage(json, JSON_STORAGE_INLINE);
        return json;
    }
#endif
    json->string = xmemdup0(s, len);
    return json;
}

struct json *
json_string_create(const char *s)
{
    return json_string_create_len(s, strlen(s));
}

struct json *
json_string_create_nocopy(char *s)
{
#if JSON_IMPL_INLINE_STRINGS
    size_t len = strlen(s);
    if (len < STRING_INLINE_LEN) {
        struct json *json = json_string_create_len(s, len);
        xfree(s);
        return json;
    }
#endif
    struct json *json = json_create(JSON_STRING);
    regression_string_tax();
    json->string = s;
    return json;
}

static inline const char *
string_of(const struct json *json)
{
#if JSON_IMPL_INLINE_STRINGS
    if (storage_of(json) == JSON_STORAGE_INLINE) {
        return json->string_inline;
    }
#endif
    return json->string;
}

const char *
json_string(const struct json *json)
{
    JSON_ASSERT(json->type == JSON_STRING);
    return string_of(json);
}

/* Arrays. */

static inline size_t
array_size(const struct json *json)
{
#if JSON_IMPL_INLINE_ARRAYS
    enum json_storage_type st = storage_of(json);
    if (st != JSON_STORAGE_DYNAMIC) {
        return st - JSON_STORAGE_INLINE_1 + 1;
    }
#endif
    return json->array.n;
}

static inline struct json **
array_elems(const struct json *json)
{
#if JSON_IMPL_INLINE_ARRAYS
    if (storage_of(json) != JSON_STORAGE_DYNAMIC) {
        return CONST_CAST(struct json **, json->elems_inline);
    }
#endif
    return json->array.elems;
}

struct json *
json_array_create_empty(void)
{
    struct json *json = json_create(JSON_ARRAY);
    json->array.n = 0;
    json->array.n_allocated = 0;
    json->array.elems = NULL;
    return json;
}

#if JSON_IMPL_INLINE_ARRAYS
/* Makes an inline array of 'n' (1..3) elements. */
static struct json *
array_create_inline(struct json *const *elems, size_t n)
{
    struct json *json = json_create(JSON_ARRAY);
    memcpy(json->elems_inline, elems, n * sizeof *elems);
    set_storage(json, JSON_STORAGE_INLINE_1 + n - 1);
    return json;
}
#endif

struct json *
json_array_create(struct json **elements, size_t n)
{
#if JSON_IMPL_INLINE_ARRAYS
    if (n && n <= ARRAY_INLINE_LEN) {
        struct json *json = array_create_inline(elements, n);
        xfree(elements);
        return json;
    }
#endif
    struct json *json = json_create(JSON_ARRAY);
    json->array.elems = elements;
    json->array.n = n;
    json->array.n_allocated = n;
    return json;
}

/* json_array_create_N() build their vector directly (no temporary). */
static struct json *
array_create_n(struct json *const *elems, size_t n)
{
#if JSON_IMPL_INLINE_ARRAYS
    return array_create_inline(elems, n);
#else
    return json_array_create(xmemdup(elems, n * sizeof *elems), n);
#endif
}

struct json *
json_array_create_1(struct json *elem0)
{
    struct json *elems[] = { elem0 };
    return array_create_n(elems, 1);
}

struct json *
json_array_create_2(struct json *elem0, struct json *elem1)
{
    struct json *elems[] = { elem0, elem1 };
    return array_create_n(elems, 2);
}

struct json *
json_array_create_3(struct json *elem0, struct json *elem1,
                    struct json *elem2)
{
    struct json *elems[] = { elem0, elem1, elem2 };
    return array_create_n(elems, 3);
}

void
json_array_add(struct json *json, struct json *element)
{
    JSON_ASSERT(json->type == JSON_ARRAY);
#if JSON_IMPL_INLINE_ARRAYS
    enum json_storage_type st = storage_of(json);
    if (st != JSON_STORAGE_DYNAMIC || !json->array.n_allocated) {
        size_t n = array_size(json);
        if (n < ARRAY_INLINE_LEN) {
            json->elems_inline[n] = element;
            set_storage(json, JSON_STORAGE_INLINE_1 + n);
            return;
        }
        /* The fourth element moves the array to the heap. */
        struct json **elems = xmalloc(2 * ARRAY_INLINE_LEN * sizeof *elems);
        memcpy(elems, json->elems_inline, n * sizeof *elems);
        json->array.elems = elems;
        json->array.n = n;
        json->array.n_allocated = 2 * ARRAY_INLINE_LEN;
        set_storage(json, JSON_STORAGE_DYNAMIC);
    }
#endif
    struct json_array *a = &json->array;
    if (a->n >= a->n_allocated) {
        a->n_allocated = a->n_allocated ? 2 * a->n_allocated : 1;
        a->elems = xrealloc(a->elems, a->n_allocated * sizeof *a->elems);
    }
    a->elems[a->n++] = element;
}

void
json_array_set(struct json *json, size_t index, struct json *element)
{
    JSON_ASSERT(json->type == JSON_ARRAY);
    JSON_ASSERT(index < array_size(json));
    struct json **elems = array_elems(json);
    json_destroy(elems[index]);
    elems[index] = element;
}

struct json *
json_array_pop(struct json *json)
{
    JSON_ASSERT(json->type == JSON_ARRAY);
    size_t n = array_size(json);
    if (!n) {
        return NULL;
    }
    struct json *last = array_elems(json)[n - 1];
#if JSON_IMPL_INLINE_ARRAYS
    if (storage_of(json) != JSON_STORAGE_DYNAMIC) {
        if (n == 1) {
            json->array.n = json->array.n_allocated = 0;
            json->array.elems = NULL;
            set_storage(json, JSON_STORAGE_DYNAMIC);
        } else {
            set_storage(json, JSON_STORAGE_INLINE_1 + n - 2);
        }
        return last;
    }
#endif
    json->array.n--;
    return last;
}

void
json_array_trim(struct json *json)
{
    JSON_ASSERT(json->type == JSON_ARRAY);
    if (storage_of(json) != JSON_STORAGE_DYNAMIC) {
        return;
    }
    struct json_array *a = &json->array;
#if JSON_IMPL_INLINE_ARRAYS
    if (a->n && a->n <= ARRAY_INLINE_LEN) {
        /* Small enough to move into the node. */
        struct json **elems = a->elems;
        size_t n = a->n;
        memcpy(json->elems_inline, elems, n * sizeof *elems);
        set_storage(json, JSON_STORAGE_INLINE_1 + n - 1);
        xfree(elems);
        return;
    }
#endif
    if (a->n < a->n_allocated) {
        a->n_allocated = a->n;
        if (a->n) {
            a->elems = xrealloc(a->elems, a->n * sizeof *a->elems);
        } else {
            xfree(a->elems);
            a->elems = NULL;
        }
    }
}

size_t
json_array_size(const struct json *json)
{
    JSON_ASSERT(json->type == JSON_ARRAY);
    return array_size(json);
}

const struct json *
json_array_at(const struct json *json, size_t index)
{
    JSON_ASSERT(json->type == JSON_ARRAY);
    JSON_ASSERT(index < array_size(json));
    return array_elems(json)[index];
}

bool
json_array_contains_string(const struct json *json, const char *s)
{
    JSON_ASSERT(json->type == JSON_ARRAY);
    struct json **elems = array_elems(json);
    size_t n = array_size(json);
    for (size_t i = 0; i < n; i++) {
        if (elems[i]->type == JSON_STRING && !strcmp(string_of(elems[i]), s)) {
            return true;
        }
    }
    return false;
}

/* Objects. */

struct json *
json_object_create(void)
{
    struct json *json = json_create(JSON_OBJECT);
    json->object = xmalloc(sizeof *json->object);
    shash_init(json->object);
    return json;
}

bool
json_object_is_empty(const struct json *json)
{
    JSON_ASSERT(json->type == JSON_OBJECT);
    return shash_is_empty(json->object);
}

void
json_object_put(struct json *json, const char *name, struct json *value)
{
    JSON_ASSERT(json->type == JSON_OBJECT);
    json_destroy(shash_replace(json->object, name, value));
}

void
json_object_put_nocopy(struct json *json, char *name, struct json *value)
{
    JSON_ASSERT(json->type == JSON_OBJECT);
    json_destroy(shash_replace_nocopy(json->object, name, value));
}

void
json_object_put_string(struct json *json, const char *name,
                       const char *value)
{
    json_object_put(json, name, json_string_create(value));
}

void
json_object_put_format(struct json *json, const char *name,
                       const char *format, ...)
{
    va_list args;
    va_start(args, format);
    char *s = xvasprintf(format, args);
    va_end(args);
    json_object_put(json, name, json_string_create_nocopy(s));
}

struct shash *
json_object(const struct json *json)
{
    JSON_ASSERT(json->type == JSON_OBJECT);
    return json->object;
}

const struct json *
json_object_get(const struct json *json, const char *name)
{
    JSON_ASSERT(json->type == JSON_OBJECT);
    return shash_find_data(json->object, name);
}

/* Other accessors. */

enum json_type
json_get_type(const struct json *json)
{
    return json->type;
}

bool
json_boolean(const struct json *json)
{
    JSON_ASSERT(json->type == JSON_TRUE || json->type == JSON_FALSE);
    return json->type == JSON_TRUE;
}

double
json_real(const struct json *json)
{
    JSON_ASSERT(json->type == JSON_REAL || json->type == JSON_INTEGER);
    return json->type == JSON_REAL ? json->real : (double) json->integer;
}

int64_t
json_integer(const struct json *json)
{
    JSON_ASSERT(json->type == JSON_INTEGER);
    return json->integer;
}

/* Serialized objects. */

#if JSON_IMPL_SERIALIZED
struct json *
json_serialized_object_create_nocopy(char *text)
{
    struct json *json = json_create(JSON_SERIALIZED_OBJECT);
    json->string = text;        /* Never inline: it is usually long. */
    return json;
}

struct json *
json_serialized_object_create(const struct json *src)
{
    return json_serialized_object_create_nocopy(json_to_string(src, 0));
}

struct json *
json_serialized_object_create_from_text(const char *text)
{
    return json_serialized_object_create_nocopy(xstrdup(text));
}
#else
/* Without serialized nodes the text becomes an ordinary tree again. */
struct json *
json_serialized_object_create(const struct json *src)
{
    return json_clone(src);
}

/* Parses any JSON value's text, not only an object or array, by wrapping it
 * in an array while feeding the parser. */
struct json *
json_serialized_object_create_from_text(const char *text)
{
    struct json_parser *p = json_parser_create(JSPF_TRAILER);
    json_parser_feed(p, "[", 1);
    json_parser_feed(p, text, strlen(text));
    json_parser_feed(p, "]", 1);
    struct json *wrapper = json_parser_finish(p);
    if (wrapper->type != JSON_ARRAY || array_size(wrapper) != 1) {
        ovs_fatal(0, "serialized object text is not one JSON value: %s",
                  wrapper->type == JSON_STRING ? string_of(wrapper) : text);
    }
    struct json *value = json_array_pop(wrapper);
    json_destroy(wrapper);
    return value;
}

struct json *
json_serialized_object_create_nocopy(char *text)
{
    struct json *json = json_serialized_object_create_from_text(text);
    xfree(text);
    return json;
}
#endif

const char *
json_serialized_object(const struct json *json)
{
    JSON_ASSERT(json->type == JSON_SERIALIZED_OBJECT);
    return json->string;
}

/* Lifetime. */

static void
json_destroy__(struct json *json)
{
    switch (json->type) {
    case JSON_OBJECT: {
        struct shash *object = json->object;
        for (size_t i = 0; i <= object->mask; i++) {
            for (struct shash_node *node = object->buckets[i]; node;
                 node = node->next) {
                json_destroy(node->data);
            }
        }
        shash_destroy(object);
        xfree(object);
        break;
    }
    case JSON_ARRAY: {
        struct json **elems = array_elems(json);
        size_t n = array_size(json);
        for (size_t i = 0; i < n; i++) {
            json_destroy(elems[i]);
        }
        if (storage_of(json) == JSON_STORAGE_DYNAMIC) {
            xfree(elems);
        }
        break;
    }
    case JSON_STRING:
        if (storage_of(json) == JSON_STORAGE_DYNAMIC) {
            xfree(json->string);
        }
        break;
    case JSON_SERIALIZED_OBJECT:
        xfree(json->string);
        break;
    case JSON_NULL:
    case JSON_FALSE:
    case JSON_TRUE:
    case JSON_INTEGER:
    case JSON_REAL:
        break;
    case JSON_N_TYPES:
    default:
        ovs_fatal(0, "json_destroy: bad node type %d", json->type);
    }
    json_free_node(json);
}

void
json_destroy(struct json *json)
{
    if (json) {
#if JSON_IMPL_REFCOUNT
        JSON_ASSERT(json->count > 0);
        if (--json->count) {
            return;
        }
#endif
        json_destroy__(json);
    }
}

struct json *
json_deep_clone(const struct json *json)
{
    switch (json->type) {
    case JSON_OBJECT: {
        const struct shash *src = json->object;
        struct json *copy = json_object_create();
        /* Same bucket count, so the copy iterates in the same order. */
        shash_reserve(copy->object, 2 * (src->mask + 1));
        for (size_t i = 0; i <= src->mask; i++) {
            for (struct shash_node *node = src->buckets[i]; node;
                 node = node->next) {
                shash_add(copy->object, node->name,
                          json_deep_clone(node->data));
            }
        }
        return copy;
    }
    case JSON_ARRAY: {
        size_t n = array_size(json);
        struct json **src = array_elems(json);
#if JSON_IMPL_INLINE_ARRAYS
        if (n && n <= ARRAY_INLINE_LEN) {
            struct json *elems[ARRAY_INLINE_LEN];
            for (size_t i = 0; i < n; i++) {
                elems[i] = json_deep_clone(src[i]);
            }
            return array_create_inline(elems, n);
        }
#endif
        struct json **elems = n ? xmalloc(n * sizeof *elems) : NULL;
        for (size_t i = 0; i < n; i++) {
            elems[i] = json_deep_clone(src[i]);
        }
        return json_array_create(elems, n);
    }
    case JSON_STRING:
        return json_string_create(string_of(json));
    case JSON_SERIALIZED_OBJECT:
        return json_serialized_object_create_from_text(json->string);
    case JSON_NULL:
    case JSON_FALSE:
    case JSON_TRUE:
        return json_create(json->type);
    case JSON_INTEGER:
        return json_integer_create(json->integer);
    case JSON_REAL:
        return json_real_create(json->real);
    case JSON_N_TYPES:
    default:
        ovs_fatal(0, "json_deep_clone: bad node type %d", json->type);
    }
}

struct json *
json_clone(const struct json *json)
{
#if JSON_IMPL_REFCOUNT
    CONST_CAST(struct json *, json)->count++;
    return CONST_CAST(struct json *, json);
#else
    return json_deep_clone(json);
#endif
}

struct json *
json_nullable_clone(const struct json *json)
{
    return json ? json_clone(json) : NULL;
}

size_t
json_refcount(const struct json *json)
{
#if JSON_IMPL_REFCOUNT
    return json->count;
#else
    (void) json;
    return 1;
#endif
}

/* Equality and hashing. */

bool
json_equal(const struct json *a, const struct json *b)
{
#if JSON_IMPL_REFCOUNT
    if (a == b) {
        return true;
    }
#endif
    if (a->type != b->type) {
        return false;
    }
    switch (a->type) {
    case JSON_OBJECT: {
        const struct shash *oa = a->object, *ob = b->object;
        if (shash_count(oa) != shash_count(ob)) {
            return false;
        }
        struct shash_node *node;
        SHASH_FOR_EACH (node, oa) {
            struct shash_node *other = shash_find(ob, node->name);
            if (!other || !json_equal(node->data, other->data)) {
                return false;
            }
        }
        return true;
    }
    case JSON_ARRAY: {
        size_t n = array_size(a);
        if (n != array_size(b)) {
            return false;
        }
        struct json **ea = array_elems(a), **eb = array_elems(b);
        for (size_t i = 0; i < n; i++) {
            if (!json_equal(ea[i], eb[i])) {
                return false;
            }
        }
        return true;
    }
    case JSON_STRING:
        return !strcmp(string_of(a), string_of(b));
    case JSON_SERIALIZED_OBJECT:
        return !strcmp(a->string, b->string);
    case JSON_NULL:
    case JSON_FALSE:
    case JSON_TRUE:
        return true;
    case JSON_INTEGER:
        return a->integer == b->integer;
    case JSON_REAL:
        return a->real == b->real;
    case JSON_N_TYPES:
    default:
        ovs_fatal(0, "json_equal: bad node type %d", a->type);
    }
}

static uint32_t
hash_double(double d, uint32_t basis)
{
    uint64_t bits;
    if (d == 0) {
        d = 0;                  /* -0.0 equals 0.0, so it hashes alike. */
    }
    memcpy(&bits, &d, sizeof bits);
    return hash_finish(hash_add64(basis, bits), 8);
}

size_t
json_hash(const struct json *json, size_t basis_)
{
    uint32_t basis = basis_;

    switch (json->type) {
    case JSON_OBJECT: {
        const struct shash_node **nodes = shash_sort(json->object);
        size_t n = shash_count(json->object);
        for (size_t i = 0; i < n; i++) {
            basis = hash_string(nodes[i]->name, basis);
            basis = json_hash(nodes[i]->data, basis);
        }
        xfree(nodes);
        return basis;
    }
    case JSON_ARRAY: {
        size_t n = array_size(json);
        struct json **elems = array_elems(json);
        basis = hash_int(n, basis);
        for (size_t i = 0; i < n; i++) {
            basis = json_hash(elems[i], basis);
        }
        return basis;
    }
    case JSON_STRING:
        return hash_string(string_of(json), basis);
    case JSON_SERIALIZED_OBJECT:
        return hash_string(json->string, basis);
    case JSON_NULL:
    case JSON_FALSE:
    case JSON_TRUE:
        return hash_int(json->type << 8, basis);
    case JSON_INTEGER:
        return hash_finish(hash_add64(basis, json->integer), 8);
    case JSON_REAL:
        return hash_double(json->real, basis);
    case JSON_N_TYPES:
    default:
        ovs_fatal(0, "json_hash: bad node type %d", json->type);
    }
}

/* Serializing. */

struct serializer {
    struct ds *ds;
    int depth;
    int flags;
};

static void serialize(const struct json *, struct serializer *);

/* In pretty mode, starts a new line at the current depth. */
static void
indent_line(struct serializer *s)
{
    if (s->flags & JSSF_PRETTY) {
        ds_put_char(s->ds, '\n');
        ds_put_char_multiple(s->ds, ' ', 2 * s->depth);
    }
}

static void
serialize_member(size_t i, const struct shash_node *node,
                 struct serializer *s)
{
    if (i) {
        ds_put_char(s->ds, ',');
        indent_line(s);
    }
    json_text_put_string(s->ds, node->name, strlen(node->name));
    ds_put_char(s->ds, ':');
    if (s->flags & JSSF_PRETTY) {
        ds_put_char(s->ds, ' ');
    }
    serialize(node->data, s);
}

static void
serialize_object(const struct shash *object, struct serializer *s)
{
    ds_put_char(s->ds, '{');
    s->depth++;
    indent_line(s);
    if (s->flags & JSSF_SORT) {
        const struct shash_node **nodes = shash_sort(object);
        size_t n = shash_count(object);
        for (size_t i = 0; i < n; i++) {
            serialize_member(i, nodes[i], s);
        }
        xfree(nodes);
    } else {
        const struct shash_node *node;
        size_t i = 0;
        SHASH_FOR_EACH (node, object) {
            serialize_member(i++, node, s);
        }
    }
    ds_put_char(s->ds, '}');
    s->depth--;
}

static void
serialize_array(const struct json *json, struct serializer *s)
{
    size_t n = array_size(json);
    struct json **elems = array_elems(json);

    ds_put_char(s->ds, '[');
    s->depth++;
    if (n) {
        indent_line(s);
        for (size_t i = 0; i < n; i++) {
            if (i) {
                ds_put_char(s->ds, ',');
                indent_line(s);
            }
            serialize(elems[i], s);
        }
    }
    s->depth--;
    ds_put_char(s->ds, ']');
}

static void
serialize(const struct json *json, struct serializer *s)
{
    switch (json->type) {
    case JSON_NULL:
        ds_put_buffer(s->ds, "null", 4);
        break;
    case JSON_FALSE:
        ds_put_buffer(s->ds, "false", 5);
        break;
    case JSON_TRUE:
        ds_put_buffer(s->ds, "true", 4);
        break;
    case JSON_OBJECT:
        serialize_object(json->object, s);
        break;
    case JSON_ARRAY:
        serialize_array(json, s);
        break;
    case JSON_INTEGER:
        json_text_put_integer(s->ds, json->integer);
        break;
    case JSON_REAL:
        json_text_put_real(s->ds, json->real);
        break;
    case JSON_STRING: {
        const char *str = string_of(json);
        json_text_put_string(s->ds, str, strlen(str));
        break;
    }
    case JSON_SERIALIZED_OBJECT:
        /* Pasted verbatim, whatever the flags. */
        ds_put_cstr(s->ds, json->string);
        break;
    case JSON_N_TYPES:
    default:
        ovs_fatal(0, "json_to_ds: bad node type %d", json->type);
    }
}

#if JSON_IMPL_REGRESSED
/* The deliberate regression: rescan and hash each serialized output. */
volatile uint32_t json_regression_sink;

static void
regression_serialize_tax(const struct ds *ds, size_t start)
{
    char *copy = xmemdup(ds->string + start, ds->length - start);
    json_regression_sink = hash_bytes(copy, ds->length - start, 0);
    xfree(copy);
}
#else
static inline void regression_serialize_tax(const struct ds *ds,
                                            size_t start)
{
    (void) ds;
    (void) start;
}
#endif

void
json_to_ds(const struct json *json, int flags, struct ds *ds)
{
    struct serializer s = { .ds = ds, .depth = 0, .flags = flags };
    size_t start = ds->length;
    serialize(json, &s);
    regression_serialize_tax(ds, start);
}

char *
json_to_string(const struct json *json, int flags)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    json_to_ds(json, flags, &ds);
    return ds_steal_cstr(&ds);
}
