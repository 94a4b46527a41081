/* impls/compact: the tree source for the compact layout (json-node.h in
 * this folder): constructors, accessors, copy/destroy, equality and hashing
 * (the serializer walk is common/json-serialize.c).  Derived from impls/interned/json-tree.c; what
 * differs is where things live (sized nodes, strings in their node, the
 * shash in the object node) and that every feature is always on: refcount,
 * serialized nodes, interned strings. */
#include "json-node.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "ds.h"
#include "hash.h"
#include "json-parse-hooks.h"
#include "json-text.h"
#include "shash.h"
#include "shash-slot.h"
#include "util.h"

static inline uint32_t
intern_node_hash(const struct json *json)
{
    return json->string.hash;
}

static inline const char *
intern_node_string(const struct json *json)
{
    return string_of(json);
}

#include "interned/intern-table.h"

/* The one table of interned string nodes. */
static struct intern_table strings;

static inline uint32_t
string_hash_bytes(const char *s, size_t len)
{
    return hash_bytes(s, len, 0);
}

/* Impl identity. */

static const struct json_impl_info impl_info = {
    .name = JSON_IMPL_NAME,
    .features = JSON_IMPL_FEATURES,
    /* Nodes are sized by type (json-node.h): 24 is an array's, the largest
     * fixed-size node but an object's; a string is 12 + len + 1. */
    .node_size = NODE_HEADER_SIZE + sizeof(struct json_array),
    .string_inline_max = 0,     /* Every string is in its node. */
    .array_inline_max = ARRAY_INLINE_LEN,
    .refcount = true,
    .serialized = true,
};

const struct json_impl_info *
json_impl_info(void)
{
    return &impl_info;
}

/* Scalars, arrays and the type accessors are json-scalar.c's and
 * json-array.c's (layout primitives only). */

/* Strings. */

/* A string node for 's' ('len' bytes, no NUL among them, hash 'hash'):
 * the interned one with count++, or a new one (interned unless
 * COMPACT_INTERN is 0). */
static struct json *
string_create(const char *s, size_t len, uint32_t hash)
{
    if (!COMPACT_INTERN) {
        return string_node_create(s, len, hash);
    }
    struct json *json = intern_find(&strings, hash, s, len);
    if (json) {
        ref_get(json);
        return json;
    }
    json = string_node_create(s, len, hash);
    json->n_inline = 1;         /* For strings: interned. */
    intern_insert(&strings, json);
    return json;
}

struct json *
json_string_create_len(const char *s, size_t len)
{
    len = strnlen(s, len);      /* The string ends at a NUL in any impl. */
    return string_create(s, len, string_hash_bytes(s, len));
}

/* The parser's strings (json-parser.c): it puts a stand-in in the tree, a
 * string node of its own that it reuses, and interns the string a few
 * tokens later with json_string_intern_pending(), after prefetching what
 * the lookup will touch. */

/* Makes '*standin' (NULL at first; room for '*cap' bytes) a string node
 * holding the 'len' bytes of 's'. */
void
json_string_standin_set(struct json **standin, size_t *cap, const char *s,
                        size_t len)
{
    len = strnlen(s, len);
    if (!*standin || len > *cap) {
        *cap = len > 2 * *cap ? len : 2 * *cap;
        *standin = xrealloc_as(XALLOC_JSON_NODE, *standin,
                               NODE_STRING_OFFSET + *cap + 1);
    }
    struct json *json = *standin;
    json->count = 1;
    json->type = JSON_STRING;
    json->n_inline = 0;
    json->store = 0;            /* The parser's own, on the heap. */
    json->string.hash = string_hash_bytes(s, len);
    /* Through a plain pointer: 'bytes' is declared char[4] and really
     * len + 1 (UBSan's bounds check knows only the declaration). */
    char *bytes = (char *) json + NODE_STRING_OFFSET;
    memcpy(bytes, s, len);
    bytes[len] = '\0';
}

