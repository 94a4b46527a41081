/* Scalar nodes (null, booleans, numbers): their constructors and
 * accessors, and the type's name, written against the layout primitives of
 * the impl's json-node.h (node_alloc() and the struct's number fields), so
 * one copy serves every layout that names them alike.  <json-node.h> is
 * found in the impl folder first (include path order), then in common/. */
#include <json-node.h>

#include "util.h"

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

/* Scalars. */

struct json *
json_null_create(void)
{
    return node_alloc(JSON_NULL);
}

struct json *
json_boolean_create(bool b)
{
    return node_alloc(b ? JSON_TRUE : JSON_FALSE);
}

struct json *
json_integer_create(long long int integer)
{
    struct json *json = node_alloc(JSON_INTEGER);
    json->integer = integer;
    return json;
}

struct json *
json_real_create(double real)
{
    struct json *json = node_alloc(JSON_REAL);
    json->real = real;
    return json;
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
