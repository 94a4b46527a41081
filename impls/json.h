/* ovsdb-jsonbench: the one JSON API that every representation implements.
 *
 * The names and semantics mirror Open vSwitch's include/openvswitch/json.h so
 * that a json.c patch can be ported into a new impl folder with little
 * editing.  The differences from OVS are deliberate:
 *
 *   - 'struct json' is opaque.  Code outside an impl (harness, datasets,
 *     benchmarks) uses the accessors below, never the fields, so one compiled
 *     harness links against every impl.  Release builds use LTO, so the small
 *     accessors are inlined across that boundary as they would be in OVS.
 *   - json_get_type() replaces OVS's direct 'json->type' access.
 *   - json_parse_buffer() reports errors through a separate string instead of
 *     a JSON string node (json_from_string() keeps the OVS convention).
 *   - Serialized-object nodes can also be created from text, with or without
 *     copying it (the seed-3 proposal's "steal the buffer" variant).
 *
 * Semantics every impl must keep (see docs/json-rules.md):
 *   - The parser accepts only an object or an array at top level, nests at
 *     most 1000 deep, keeps integers that fit in int64 as JSON_INTEGER and
 *     turns larger ones into JSON_REAL, rejects \u0000, does not validate
 *     UTF-8, and keeps the last value of a duplicated object key.
 *   - Errors read "line L, column C, byte B: message".
 *   - The serializer writes integers like "%lld", reals like "%.15g", escapes
 *     only '"', '\\' and bytes below 0x20, sorts keys bytewise only with
 *     JSSF_SORT, and produces byte-identical text for the same tree in every
 *     impl.
 */
#ifndef JSONBENCH_JSON_H
#define JSONBENCH_JSON_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ds;
struct shash;

/* Type of a JSON value.  JSON_SERIALIZED_OBJECT is not a wire type: it holds
 * text that the serializer copies verbatim.  Impls without serialized nodes
 * never create it. */
enum json_type {
    JSON_NULL,
    JSON_FALSE,
    JSON_TRUE,
    JSON_OBJECT,
    JSON_ARRAY,
    JSON_INTEGER,
    JSON_REAL,
    JSON_STRING,
    JSON_N_TYPES,
    JSON_SERIALIZED_OBJECT,
};

const char *json_type_to_string(enum json_type);

struct json;

/* What the linked impl is. */
struct json_impl_info {
    const char *name;           /* Folder name under impls/, e.g. "ovs". */
    const char *features;       /* e.g. "refcount,serialized,inline-strings". */
    size_t node_size;           /* sizeof(struct json). */
    size_t string_inline_max;   /* Longest string kept in the node, or 0. */
    size_t array_inline_max;    /* Largest array kept in the node, or 0. */
    bool refcount;              /* json_clone() is count++ rather than a copy. */
    bool serialized;            /* Real JSON_SERIALIZED_OBJECT nodes. */
};
const struct json_impl_info *json_impl_info(void);

/* Constructors.  Every returned node belongs to the caller. */
struct json *json_null_create(void);
struct json *json_boolean_create(bool);
struct json *json_string_create(const char *);
struct json *json_string_create_nocopy(char *);   /* Takes ownership. */
struct json *json_string_create_len(const char *, size_t len);
struct json *json_integer_create(long long int);
struct json *json_real_create(double);

struct json *json_array_create_empty(void);
void json_array_add(struct json *, struct json *element);
/* Replaces element 'index' (which must exist) and destroys the old one. */
void json_array_set(struct json *, size_t index, struct json *element);
/* Removes the last element and returns it (the caller owns it), or NULL if
 * the array is empty. */
struct json *json_array_pop(struct json *);
/* Gives back unused capacity (the parser calls it on every array it
 * completes; impls with inline arrays move small arrays into the node). */
void json_array_trim(struct json *);
struct json *json_array_create(struct json **elements, size_t n); /* Takes
                                                      * ownership of both. */
struct json *json_array_create_1(struct json *);
struct json *json_array_create_2(struct json *, struct json *);
struct json *json_array_create_3(struct json *, struct json *, struct json *);
bool json_array_contains_string(const struct json *, const char *);

