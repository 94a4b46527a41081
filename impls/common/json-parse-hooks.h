/* What the parser's options (json-parser.c) call in the representation's
 * json-tree.c, beyond json.h: the location of an object member's value
 * (JSON_PARSER_MEMBER_SLOT), and strings interned a few tokens after they
 * are parsed, so that the lookup finds its table slot and node already in
 * the cache, with a reused stand-in node in the tree meanwhile
 * (JSON_PARSER_PENDING_STRINGS, interning layouts only). */
#ifndef JSONBENCH_JSON_PARSE_HOOKS_H
#define JSONBENCH_JSON_PARSE_HOOKS_H 1

#include <stdbool.h>
#include <stddef.h>

struct json;

/* Where object 'json' keeps the value of the member named by the 'len'
 * bytes of 'name': an existing member's ('*added' false), or a new
 * member's, NULL until the caller stores the value ('*added' true). */
void **json_object_slot(struct json *, const char *name, size_t len,
                        bool *added);

/* Makes '*standin' (NULL at first; room for '*cap' bytes) a string node
 * holding the 'len' bytes of 's', owned by the parser. */
void json_string_standin_set(struct json **standin, size_t *cap,
                             const char *s, size_t len);
/* Bring into the cache the table slot a lookup of the stand-in starts at,
 * and (its slot cached by now) the node it would compare first. */
void json_string_prefetch_slot(const struct json *standin);
void json_string_prefetch_match(const struct json *standin);
/* The interned node equal to the stand-in, with a new reference. */
struct json *json_string_intern_pending(const struct json *standin);

#endif /* JSONBENCH_JSON_PARSE_HOOKS_H */
