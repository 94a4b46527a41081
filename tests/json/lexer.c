/* The lexer's edges, value by value, run against each impl.
 *
 * usage: json-lexer-<impl> [GROUP]
 *
 * Groups: control (every byte U+0000..U+001F unescaped in a string and in
 * a member name: OVS's "U+00XX must be escaped in quoted string" at the
 * byte's position), plain (every other byte is taken as is), escapes (every
 * byte after a backslash), unicode (\u escapes and surrogate pairs),
 * numbers (integers of 1 to 21 digits against an oracle, the int64 limits,
 * every malformed form with its message and position).
 *
 * Each document is parsed whole, one byte at a time and split in two at
 * every position, so a lexer's fast path for tokens lying whole in a chunk
 * (impls/compact) and its byte-at-a-time path are both held to the same
 * expected value.  Strings are padded by 0 to 17 bytes so that a word-wise
 * scan meets the byte of interest in every lane of a word.  The expected
 * messages are OVS's (lib/json.c), including where it reports them: line,
 * column and byte of the offending byte, or of the byte that ended the
 * token for errors found when the token is complete. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ds.h"
#include "json.h"
#include "shash.h"
#include "test-util.h"
#include "util.h"

enum { MAX_REPORTS = 30 };
static int reports;

/* A document under test. */
struct doc {
    char *text;
    size_t len;
};

static void
doc_init(struct doc *d, struct ds *ds)
{
    d->len = ds->length;
    d->text = ds_steal_cstr(ds);
}

/* 'd' as C-ish text for messages. */
static char *
printable(const struct doc *d)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    for (size_t i = 0; i < d->len; i++) {
        unsigned char c = d->text[i];
        if (c >= 0x20 && c < 0x7f && c != '\\') {
            ds_put_char(&ds, c);
        } else {
            ds_put_format(&ds, "\\x%02x", c);
        }
    }
    return ds_steal_cstr(&ds);
}

static void
fail(const struct doc *d, const char *mode, const char *what,
     const char *got, const char *expected)
{
    test_failures++;
    if (reports++ < MAX_REPORTS) {
        char *p = printable(d);
        fprintf(stderr, "%s: %s (parsed %s): %s\n  got:      %s\n"
                "  expected: %s\n", test_group_name, p, mode, what,
                got, expected);
        free(p);
    }
}

/* Position prefix of OVS's messages for the byte at 'offset' of 'd'. */
static char *
position(const struct doc *d, size_t offset)
{
    int line = 0, column = 0;
    for (size_t i = 0; i < offset; i++) {
        if (d->text[i] == '\n') {
            line++;
            column = 0;
        } else {
            column++;
        }
    }
    return xasprintf("line %d, column %d, byte %zu: ", line, column, offset);
}

/* Parsing modes: 0 whole, 1 one byte at a time, 2 + k split before
 * byte k + 1. */
static struct json *
parse_mode(const struct doc *d, size_t mode)
{
    struct json_parser *p = json_parser_create(JSPF_TRAILER);
    size_t pos = 0;
    while (pos < d->len) {
        size_t n = (mode == 0 ? d->len
                    : mode == 1 ? 1
                    : pos == 0 ? mode - 1 : d->len - pos);
        if (n > d->len - pos) {
            n = d->len - pos;
        }
        size_t used = json_parser_feed(p, d->text + pos, n);
        if (used < n) {
            CHECK(json_parser_is_done(p));
            break;
        }
        pos += n;
    }
    return json_parser_finish(p);
}

static const char *
mode_name(size_t mode, char buf[32])
{
    if (mode == 0) {
        return "whole";
    } else if (mode == 1) {
        return "byte by byte";
    }
    snprintf(buf, 32, "split at %zu", mode - 1);
    return buf;
}

/* What a successful parse must hold; returns NULL if it does, else what is
 * wrong (static or allocated in 'buf'). */
typedef const char *check_fn(const struct json *, const void *aux,
                             char buf[256]);

/* Parses 'd' in every mode: each must fail with exactly 'error' (if
 * nonnull) or succeed and pass 'check'. */
