/* fuzz/json-differential: every impl's chunked JSON parser on the same bytes.
 *
 * Input: one control byte, then the chunk lengths, then the JSON text.
 *   control bits 0-2  number of chunk lengths that follow (0-7); the text is
 *                     fed in chunks of those lengths (0-255 bytes each, a 0
 *                     is an empty feed) and then the rest in one piece, so
 *                     the split points are fuzzed too
 *   control bit 4     JSPF_TRAILER
 *   control bit 5     every impl but the first parses with JSPF_BYTE_STRINGS,
 *                     so the two ways of lexing strings are compared too
 *
 * Each impl must give the same outcome: either the same error message, or a
 * tree whose compact, sorted and pretty serializations are byte-identical
 * across impls and re-parse (in the same impl) to an equal tree, and whose
 * deep copy is equal with an equal hash.  Anything else aborts with both
 * outcomes printed.
 *
 * "Equal" after a round trip is json_equal() with the same text again, except
 * for reals: the serializer writes them with "%.15g" (docs/json-rules.md), so
 * 0.1234567890123456789 comes back as a nearby double, 1e-999 (a real 0) as
 * the integer 0 and -1e-999 as "-0", which reads as the integer 0.  A tree
 * with reals must come back with, in place of each real, the number that its
 * "%.15g" text denotes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "json-impls.h"
#include "json-ops.h"
#include "shash.h"

#define DECLARE_OPS(OPS) extern const struct fuzz_json_ops OPS;
FUZZ_JSON_IMPLS(DECLARE_OPS)
#define OPS_PTR(OPS) &OPS,
static const struct fuzz_json_ops *const impls[] = {
    FUZZ_JSON_IMPLS(OPS_PTR)
};
#define N_IMPLS (sizeof impls / sizeof *impls)

#define MAX_CHUNKS 8

struct input {
    int flags;
    size_t chunks[MAX_CHUNKS];  /* Lengths; the last is the rest. */
    size_t n_chunks;
    const char *text;
    size_t len;
};

static void
fail(const char *impl, const char *what, const char *a, const char *b)
{
    fprintf(stderr, "json-differential: %s: %s\n", impl, what);
    if (a) {
        fprintf(stderr, "  first:  %s\n", a);
    }
    if (b) {
        fprintf(stderr, "  second: %s\n", b);
    }
    abort();
}

static char *
concat(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    char *s = malloc(la + lb + 1);
    if (!s) {
        abort();
    }
    memcpy(s, a, la);
    memcpy(s + la, b, lb + 1);
    return s;
}

/* Parses 'in' with 'ops' through the chunked API. */
static struct json *
parse_chunked(const struct fuzz_json_ops *ops, const struct input *in)
{
    struct json_parser *p = ops->parser_create(in->flags);
    const char *text = in->text;
    for (size_t i = 0; i < in->n_chunks; i++) {
        size_t n = in->chunks[i];
        if (ops->parser_feed(p, text, n) < n) {
            break;              /* Done (or failed): the rest is not read. */
        }
        text += n;
    }
    return ops->parser_finish(p);
}

/* Whether 'b', parsed from the serialization of 'a', is what that text says:
 * equal, except that a real in 'a' may come back as any number equal to its
 * "%.15g" text.  Sets '*has_real' if 'a' holds a real. */
static bool
round_trip_equal(const struct fuzz_json_ops *ops, const struct json *a,
                 const struct json *b, bool *has_real)
{
    int ta = ops->get_type(a), tb = ops->get_type(b);

    if (ta == JSON_REAL) {
        char text[64];
        *has_real = true;
        snprintf(text, sizeof text, "%.15g", ops->real(a));
        return (tb == JSON_REAL || tb == JSON_INTEGER)
               && strtod(text, NULL) == ops->real(b);
    }
    if (ta != tb) {
        return false;
    }
    switch (ta) {
    case JSON_INTEGER:
        return ops->integer(a) == ops->integer(b);
    case JSON_STRING:
        return !strcmp(ops->string(a), ops->string(b));
    case JSON_ARRAY: {
        size_t n = ops->array_size(a);
        if (n != ops->array_size(b)) {
            return false;
        }
        for (size_t i = 0; i < n; i++) {
            if (!round_trip_equal(ops, ops->array_at(a, i),
                                  ops->array_at(b, i), has_real)) {
                return false;
            }
        }
        return true;
    }
    case JSON_OBJECT: {
        const struct shash *sa = ops->object(a);
        if (shash_count(sa) != shash_count(ops->object(b))) {
            return false;
        }
        for (const struct shash_node *node = shash_first(sa); node;
             node = shash_next(sa, node)) {
            const struct json *vb = ops->object_get(b, node->name);
            if (!vb || !round_trip_equal(ops, node->data, vb, has_real)) {
                return false;
            }
        }
        return true;
    }
    default:
        return true;            /* null, false, true. */
    }
}

