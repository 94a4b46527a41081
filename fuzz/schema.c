/* fuzz/schema: both OVSDB schema parsers on any JSON text.
 *
 * The text is parsed with the linked impl ('ovs'); a tree, whatever its
 * shape, then goes to the harness's db_schema_from_json() (what the load path
 * uses) and to the datasets' schema_from_json() (ovsdb-gen, ovsdb-stats).
 * Each must return a schema or an error; never crash, leak or assert.  The
 * two live in separate files because their headers define types of the same
 * names. */
#include <stdint.h>
#include <stdlib.h>

#include "json.h"
#include "schema-callers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *error = NULL;
    struct json *json = json_parse_buffer((const char *) data, size, &error);
    if (!json) {
        free(error);
        return 0;
    }
    fuzz_harness_schema(json);
    fuzz_datasets_schema(json);
    json_destroy(json);
    return 0;
}
