/* fuzz/schema: the OVSDB schema parser (ovsdb/schema.c, shared by the
 * generator and the harness) on any JSON text.  Every outcome is a schema
 * or a non-empty error message; nothing may crash or leak. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "json.h"
#include "ovsdb/schema.h"

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
    struct db_schema *schema;
    error = db_schema_from_json(json, &schema);
    if (error) {
        if (!*error) {
            fprintf(stderr, "schema: parser gave an empty error\n");
            abort();
        }
        free(error);
    } else {
        db_schema_destroy(schema);
    }
    json_destroy(json);
    return 0;
}
