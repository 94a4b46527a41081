/* fuzz/json-ops: one JSON impl's API as a table of function pointers.
 *
 * Every impl defines the same symbol names, so two cannot be linked into one
 * program as they are.  The fuzz build compiles each impl again together with
 * json-ops.c and renames every global symbol of that library with a prefix
 * ("fz_<impl>_", see prefix-syms.sh); the table is then reachable as
 * fz_<impl>_fuzz_json_ops, and the differential target calls all impls side
 * by side in one process. */
#ifndef FUZZ_JSON_OPS_H
#define FUZZ_JSON_OPS_H 1

#include <stdbool.h>
#include <stddef.h>

struct json;
struct json_parser;
struct shash;

struct fuzz_json_ops {
    const char *name;
    struct json_parser *(*parser_create)(int flags);
    size_t (*parser_feed)(struct json_parser *, const char *, size_t);
    struct json *(*parser_finish)(struct json_parser *);
    struct json *(*parse_buffer)(const char *, size_t, char **errorp);
    int (*get_type)(const struct json *);
    const char *(*string)(const struct json *);
    size_t (*array_size)(const struct json *);
    const struct json *(*array_at)(const struct json *, size_t);
    struct shash *(*object)(const struct json *);
    const struct json *(*object_get)(const struct json *, const char *);
    double (*real)(const struct json *);
    long long int (*integer)(const struct json *);
    char *(*to_string)(const struct json *, int flags);
    bool (*equal)(const struct json *, const struct json *);
    size_t (*hash)(const struct json *, size_t basis);
    struct json *(*clone)(const struct json *);
    struct json *(*deep_clone)(const struct json *);
    void (*destroy)(struct json *);
};

#endif
