/* impls/ovs-arena: impls/common/json-tree.c on this folder's json-node.h,
 * with three changes for trees of the database read path (read-store.h):
 * an object's struct shash is the arena's when its node is; destroying an
 * arena tree frees only what was added to it after parsing (the root takes
 * the arena); json_clone() of an arena node, or (without the arena) of a
 * read path string node, is a copy on the heap rather than count++. */
#include "json-node.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "ds.h"
#include "hash.h"
#include "json-text.h"
#include "shash.h"
#include "util.h"

/* Impl identity. */

static const struct json_impl_info impl_info = {
    .name = JSON_IMPL_NAME,
    .features = JSON_IMPL_FEATURES,
    .node_size = sizeof(struct json),
    .string_inline_max = STRING_INLINE_MAX,
    .array_inline_max = ARRAY_INLINE_MAX,
    .refcount = JSON_IMPL_REFCOUNT,
    .serialized = JSON_IMPL_SERIALIZED,
};

const struct json_impl_info *
json_impl_info(void)
{
    return &impl_info;
}

/* Scalars, arrays and the type accessors are json-scalar.c's and
 * json-array.c's (layout primitives only). */

/* Strings. */

struct json *
json_string_create_len(const char *s, size_t len)
{
    struct json *json = node_alloc(JSON_STRING);
    hook_string_created();
    string_set_copy(json, s, len);
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
    struct json *json = node_alloc(JSON_STRING);
    hook_string_created();
    string_set_nocopy(json, s);
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
    json->object = (node_in_arena(json)
                    ? read_store_arena_alloc(sizeof *json->object)
                    : xmalloc_as(XALLOC_OBJECT, sizeof *json->object));
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
    json_destroy(shash_replace_as(json->object, name, value, XALLOC_OBJECT));
}

void
json_object_put_nocopy(struct json *json, char *name, struct json *value)
{
    JSON_ASSERT(json->type == JSON_OBJECT);
    /* 'name' keeps the category its allocator gave it (the parser's are
     * objects'): a retag here would cost every member. */
    json_destroy(shash_replace_nocopy_as(json->object, name, value,
                                         XALLOC_OBJECT));
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

/* Serialized objects. */

/* Without serialized nodes the text becomes an ordinary tree again: parses
 * any JSON value's text, not only an object or array, by wrapping it in an
 * array while feeding the parser. */
static struct json *
tree_from_text(const char *text)
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
    if (!JSON_IMPL_SERIALIZED) {
        struct json *json = tree_from_text(text);
        xfree(text);
        return json;
    }
    struct json *json = node_alloc(JSON_SERIALIZED_OBJECT);
    xalloc_retag(text, XALLOC_STRING);
    json->string = text;        /* Never inline: it is usually long. */
    return json;
}

struct json *
json_serialized_object_create(const struct json *src)
{
    if (!JSON_IMPL_SERIALIZED) {
        return json_clone(src);
    }
    return json_serialized_object_create_nocopy(json_to_string(src, 0));
}

struct json *
json_serialized_object_create_from_text(const char *text)
{
    if (!JSON_IMPL_SERIALIZED) {
        return tree_from_text(text);
    }
    return json_serialized_object_create_nocopy(xstrdup(text));
}

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
        shash_destroy(object);  /* Frees only its heap blocks. */
        if (!node_in_arena(json)) {
            xfree(object);
        }
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
        string_free(json);
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
        const struct shash *src = json->object;
        struct json *copy = json_object_create();
        /* Same bucket count, so the copy iterates in the same order. */
        XALLOC_TAGGED(XALLOC_OBJECT,
                      shash_reserve(copy->object, 2 * (src->mask + 1)));
        for (size_t i = 0; i <= src->mask; i++) {
            for (struct shash_node *node = src->buckets[i]; node;
                 node = node->next) {
                struct json *value = json_deep_clone(node->data);
                XALLOC_TAGGED(XALLOC_OBJECT,
                              shash_add(copy->object, node->name, value));
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
    if (OVS_UNLIKELY(json->store & (NODE_ARENA | NODE_READ))) {
        if (node_in_arena(json)) {
            /* A count++ would outlive the arena. */
            if (json->type == JSON_OBJECT || json->type == JSON_ARRAY) {
                arena_stats.clones_container++;
            } else {
                arena_stats.clones_scalar++;
            }
            return json_deep_clone(json);
        }
        if (json->type == JSON_STRING) {
            /* A read path string that something keeps: a fresh node. */
            arena_stats.clones_scalar++;
            return json_deep_clone(json);
        }
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
    return ref_count(json);
}

/* Equality and hashing. */

bool
json_equal(const struct json *a, const struct json *b)
{
    if (JSON_IMPL_REFCOUNT && a == b) {
        return true;            /* Shared nodes are common with refcounts. */
    }
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

/* The serializer walk is json-serialize.c's (public accessors only). */
