/* Representation-independent pieces of the JSON text format, shared by every
 * impl: value formatting for the serializer and the number lexer used by the
 * parser.  See docs/json-rules.md for the rules they implement. */
#ifndef JSONBENCH_JSON_TEXT_H
#define JSONBENCH_JSON_TEXT_H 1

#include <stdbool.h>
#include <stddef.h>

struct ds;

/* Appends 'n' bytes of 's' as a quoted, escaped JSON string. */
void json_text_put_string(struct ds *, const char *s, size_t n);
/* Appends an integer like "%lld". */
void json_text_put_integer(struct ds *, long long int);
/* Appends a real like "%.15g". */
void json_text_put_real(struct ds *, double);

/* Result of lexing one number token. */
struct json_number {
    bool is_integer;
    long long int integer;
    double real;
};
/* Lexes the number token 's' (null-terminated).  Returns NULL on success or
 * a static error message. */
const char *json_text_lex_number(const char *s, struct json_number *);

#endif /* JSONBENCH_JSON_TEXT_H */