/* Serialization of 'json' with 'flags', which must re-parse to an equal tree
 * (see round_trip_equal()) that, without reals, serializes to the same
 * text. */
static char *
checked_text(const struct fuzz_json_ops *ops, const struct json *json,
             int flags)
{
    char *text = ops->to_string(json, flags);
    char *error = NULL;
    struct json *again = ops->parse_buffer(text, strlen(text), &error);
    if (!again) {
        fail(ops->name, "serialized text does not parse", text, error);
    }
    bool has_real = false;
    if (!round_trip_equal(ops, json, again, &has_real)
        || (!has_real && !ops->equal(json, again))) {
        fail(ops->name, "serialized text parses to a different tree", text,
             NULL);
    }
    if (!has_real) {
        char *text2 = ops->to_string(again, flags);
        if (strcmp(text, text2)) {
            fail(ops->name, "re-parsed tree serializes differently", text,
                 text2);
        }
        free(text2);
    }
    ops->destroy(again);
    return text;
}

/* "error: MSG" or "ok: COMPACT\nSORTED\nPRETTY". */
static char *
outcome(const struct fuzz_json_ops *ops, const struct input *in)
{
    struct json *json = parse_chunked(ops, in);
    char *result;

    if (ops->get_type(json) == JSON_STRING) {
        result = concat("error: ", ops->string(json));
    } else {
        char *compact = checked_text(ops, json, 0);
        char *sorted = checked_text(ops, json, JSSF_SORT);
        char *pretty = checked_text(ops, json, JSSF_PRETTY | JSSF_SORT);

        struct json *copy = ops->deep_clone(json);
        struct json *ref = ops->clone(json);
        if (!ops->equal(json, copy) || !ops->equal(ref, copy)
            || ops->hash(json, 0) != ops->hash(copy, 0)) {
            fail(ops->name, "copy differs from the original", compact, NULL);
        }
        ops->destroy(copy);
        ops->destroy(ref);

        char *a = concat("ok: ", compact);
        char *b = concat(a, "\n");
        char *c = concat(b, sorted);
        char *d = concat(c, "\n");
        result = concat(d, pretty);
        free(a);
        free(b);
        free(c);
        free(d);
        free(compact);
        free(sorted);
        free(pretty);
    }
    ops->destroy(json);
    return result;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct input in;

    if (!size) {
        return 0;
    }
    size_t n_lengths = data[0] & 7;
    in.flags = data[0] & 0x10 ? JSPF_TRAILER : 0;
    struct input others_in;
    int others_flags = in.flags | (data[0] & 0x20 ? JSPF_BYTE_STRINGS : 0);
    data++;
    size--;
    if (size < n_lengths) {
        return 0;
    }
    in.text = (const char *) data + n_lengths;
    in.len = size - n_lengths;

    size_t left = in.len;
    in.n_chunks = 0;
    for (size_t i = 0; i < n_lengths; i++) {
        size_t n = data[i] < left ? data[i] : left;
        in.chunks[in.n_chunks++] = n;
        left -= n;
    }
    in.chunks[in.n_chunks++] = left;

    others_in = in;
    others_in.flags = others_flags;
    char *first = outcome(impls[0], &in);
    for (size_t i = 1; i < N_IMPLS; i++) {
        char *other = outcome(impls[i], &others_in);
        if (strcmp(first, other)) {
            fprintf(stderr, "json-differential: %s and %s disagree\n",
                    impls[0]->name, impls[i]->name);
            fail(impls[i]->name, "different outcome", first, other);
        }
        free(other);
    }
    free(first);
    return 0;
}