/* Brings the table slot that a lookup of the stand-in 'json' starts at
 * into the cache. */
void
json_string_prefetch_slot(const struct json *json)
{
    intern_prefetch_slot(&strings, json->string.hash);
}

/* Brings the node that a lookup of the stand-in 'json' would compare first
 * into the cache (its slot should be cached by now). */
void
json_string_prefetch_match(const struct json *json)
{
    intern_prefetch_match(&strings, json->string.hash);
}

/* The interned node equal to the stand-in 'json', with a new reference. */
struct json *
json_string_intern_pending(const struct json *json)
{
    const char *s = string_of(json);
    return string_create(s, strlen(s), json->string.hash);
}

struct json *
json_string_create(const char *s)
{
    return json_string_create_len(s, strlen(s));
}

/* The buffer is freed: the bytes live in the node. */
struct json *
json_string_create_nocopy(char *s)
{
    struct json *json = json_string_create_len(s, strlen(s));
    xfree(s);
    return json;
}

const char *
json_string(const struct json *json)
{
    JSON_ASSERT(json->type == JSON_STRING);
    return string_of(json);
}

/* Objects. */

struct json *
json_object_create(void)
{
    struct json *json = node_alloc(JSON_OBJECT);
    shash_init(&json->object);
    return json;
}

bool
json_object_is_empty(const struct json *json)
{
    JSON_ASSERT(json->type == JSON_OBJECT);
    return shash_is_empty(CONST_CAST(struct shash *, &json->object));
}

void
json_object_put(struct json *json, const char *name, struct json *value)
{
    JSON_ASSERT(json->type == JSON_OBJECT);
    enum xalloc_category old = xalloc_category_set(XALLOC_OBJECT);
    struct json *prev = shash_replace(CONST_CAST(struct shash *, &json->object), name, value);
    xalloc_category_set(old);
    json_destroy(prev);
}

void **
json_object_slot(struct json *json, const char *name, size_t len,
                 bool *added)
{
    JSON_ASSERT(json->type == JSON_OBJECT);
    return &shash_find_or_add_len(&json->object, name, len, added)->data;
}

void
json_object_put_nocopy(struct json *json, char *name, struct json *value)
{
    JSON_ASSERT(json->type == JSON_OBJECT);
    enum xalloc_category old = xalloc_category_set(XALLOC_OBJECT);
    struct json *prev = shash_replace_nocopy(CONST_CAST(struct shash *, &json->object), name, value);
    xalloc_category_set(old);
    json_destroy(prev);
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
    return CONST_CAST(struct shash *, &json->object);
}

const struct json *
json_object_get(const struct json *json, const char *name)
{
    JSON_ASSERT(json->type == JSON_OBJECT);
    return shash_find_data(CONST_CAST(struct shash *, &json->object), name);
}

/* Serialized objects. */

struct json *
json_serialized_object_create_nocopy(char *text)
{
    struct json *json = node_alloc(JSON_SERIALIZED_OBJECT);
    xalloc_retag(text, XALLOC_STRING);
    json->text = text;
    return json;
}

struct json *
json_serialized_object_create(const struct json *src)
{
    return json_serialized_object_create_nocopy(
        json_to_string(src, 0));
}

struct json *
json_serialized_object_create_from_text(const char *text)
{
    return json_serialized_object_create_nocopy(
        xstrdup(text));
}

const char *
json_serialized_object(const struct json *json)
{
    JSON_ASSERT(json->type == JSON_SERIALIZED_OBJECT);
    return json->text;
}

/* Lifetime. */

