/* fuzz/schema-datasets: the datasets' schema parser on one JSON tree. */
#include <stdio.h>
#include <stdlib.h>

#include "schema-callers.h"
#include "schema.h"

void
fuzz_datasets_schema(const struct json *json)
{
    char *error = NULL;
    struct schema *schema = schema_from_json(json, &error);
    if (!schema) {
        if (!error || !*error) {
            fprintf(stderr, "schema: datasets parser gave no error\n");
            abort();
        }
        free(error);
    } else {
        schema_destroy(schema);
    }
}