static void
check_doc(const struct doc *d, const char *error, check_fn *check,
          const void *aux)
{
    for (size_t mode = 0; mode < d->len + 1; mode++) {
        char mbuf[32], cbuf[256];
        const char *m = mode_name(mode, mbuf);
        struct json *json = parse_mode(d, mode);
        bool failed = json_get_type(json) == JSON_STRING;
        if (error) {
            if (!failed) {
                char *s = json_to_string(json, 0);
                fail(d, m, "accepted", s, error);
                free(s);
            } else if (strcmp(json_string(json), error)) {
                fail(d, m, "wrong error", json_string(json), error);
            }
        } else if (failed) {
            fail(d, m, "rejected", json_string(json), "a value");
        } else {
            const char *what = check(json, aux, cbuf);
            if (what) {
                char *s = json_to_string(json, 0);
                fail(d, m, what, s, "(see above)");
                free(s);
            }
        }
        json_destroy(json);
    }
}

/* Strings. */

/* Where a string goes: an array element or a member name. */
enum place { IN_VALUE, IN_NAME };

struct string_expect {
    enum place place;
    const char *bytes;          /* Expected unescaped content. */
    size_t len;
};

static const char *
check_string(const struct json *json, const void *aux_, char buf[256])
{
    const struct string_expect *e = aux_;
    if (e->place == IN_VALUE) {
        if (json_get_type(json) != JSON_ARRAY || json_array_size(json) != 1) {
            return "not an array of one";
        }
        const struct json *s = json_array_at(json, 0);
        if (json_get_type(s) != JSON_STRING) {
            return "element is not a string";
        }
        if (strlen(json_string(s)) != e->len
            || memcmp(json_string(s), e->bytes, e->len)) {
            snprintf(buf, 256, "string content differs (%zu bytes, "
                     "expected %zu)", strlen(json_string(s)), e->len);
            return buf;
        }
    } else {
        if (json_get_type(json) != JSON_OBJECT) {
            return "not an object";
        }
        struct shash *sh = json_object(json);
        if (shash_count(sh) != 1) {
            return "not one member";
        }
        char *name = xmemdup0(e->bytes, e->len);
        const struct json *v = json_object_get(json, name);
        free(name);
        if (!v) {
            return "member name differs";
        }
        if (json_get_type(v) != JSON_INTEGER || json_integer(v) != 1) {
            return "member value differs";
        }
    }
    return NULL;
}

/* Builds the document holding the string whose raw (escaped) text is
 * 'raw' in 'place', after 'lead' (white space before the string).
 * Returns the offset of the string's first raw byte. */
static size_t
string_doc(struct doc *d, enum place place, const char *lead,
           const char *raw, size_t raw_len)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    ds_put_cstr(&ds, place == IN_VALUE ? "[" : "{");
    ds_put_cstr(&ds, lead);
    ds_put_char(&ds, '"');
    size_t start = ds.length;
    ds_put_buffer(&ds, raw, raw_len);
    ds_put_cstr(&ds, place == IN_VALUE ? "\"]" : "\":1}");
    doc_init(d, &ds);
    return start;
}

static const char *const leads[] = { "", "\n ", " \n\n\t" };

/* Escaped prefixes before the byte of interest, and what they decode to:
 * none (the fast path's case), and escapes (the slow path's). */
static const struct {
    const char *raw, *cooked;
} prefixes[] = {
    { "", "" },
    { "\\n", "\n" },
    { "\\u00e9", "\xc3\xa9" },
};

static void
test_control(void)
{
    for (int c = 0; c < 0x20; c++) {
        for (int place = IN_VALUE; place <= IN_NAME; place++) {
            for (size_t l = 0; l < ARRAY_SIZE(leads); l++) {
                for (size_t x = 0; x < ARRAY_SIZE(prefixes); x++) {
                    for (int pad = 0; pad < 18; pad++) {
                        struct ds raw = DS_EMPTY_INITIALIZER;
                        ds_put_cstr(&raw, prefixes[x].raw);
                        for (int k = 0; k < pad; k++) {
                            ds_put_char(&raw, 'a' + k % 26);
                        }
                        size_t at = raw.length;
                        ds_put_char(&raw, c);
                        ds_put_cstr(&raw, "tail");

                        struct doc d;
                        size_t start = string_doc(&d, place, leads[l],
                                                  raw.string, raw.length);
                        char *pos = position(&d, start + at);
                        char *error = xasprintf(
                            "%sU+%04X must be escaped in quoted string",
                            pos, c);
                        check_doc(&d, error, NULL, NULL);
                        free(error);
                        free(pos);
                        free(d.text);
                        ds_destroy(&raw);
                    }
                }
            }
        }
    }
}

