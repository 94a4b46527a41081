/* fuzz/schema-harness: the harness's schema parser on one JSON tree. */
#include <stdio.h>
#include <stdlib.h>

#include "schema-callers.h"
#include "schema.h"

void
fuzz_harness_schema(const struct json *json)
{
    struct db_schema *schema;
    char *error = db_schema_from_json(json, &schema);
    if (error) {
        if (!*error) {
            fprintf(stderr, "schema: harness parser gave an empty error\n");
            abort();
        }
        free(error);
    } else {
        db_schema_destroy(schema);
    }
}
