/* Array nodes: constructors, element access, push/pop/trim, written
 * against the array primitives of the impl's json-node.h (array_size(),
 * array_elems(), array_push(), ...), so one copy serves every layout.
 * <json-node.h> is found in the impl folder first (include path order),
 * then in common/. */
#include <json-node.h>

#include <string.h>

#include "util.h"

/* Arrays. */

struct json *
json_array_create_empty(void)
{
    struct json *json = node_alloc(JSON_ARRAY);
    array_set_vector(json, NULL, 0, 0);
    return json;
}

struct json *
json_array_create(struct json **elements, size_t n)
{
    struct json *json = node_alloc(JSON_ARRAY);
    if (array_fits_inline(n)) {
        array_set_inline(json, elements, n);
        xfree(elements);
    } else {
        xalloc_retag(elements, XALLOC_ARRAY);  /* The caller's vector. */
        array_set_vector(json, elements, n, n);
    }
    return json;
}

/* json_array_create_N() build their array directly from the caller's
 * 'elems' (not taken): no temporary vector when it fits in the node. */
static struct json *
array_create_n(struct json *const *elems, size_t n)
{
    if (array_fits_inline(n)) {
        struct json *json = node_alloc(JSON_ARRAY);
        array_set_inline(json, elems, n);
        return json;
    }
    return json_array_create(xmemdup(elems, n * sizeof *elems), n);
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
    array_push(json, element);
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
    /* The element outlives the array: a layout may have to copy it. */
    return n ? node_detach(array_remove_last(json, n)) : NULL;
}

void
json_array_trim(struct json *json)
{
    JSON_ASSERT(json->type == JSON_ARRAY);
    array_trim(json);
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