/* Every byte from 0x20 up but '"' and '\\' is taken as is. */
static void
test_plain(void)
{
    for (int c = 0x20; c < 0x100; c++) {
        if (c == '"' || c == '\\') {
            continue;
        }
        for (int place = IN_VALUE; place <= IN_NAME; place++) {
            for (size_t x = 0; x < ARRAY_SIZE(prefixes); x++) {
                for (int pad = 0; pad < 10; pad++) {
                    struct ds raw = DS_EMPTY_INITIALIZER;
                    struct ds cooked = DS_EMPTY_INITIALIZER;
                    ds_put_cstr(&raw, prefixes[x].raw);
                    ds_put_cstr(&cooked, prefixes[x].cooked);
                    for (int k = 0; k < pad; k++) {
                        ds_put_char(&raw, 'A' + k % 26);
                        ds_put_char(&cooked, 'A' + k % 26);
                    }
                    ds_put_char(&raw, c);
                    ds_put_char(&cooked, c);
                    ds_put_cstr(&raw, "end");
                    ds_put_cstr(&cooked, "end");

                    struct doc d;
                    string_doc(&d, place, "", raw.string, raw.length);
                    struct string_expect e = { place, cooked.string,
                                               cooked.length };
                    check_doc(&d, NULL, check_string, &e);
                    free(d.text);
                    ds_destroy(&raw);
                    ds_destroy(&cooked);
                }
            }
        }
    }
}

/* What "\X" means, for every byte X but 'u'. */
static void
test_escapes(void)
{
    for (int c = 0; c < 0x100; c++) {
        if (c == 'u') {
            continue;
        }
        const char *simple = strchr("\"\\/bfnrt", c);
        char cooked_c = 0;
        if (c && simple) {
            static const char out[] = "\"\\/\b\f\n\r\t";
            cooked_c = out[simple - "\"\\/bfnrt"];
        }
        for (int place = IN_VALUE; place <= IN_NAME; place++) {
            for (size_t l = 0; l < ARRAY_SIZE(leads); l++) {
                for (int pad = 0; pad < 10; pad++) {
                    struct ds raw = DS_EMPTY_INITIALIZER;
                    struct ds cooked = DS_EMPTY_INITIALIZER;
                    for (int k = 0; k < pad; k++) {
                        ds_put_char(&raw, 'a' + k);
                        ds_put_char(&cooked, 'a' + k);
                    }
                    ds_put_char(&raw, '\\');
                    ds_put_char(&raw, c);
                    ds_put_cstr(&raw, "zz");
                    ds_put_char(&cooked, cooked_c);
                    ds_put_cstr(&cooked, "zz");

                    struct doc d;
                    size_t start = string_doc(&d, place, leads[l],
                                              raw.string, raw.length);
                    if (cooked_c) {
                        struct string_expect e = { place, cooked.string,
                                                   cooked.length };
                        check_doc(&d, NULL, check_string, &e);
                    } else {
                        /* Found when the string ends: at its closing
                         * quote.  OVS unescapes up to the first NUL, so
                         * "\<NUL>" is a string ending in a backslash. */
                        char *pos = position(&d, start + raw.length);
                        char *error = (c == 0
                            ? xasprintf("%squoted string may not end with "
                                        "backslash", pos)
                            : xasprintf("%sbad escape \\%c", pos, c));
                        check_doc(&d, error, NULL, NULL);
                        free(error);
                        free(pos);
                    }
                    free(d.text);
                    ds_destroy(&raw);
                    ds_destroy(&cooked);
                }
            }
        }
    }
}

/* UTF-8 of code point 'c' (an independent encoder for the expectations;
 * a lone surrogate encodes like any other code point, as in OVS). */
static size_t
utf8(unsigned int c, char *out)
{
    if (c < 0x80) {
        out[0] = c;
        return 1;
    } else if (c < 0x800) {
        out[0] = 0xc0 + c / 64;
        out[1] = 0x80 + c % 64;
        return 2;
    } else if (c < 0x10000) {
        out[0] = 0xe0 + c / 4096;
        out[1] = 0x80 + c / 64 % 64;
        out[2] = 0x80 + c % 64;
        return 3;
    }
    out[0] = 0xf0 + c / 262144;
    out[1] = 0x80 + c / 4096 % 64;
    out[2] = 0x80 + c / 64 % 64;
    out[3] = 0x80 + c % 64;
    return 4;
}