struct json *json_object_create(void);
bool json_object_is_empty(const struct json *);
void json_object_put(struct json *, const char *name, struct json *value);
void json_object_put_nocopy(struct json *, char *name, struct json *value);
void json_object_put_string(struct json *, const char *name,
                            const char *value);
void json_object_put_format(struct json *, const char *name,
                            const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* Serialized objects: text pasted verbatim when a larger tree is serialized.
 * In an impl without serialized nodes these return an ordinary tree that
 * serializes to the same text (a clone of 'json', or the parsed text).
 * json_serialized_object_create() serializes with flags 0 (not JSSF_SORT),
 * so that the output is byte-identical across impls.  The _from_text and
 * _nocopy variants accept the text of any JSON value; for identical output
 * in impls without serialized nodes, it should be compact json_to_string()
 * output (unsorted, or of objects whose keys come out sorted anyway).
 * Serialized text is pasted as is, also under JSSF_PRETTY or JSSF_SORT. */
struct json *json_serialized_object_create(const struct json *);
struct json *json_serialized_object_create_from_text(const char *text);
struct json *json_serialized_object_create_nocopy(char *text); /* Takes
                                                                * ownership. */

/* Accessors.  Each asserts the type, as OVS does. */
enum json_type json_get_type(const struct json *);
const char *json_string(const struct json *);
const char *json_serialized_object(const struct json *);
size_t json_array_size(const struct json *);
const struct json *json_array_at(const struct json *, size_t index);
struct shash *json_object(const struct json *);  /* name -> struct json *. */
const struct json *json_object_get(const struct json *, const char *name);
bool json_boolean(const struct json *);
double json_real(const struct json *);           /* Also for integers. */
int64_t json_integer(const struct json *);

/* Copies and lifetime.  json_clone() is count++ in refcounted impls and a deep
 * copy otherwise; json_deep_clone() always copies.  json_destroy(NULL) is a
 * no-op. */
struct json *json_clone(const struct json *);
struct json *json_deep_clone(const struct json *);
struct json *json_nullable_clone(const struct json *);
void json_destroy(struct json *);
size_t json_refcount(const struct json *);       /* 1 in impls without. */

size_t json_hash(const struct json *, size_t basis);
bool json_equal(const struct json *, const struct json *);

/* Parsing.  The parser takes input in chunks: feed it, then finish.
 * json_parser_finish() returns the tree, or (the OVS convention) a
 * JSON_STRING node holding the error message. */
enum {
    JSPF_TRAILER = 1 << 0,      /* Reject non-space input after the value. */
    /* The text is a database file's record (the database read path): the
     * caller keeps nothing of the tree but json_clone()s and frees it whole
     * soon.  A hint: an impl may put such a tree in an arena that goes with
     * its root (impls/ovs-arena); the others ignore it. */
    JSPF_DATABASE = 1 << 1,
    /* Lex every byte of a string through the lexer's state machine, one at
     * a time, as OVS's parser did before 3.0 (2f16123c1), instead of
     * taking its plain bytes in runs.  The same tree either way. */
    JSPF_BYTE_STRINGS = 1 << 2
};
struct json_parser *json_parser_create(int flags);
size_t json_parser_feed(struct json_parser *, const char *, size_t);
bool json_parser_is_done(const struct json_parser *);
struct json *json_parser_finish(struct json_parser *);
void json_parser_abort(struct json_parser *);

struct json *json_from_string(const char *);      /* Error as JSON_STRING. */
struct json *json_from_file(const char *file_name);
struct json *json_from_stream(FILE *);
/* Parses 'n' bytes (a whole document, trailing white space allowed).  On
 * error returns NULL and stores a malloc'd message in '*errorp'. */
struct json *json_parse_buffer(const char *, size_t n, char **errorp);

/* Serializing. */
enum {
    JSSF_PRETTY = 1 << 0,       /* Multiple lines with indentation. */
    JSSF_SORT = 1 << 1          /* Object members in bytewise key order. */
};
char *json_to_string(const struct json *, int flags);
void json_to_ds(const struct json *, int flags, struct ds *);

/* String escaping, shared by every impl. */
bool json_string_unescape(const char *in, size_t in_len, char **outp);
void json_string_escape(const char *in, struct ds *out);

#ifdef __cplusplus
}
#endif

#endif /* JSONBENCH_JSON_H */
