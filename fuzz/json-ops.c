/* fuzz/json-ops: fills the function table of the impl this file is compiled
 * with (see json-ops.h). */
#include "json-ops.h"

#include "impl.h"
#include "json.h"

static int
get_type(const struct json *json)
{
    return json_get_type(json);
}

static long long int
integer(const struct json *json)
{
    return json_integer(json);
}

const struct fuzz_json_ops fuzz_json_ops = {
    .name = JSON_IMPL_NAME,
    .parser_create = json_parser_create,
    .parser_feed = json_parser_feed,
    .parser_finish = json_parser_finish,
    .parse_buffer = json_parse_buffer,
    .get_type = get_type,
    .string = json_string,
    .array_size = json_array_size,
    .array_at = json_array_at,
    .object = json_object,
    .object_get = json_object_get,
    .real = json_real,
    .integer = integer,
    .to_string = json_to_string,
    .equal = json_equal,
    .hash = json_hash,
    .clone = json_clone,
    .deep_clone = json_deep_clone,
    .destroy = json_destroy,
};