/* Runs the raw string 'raw' (padded, in both places) expecting either
 * 'cooked' of 'cooked_len' bytes or, if 'error' is nonnull, that message
 * at the closing quote. */
static void
check_raw_string(const char *raw, const char *cooked, size_t cooked_len,
                 const char *error)
{
    for (int place = IN_VALUE; place <= IN_NAME; place++) {
        for (int pad = 0; pad < 9; pad++) {
            struct ds r = DS_EMPTY_INITIALIZER;
            struct ds c = DS_EMPTY_INITIALIZER;
            for (int k = 0; k < pad; k++) {
                ds_put_char(&r, 'q');
                ds_put_char(&c, 'q');
            }
            ds_put_cstr(&r, raw);
            if (cooked) {
                ds_put_buffer(&c, cooked, cooked_len);
            }
            struct doc d;
            size_t start = string_doc(&d, place, "", r.string, r.length);
            if (error) {
                char *pos = position(&d, start + r.length);
                char *msg = xasprintf("%s%s", pos, error);
                check_doc(&d, msg, NULL, NULL);
                free(msg);
                free(pos);
            } else {
                struct string_expect e = { place, c.string, c.length };
                check_doc(&d, NULL, check_string, &e);
            }
            free(d.text);
            ds_destroy(&r);
            ds_destroy(&c);
        }
    }
}

static void
test_unicode(void)
{
    /* Single escapes: the edges of each UTF-8 length and of the
     * surrogate ranges (a lone trailing surrogate is kept). */
    static const unsigned int singles[] = {
        0x1, 0x1f, 0x20, 0x22, 0x5c, 0x7f, 0x80, 0x7ff, 0x800, 0xfff,
        0x1000, 0xd7ff, 0xdc00, 0xdfff, 0xe000, 0xfffe, 0xffff,
    };
    for (size_t i = 0; i < ARRAY_SIZE(singles); i++) {
        for (int upper = 0; upper < 2; upper++) {
            char raw[16], out[4];
            snprintf(raw, sizeof raw, upper ? "\\u%04X" : "\\u%04x",
                     singles[i]);
            size_t n = utf8(singles[i], out);
            check_raw_string(raw, out, n, NULL);
        }
    }
    /* Every byte value as \u00XX (but 0). */
    for (unsigned int v = 1; v < 0x100; v++) {
        char raw[16], out[4];
        snprintf(raw, sizeof raw, "\\u00%02x", v);
        size_t n = utf8(v, out);
        check_raw_string(raw, out, n, NULL);
    }

    /* Pairs: leading 0xd800..0xdbff, trailing 0xdc00..0xdfff. */
    static const unsigned int leads_[] = { 0xd800, 0xd801, 0xdbfe, 0xdbff };
    static const unsigned int trails[] = { 0xdc00, 0xdc01, 0xdffe, 0xdfff };
    for (size_t i = 0; i < ARRAY_SIZE(leads_); i++) {
        for (size_t j = 0; j < ARRAY_SIZE(trails); j++) {
            char raw[32], out[4];
            snprintf(raw, sizeof raw, "\\u%04x\\u%04X", leads_[i], trails[j]);
            unsigned int cp = 0x10000 + ((leads_[i] - 0xd800) << 10)
                              + (trails[j] - 0xdc00);
            size_t n = utf8(cp, out);
            check_raw_string(raw, out, n, NULL);
        }
        /* A second half that is not a trailing surrogate. */
        static const unsigned int not_trails[] = {
            0x0041, 0xd7ff, 0xd800, 0xdbff, 0xe000, 0xffff,
        };
        for (size_t j = 0; j < ARRAY_SIZE(not_trails); j++) {
            char raw[32];
            snprintf(raw, sizeof raw, "\\u%04x\\u%04x", leads_[i],
                     not_trails[j]);
            check_raw_string(raw, NULL, 0, "second half of escaped "
                             "surrogate pair is not trailing surrogate");
        }
        /* No second \u escape. */
        static const char *const tails[] = { "", "x", "\\n", "\\", "u",
                                             "\\x", "\\U0041" };
        for (size_t j = 0; j < ARRAY_SIZE(tails); j++) {
            char raw[32];
            snprintf(raw, sizeof raw, "\\u%04x%s", leads_[i], tails[j]);
            if (!strcmp(tails[j], "\\")) {
                /* The backslash escapes the closing quote: the string
                 * goes on. */
                continue;
            }
            check_raw_string(raw, NULL, 0, "malformed escaped surrogate "
                             "pair");
        }
        /* A second half that is cut or not hex, or zero. */
        char raw[32];
        snprintf(raw, sizeof raw, "\\u%04x\\udc0", leads_[i]);
        check_raw_string(raw, NULL, 0, "quoted string ends within \\u "
                         "escape");
        snprintf(raw, sizeof raw, "\\u%04x\\udcg0", leads_[i]);
        check_raw_string(raw, NULL, 0, "malformed \\u escape");
        snprintf(raw, sizeof raw, "\\u%04x\\u0000", leads_[i]);
        check_raw_string(raw, NULL, 0, "null bytes not supported in "
                         "quoted strings");
    }

    /* Cut escapes, non-hex digits in each position, and zero. */
    static const char *const cut[] = { "\\u", "\\u1", "\\u12", "\\u123" };
    for (size_t i = 0; i < ARRAY_SIZE(cut); i++) {
        check_raw_string(cut[i], NULL, 0,
                         "quoted string ends within \\u escape");
    }
    static const char bad_hexits[] = "gGzZ x-.:/@`";
    for (int k = 0; k < 4; k++) {
        for (const char *b = bad_hexits; *b; b++) {
            char raw[16] = "\\u0041";
            raw[2 + k] = *b;
            check_raw_string(raw, NULL, 0, "malformed \\u escape");
        }
    }
    check_raw_string("\\u0000", NULL, 0,
                     "null bytes not supported in quoted strings");
    check_raw_string("ab\\u0000cd", NULL, 0,
                     "null bytes not supported in quoted strings");
}