static void
json_destroy__(struct json *json)
{
    switch (json->type) {
    case JSON_OBJECT: {
        struct shash *object = CONST_CAST(struct shash *, &json->object);
        for (size_t i = 0; i <= object->mask; i++) {
            for (struct shash_node *node = object->buckets[i]; node;
                 node = node->next) {
                json_destroy(node->data);
            }
        }
        shash_destroy(object);
        break;
    }
    case JSON_ARRAY: {
        struct json **elems = array_elems(json);
        size_t n = array_size(json);
        for (size_t i = 0; i < n; i++) {
            json_destroy(elems[i]);
        }
        array_free(json);
        break;
    }
    case JSON_STRING:
        if (json->n_inline) {
            intern_remove(&strings, json);
        }
        break;
    case JSON_SERIALIZED_OBJECT:
        xfree(json->text);
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
    node_free(json);
}

void
json_destroy(struct json *json)
{
    if (json && ref_put(json)) {
        json_destroy__(json);
    }
}

struct json *
json_deep_clone(const struct json *json)
{
    switch (json->type) {
    case JSON_OBJECT: {
        const struct shash *src = CONST_CAST(struct shash *, &json->object);
        struct json *copy = json_object_create();
        /* Same bucket count, so the copy iterates in the same order. */
        shash_reserve(&copy->object, 2 * (src->mask + 1));
        for (size_t i = 0; i <= src->mask; i++) {
            for (struct shash_node *node = src->buckets[i]; node;
                 node = node->next) {
                shash_add(&copy->object, node->name,
                          json_deep_clone(node->data));
            }
        }
        return copy;
    }
    case JSON_ARRAY: {
        size_t n = array_size(json);
        struct json **src = array_elems(json);
        if (array_fits_inline(n)) {
            struct json *elems[ARRAY_INLINE_LEN];
            for (size_t i = 0; i < n; i++) {
                elems[i] = json_deep_clone(src[i]);
            }
            struct json *copy = node_alloc(JSON_ARRAY);
            array_set_inline(copy, elems, n);
            return copy;
        }
        struct json **elems = (n ? xmalloc_as(XALLOC_ARRAY, n * sizeof *elems)
                               : NULL);
        for (size_t i = 0; i < n; i++) {
            elems[i] = json_deep_clone(src[i]);
        }
        return json_array_create(elems, n);
    }
    case JSON_STRING:
        return json_string_create(string_of(json));
    case JSON_SERIALIZED_OBJECT:
        return json_serialized_object_create_from_text(json->text);
    case JSON_NULL:
    case JSON_FALSE:
    case JSON_TRUE:
        return node_alloc(json->type);
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
    if (OVS_UNLIKELY(node_store_pinned(json))) {
        return json_deep_clone(json);       /* Its store may go first. */
    }
    ref_get(json);
    return CONST_CAST(struct json *, json);
}

struct json *
json_nullable_clone(const struct json *json)
{
    return json ? json_clone(json) : NULL;
}

size_t
json_refcount(const struct json *json)
{
    return json->count;
}

/* Equality and hashing. */

bool
json_equal(const struct json *a, const struct json *b)
{
    if (a == b) {
        return true;            /* Shared nodes are common with refcounts. */
    }
    if (a->type != b->type) {
        return false;
    }
    switch (a->type) {
    case JSON_OBJECT: {
        const struct shash *oa = &a->object, *ob = &b->object;
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
        if (a->n_inline && b->n_inline) {
            return false;       /* Equal interned strings are one node. */
        }
        return (a->string.hash == b->string.hash
                && !strcmp(string_of(a), string_of(b)));
    case JSON_SERIALIZED_OBJECT:
        return !strcmp(a->text, b->text);
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
        const struct shash_node **nodes = shash_sort(CONST_CAST(struct shash *, &json->object));
        size_t n = shash_count(CONST_CAST(struct shash *, &json->object));
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
    case JSON_STRING: {
        /* The cached hash of the bytes, mixed with 'basis' (equal strings
         * hash alike; the values differ from the other impls').  The final
         * constant keeps "" (hash 0) apart from null and integer 0. */
        return hash_finish(hash_add(basis, json->string.hash), 0x5354);
    }
    case JSON_SERIALIZED_OBJECT:
        return hash_string(json->text, basis);
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

/* The serializer walk is json-serialize.c's (public accessors only). */
