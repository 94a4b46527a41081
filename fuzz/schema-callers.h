/* fuzz/schema-callers: one call into each schema parser (see schema.c). */
#ifndef FUZZ_SCHEMA_CALLERS_H
#define FUZZ_SCHEMA_CALLERS_H 1

struct json;

void fuzz_harness_schema(const struct json *);
void fuzz_datasets_schema(const struct json *);

#endif