/* Numbers. */

struct number_expect {
    bool is_integer;
    long long int integer;
    double real;
};

static const char *
check_number(const struct json *json, const void *aux_, char buf[256])
{
    const struct number_expect *e = aux_;
    if (json_get_type(json) != JSON_ARRAY || json_array_size(json) != 2) {
        return "not an array of two";
    }
    const struct json *n = json_array_at(json, 0);
    const struct json *tail = json_array_at(json, 1);
    if (json_get_type(tail) != JSON_INTEGER || json_integer(tail) != 7) {
        return "the element after the number differs";
    }
    if (e->is_integer) {
        if (json_get_type(n) != JSON_INTEGER) {
            return "not an integer";
        }
        if (json_integer(n) != e->integer) {
            snprintf(buf, 256, "integer %"PRId64", expected %lld",
                     json_integer(n), e->integer);
            return buf;
        }
    } else {
        if (json_get_type(n) != JSON_REAL) {
            return "not a real";
        }
        if (json_real(n) != e->real) {
            snprintf(buf, 256, "real %.17g, expected %.17g",
                     json_real(n), e->real);
            return buf;
        }
    }
    return NULL;
}

/* The oracle for a decimal integer text: int64 if it fits, else the
 * nearest double. */
static struct number_expect
integer_oracle(const char *text)
{
    struct number_expect e = { .is_integer = true };
    errno = 0;
    char *end;
    e.integer = strtoll(text, &end, 10);
    if (errno == ERANGE) {
        e.is_integer = false;
        e.real = strtod(text, NULL);
    }
    return e;
}

/* Separators after a number: each ends it for both paths. */
static const char *const number_ends[] = { ",7]", " ,7]", "\n,7]", "\t, 7]",
                                           "\r,7 ]" };

static void
check_number_text(const char *text, const struct number_expect *e,
                  const char *error)
{
    for (size_t s = 0; s < ARRAY_SIZE(number_ends); s++) {
        for (int pad = 0; pad < 3; pad++) {
            struct ds ds = DS_EMPTY_INITIALIZER;
            ds_put_char(&ds, '[');
            for (int k = 0; k < pad; k++) {
                ds_put_char(&ds, ' ');
            }
            ds_put_cstr(&ds, text);
            size_t end = ds.length;
            ds_put_cstr(&ds, number_ends[s]);
            struct doc d;
            doc_init(&d, &ds);
            if (error) {
                char *pos = position(&d, end);
                char *msg = xasprintf("%s%s", pos, error);
                check_doc(&d, msg, NULL, NULL);
                free(msg);
                free(pos);
            } else {
                check_doc(&d, NULL, check_number, e);
            }
            free(d.text);
        }
    }
}

