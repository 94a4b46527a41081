/* fuzz/profile: the dataset profile parser (datasets/profile.c) on any text.
 *
 * Input: one byte choosing the schema (bit 0: 0 = OVN Northbound, 1 = OVN
 * Southbound; both are embedded at build time from the installed OVN
 * schemas), then the profile text.  A profile that parses is also resolved
 * at a small scale, which sizes tables and children segments.  Either step
 * may fail with an error; none may crash, leak or assert. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-file.h"
#include "json.h"
#include "profile.h"
#include "ovsdb/schema.h"

extern const char fuzz_nb_schema[];
extern const char fuzz_sb_schema[];

static struct db_schema *schemas[2];

static struct db_schema *
load_schema(const char *text)
{
    char *error = NULL;
    struct json *json = json_parse_buffer(text, strlen(text), &error);
    if (!json) {
        fprintf(stderr, "profile: embedded schema: %s\n", error);
        abort();
    }
    struct db_schema *s;
    error = db_schema_from_json(json, &s);
    json_destroy(json);
    if (error) {
        fprintf(stderr, "profile: embedded schema: %s\n", error);
        abort();
    }
    return s;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
    schemas[0] = load_schema(fuzz_nb_schema);
    schemas[1] = load_schema(fuzz_sb_schema);
    return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size) {
        return 0;
    }
    const struct db_schema *schema = schemas[data[0] & 1];
    struct fuzz_file f;
    fuzz_file_open(&f, data + 1, size - 1);

    char *error = NULL;
    struct profile *p = profile_read(f.name, schema, &error);
    if (p) {
        if (!profile_resolve(p, 0.001, 1, &error)) {
            free(error);
        }
        profile_destroy(p);
    } else {
        if (!error || strncmp(error, f.name, strlen(f.name))) {
            fprintf(stderr, "profile: error does not name the file: %s\n",
                    error ? error : "(none)");
            abort();
        }
        free(error);
    }
    fuzz_file_close(&f);
    return 0;
}
