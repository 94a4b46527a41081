/* The JSON tree: constructors, accessors, copy/destroy, equality and
 * hashing, written once for every built-in layout (the serializer walk
 * is json-serialize.c).
 *
 * The node layout (struct json, string, object and array storage,
 * reference count) is json-node.h's: impls/common/json-node.h configured by
 * the impl folder's "impl.h", or a folder's own json-node.h (found first:
 * <json-node.h>) that defines the same primitives (impls/compact/).  This
 * file only calls them.
 *
 * With JSON_IMPL_INTERNED every string node (or every one
 * string_len_interned() picks) is in one intern table: creating a string
 * that exists returns that node with count++, so equal strings share one
 * node and its bytes.  Strings are immutable through the API, so the
 * sharing is invisible except through json_refcount() and allocation
 * counts.  Identity then stands for content: two interned strings are
 * equal iff they are the same node, and a string hashes by its cached
 * hash. */
#include <json-node.h>

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "ds.h"
#include "hash.h"
#include "json-parse-hooks.h"
#include "json-text.h"
#include "shash.h"
#include "util.h"

/* Impl identity. */

static const struct json_impl_info impl_info = {
    .name = JSON_IMPL_NAME,
    .features = JSON_IMPL_FEATURES,
    .node_size = JSON_NODE_SIZE,
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

static inline uint32_t
string_hash_bytes(const char *s, size_t len)
{
    return hash_bytes(s, len, 0);
}

#if JSON_IMPL_INTERNED
static inline uint32_t
intern_node_hash(const struct json *json)
{
    return string_hash_of(json);
}

static inline const char *
intern_node_string(const struct json *json)
{
    return string_of(json);
}

#include "intern-table.h"

/* The one table of interned string nodes. */
static struct intern_table strings;

/* The interned node holding the 'len' bytes of 's' (no NUL among them,
 * hash 'hash') with count++, or a new one, made from 'owned' if it is
 * nonnull (a heap copy of 's' that is freed or kept). */
static struct json *
string_intern(const char *s, size_t len, uint32_t hash, char *owned)
{
    struct json *json = intern_find(&strings, hash, s, len);
    if (json) {
        xfree(owned);
        ref_get(json);
        return json;
    }
    json = owned ? string_node_nocopy(owned) : string_node_new(s, len);
    string_set_interned(json, hash);
    intern_insert(&strings, json);
    return json;
}

/* Takes the string node 'json', about to be freed, out of the table. */
static inline void
string_unintern(struct json *json)
{
    if (string_is_interned(json)) {
        intern_remove(&strings, json);
    }
}
#else
static inline void
string_unintern(struct json *json OVS_UNUSED)
{
}
#endif

struct json *
json_string_create_len(const char *s, size_t len)
{
#if JSON_IMPL_INTERNED
    len = strnlen(s, len);      /* The string ends at a NUL in any impl. */
    if (string_len_interned(len)) {
        return string_intern(s, len, string_hash_bytes(s, len), NULL);
    }
#endif
    return string_node_new(s, len);
}

struct json *
json_string_create(const char *s)
{
    return json_string_create_len(s, strlen(s));
}

struct json *
json_string_create_nocopy(char *s)
{
#if JSON_IMPL_INTERNED
    size_t len = strlen(s);
    if (string_len_interned(len)) {
        return string_intern(s, len, string_hash_bytes(s, len), s);
    }
#endif
    return string_node_nocopy(s);
}

#if JSON_IMPL_INTERNED && defined(JSON_PARSER_PENDING_STRINGS) \
    && JSON_PARSER_PENDING_STRINGS
/* The parser's pending strings (json-parser.c, json-parse-hooks.h): it
 * puts a stand-in in the tree, a string node of its own that it reuses,
 * and interns the string a few tokens later, after prefetching what the
 * lookup will touch.  The layout provides string_standin_set(). */

void
json_string_standin_set(struct json **standin, size_t *cap, const char *s,
                        size_t len)
{
    len = strnlen(s, len);
    string_standin_set(standin, cap, s, len, string_hash_bytes(s, len));
}

void
json_string_prefetch_slot(const struct json *json)
{
    intern_prefetch_slot(&strings, string_hash_of(json));
}

void
json_string_prefetch_match(const struct json *json)
{
    intern_prefetch_match(&strings, string_hash_of(json));
}

struct json *
json_string_intern_pending(const struct json *json)
{
    const char *s = string_of(json);
    return string_intern(s, strlen(s), string_hash_of(json), NULL);
}
#endif

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
    object_init(json);
    return json;
}

bool
json_object_is_empty(const struct json *json)
{
    JSON_ASSERT(json->type == JSON_OBJECT);
    return shash_is_empty(object_of(json));
}

void
json_object_put(struct json *json, const char *name, struct json *value)
{
    JSON_ASSERT(json->type == JSON_OBJECT);
    json_destroy(shash_replace_as(object_of(json), name, value,
                                  XALLOC_OBJECT));
}

void
json_object_put_nocopy(struct json *json, char *name, struct json *value)
{
    JSON_ASSERT(json->type == JSON_OBJECT);
    /* 'name' keeps the category its allocator gave it (the parser's are
     * objects'): a retag here would cost every member. */
    json_destroy(shash_replace_nocopy_as(object_of(json), name, value,
                                         XALLOC_OBJECT));
}

#if defined(JSON_PARSER_MEMBER_SLOT) && JSON_PARSER_MEMBER_SLOT
void **
json_object_slot(struct json *json, const char *name, size_t len,
                 bool *added)
{
    JSON_ASSERT(json->type == JSON_OBJECT);
    return &shash_find_or_add_len(object_of(json), name, len, added)->data;
}
#endif

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
    return object_of(json);
}

const struct json *
json_object_get(const struct json *json, const char *name)
{
    JSON_ASSERT(json->type == JSON_OBJECT);
    return shash_find_data(object_of(json), name);
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
        struct shash *object = object_of(json);
        for (size_t i = 0; i <= object->mask; i++) {
            for (struct shash_node *node = object->buckets[i]; node;
                 node = node->next) {
                json_destroy(node->data);
            }
        }
        object_free(json);
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
        string_unintern(json);
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
        const struct shash *src = object_of(json);
        struct json *copy = json_object_create();
        /* Same bucket count, so the copy iterates in the same order. */
        XALLOC_TAGGED(XALLOC_OBJECT,
                      shash_reserve(object_of(copy), 2 * (src->mask + 1)));
        for (size_t i = 0; i <= src->mask; i++) {
            for (struct shash_node *node = src->buckets[i]; node;
                 node = node->next) {
                struct json *value = json_deep_clone(node->data);
                XALLOC_TAGGED(XALLOC_OBJECT,
                              shash_add(object_of(copy), node->name, value));
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
        struct json **elems = n ? array_vector_alloc(n) : NULL;
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
    if (!JSON_IMPL_REFCOUNT || OVS_UNLIKELY(node_pinned(json))) {
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
        const struct shash *oa = object_of(a), *ob = object_of(b);
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
        if (string_is_interned(a) && string_is_interned(b)) {
            return false;       /* Equal interned strings are one node. */
        }
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
        const struct shash_node **nodes = shash_sort(object_of(json));
        size_t n = shash_count(object_of(json));
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
        if (string_is_interned(json)) {
            /* The cached hash of the bytes, mixed with 'basis' (equal
             * strings hash alike; the values differ from the other
             * impls').  The final constant keeps "" (hash 0) apart from
             * null and integer 0. */
            return hash_finish(hash_add(basis, string_hash_of(json)),
                               0x5354);
        }
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
