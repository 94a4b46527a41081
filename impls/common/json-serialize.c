/* The serializer's tree walk (json_to_ds(), json_to_string()), written
 * against the public accessors of json.h only, so that one copy serves
 * every node layout: an impl folder replaces it only if it serializes
 * differently.  Under LTO the accessors inline into the walk. */
#include "json.h"

#include <string.h>

#include "ds.h"
#include "json-text.h"
#include "shash.h"
#include "util.h"

/* The impl's hooks (see common/json-node.h): only the gate's regressed impl
 * has one here. */
#include "impl.h"
#ifdef JSON_IMPL_HOOKS
#include JSON_IMPL_HOOKS
#else
static inline void
hook_serialized(const struct ds *ds OVS_UNUSED, size_t start OVS_UNUSED)
{
}
#endif

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
    size_t n = json_array_size(json);

    ds_put_char(s->ds, '[');
    s->depth++;
    if (n) {
        indent_line(s);
        for (size_t i = 0; i < n; i++) {
            if (i) {
                ds_put_char(s->ds, ',');
                indent_line(s);
            }
            serialize(json_array_at(json, i), s);
        }
    }
    s->depth--;
    ds_put_char(s->ds, ']');
}

static void
serialize(const struct json *json, struct serializer *s)
{
    enum json_type type = json_get_type(json);
    switch (type) {
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
        serialize_object(json_object(json), s);
        break;
    case JSON_ARRAY:
        serialize_array(json, s);
        break;
    case JSON_INTEGER:
        json_text_put_integer(s->ds, json_integer(json));
        break;
    case JSON_REAL:
        json_text_put_real(s->ds, json_real(json));
        break;
    case JSON_STRING: {
        const char *str = json_string(json);
        json_text_put_string(s->ds, str, strlen(str));
        break;
    }
    case JSON_SERIALIZED_OBJECT:
        /* Pasted verbatim, whatever the flags. */
        ds_put_cstr(s->ds, json_serialized_object(json));
        break;
    case JSON_N_TYPES:
    default:
        ovs_fatal(0, "json_to_ds: bad node type %d", type);
    }
}

void
json_to_ds(const struct json *json, int flags, struct ds *ds)
{
    struct serializer s = { .ds = ds, .depth = 0, .flags = flags };
    size_t start = ds->length;
    /* The text grows by realloc, which keeps the category of the ds's first
     * block: a fresh ds becomes string bytes. */
    XALLOC_TAGGED(XALLOC_STRING, serialize(json, &s));
    hook_serialized(ds, start);
}

char *
json_to_string(const struct json *json, int flags)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    json_to_ds(json, flags, &ds);
    return ds_steal_cstr(&ds);
}