static void
test_numbers(void)
{
    /* Integers of 1..21 digits in several patterns, both signs. */
    uint64_t lcg = 12345;
    for (int digits = 1; digits <= 21; digits++) {
        for (int pattern = 0; pattern < 6; pattern++) {
            char text[32];
            char *p = text;
            for (int k = 0; k < digits; k++) {
                int dgt;
                switch (pattern) {
                case 0: dgt = 9; break;
                case 1: dgt = k ? 0 : 1; break;
                case 2: dgt = "9223372036854775807999"[k] - '0'; break;
                case 3: dgt = "9223372036854775808000"[k] - '0'; break;
                default:
                    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
                    dgt = (lcg >> 33) % 10;
                    if (!k && !dgt) {
                        dgt = 5;
                    }
                    break;
                }
                *p++ = '0' + dgt;
            }
            *p = '\0';
            for (int neg = 0; neg < 2; neg++) {
                char signed_text[40];
                snprintf(signed_text, sizeof signed_text, "%s%s",
                         neg ? "-" : "", text);
                struct number_expect e = integer_oracle(signed_text);
                check_number_text(signed_text, &e, NULL);
            }
        }
    }

    /* The limits and other exact forms. */
    static const struct {
        const char *text;
        bool is_integer;
        long long int integer;
        double real;
    } exact[] = {
        { "0", true, 0, 0 },
        { "-0", true, 0, 0 },
        { "0.0", true, 0, 0 },
        { "-0.0e5", true, 0, 0 },
        { "9223372036854775807", true, INT64_MAX, 0 },
        { "-9223372036854775808", true, INT64_MIN, 0 },
        { "9223372036854775808", false, 0, 9223372036854775808.0 },
        { "-9223372036854775809", false, 0, -9223372036854775809.0 },
        { "922337203685477580.7e1", true, INT64_MAX, 0 },
        { "1e18", true, 1000000000000000000LL, 0 },
        { "1e19", false, 0, 1e19 },
        { "12e-1", false, 0, 1.2 },
        { "120e-1", true, 12, 0 },
        { "1.5", false, 0, 1.5 },
        { "-1.5E+2", true, -150, 0 },
        { "1E2", true, 100, 0 },
        { "1e-400", false, 0, 0 },
        { "1.7976931348623157e308", false, 0, 1.7976931348623157e308 },
    };
    for (size_t i = 0; i < ARRAY_SIZE(exact); i++) {
        struct number_expect e = { exact[i].is_integer, exact[i].integer,
                                   exact[i].real };
        check_number_text(exact[i].text, &e, NULL);
    }

    /* Malformed numbers: reported where the token ends. */
    static const struct {
        const char *text, *error;
    } bad[] = {
        { "00", "leading zeros not allowed" },
        { "01", "leading zeros not allowed" },
        { "-01", "leading zeros not allowed" },
        { "-00", "leading zeros not allowed" },
        { "0123456789", "leading zeros not allowed" },
        { "-", "'-' must be followed by digit" },
        { "--1", "'-' must be followed by digit" },
        { "-.5", "'-' must be followed by digit" },
        { "1.", "decimal point must be followed by digit" },
        { "1.e5", "decimal point must be followed by digit" },
        { "123456789012345678.", "decimal point must be followed by digit" },
        { "1e", "exponent must contain at least one digit" },
        { "1e+", "exponent must contain at least one digit" },
        { "1E-", "exponent must contain at least one digit" },
        { "1e.5", "exponent must contain at least one digit" },
        { "1.2.3", "syntax error in number" },
        { "1e5e5", "syntax error in number" },
        { "1-2", "syntax error in number" },
        { "1+2", "syntax error in number" },
        { "12345678901234567-8", "syntax error in number" },
        { "1e5.0", "syntax error in number" },
        { "1e400", "number outside valid range" },
        { "-1e400", "number outside valid range" },
        { "1e2147483647", "exponent outside valid range" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        check_number_text(bad[i].text, NULL, bad[i].error);
    }
}

int
main(int argc, char *argv[])
{
    static const struct test_group groups[] = {
        { "control", test_control },
        { "plain", test_plain },
        { "escapes", test_escapes },
        { "unicode", test_unicode },
        { "numbers", test_numbers },
    };

    return run_test_groups(argc, argv, groups, ARRAY_SIZE(groups),
                           json_impl_info()->name);
}
