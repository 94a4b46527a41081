/* Escaping, unescaping and number formatting/lexing for JSON text. */
#include "json-text.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ds.h"
#include "json.h"
#include "util.h"

/* What each byte becomes inside a quoted string: 0 = itself, otherwise the
 * escape's second character ('u' = \u00xx). */
static const char escape_kind[256] = {
    ['\b'] = 'b', ['\t'] = 't', ['\n'] = 'n', ['\f'] = 'f', ['\r'] = 'r',
    [0x00] = 'u', [0x01] = 'u', [0x02] = 'u', [0x03] = 'u', [0x04] = 'u',
    [0x05] = 'u', [0x06] = 'u', [0x07] = 'u', [0x0b] = 'u', [0x0e] = 'u',
    [0x0f] = 'u', [0x10] = 'u', [0x11] = 'u', [0x12] = 'u', [0x13] = 'u',
    [0x14] = 'u', [0x15] = 'u', [0x16] = 'u', [0x17] = 'u', [0x18] = 'u',
    [0x19] = 'u', [0x1a] = 'u', [0x1b] = 'u', [0x1c] = 'u', [0x1d] = 'u',
    [0x1e] = 'u', [0x1f] = 'u',
    ['"'] = '"', ['\\'] = '\\',
};

void
json_text_put_string(struct ds *ds, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *) s;
    const unsigned char *end = p + n;

    ds_put_char(ds, '"');
    while (p < end) {
        /* Copy the longest run that needs no escaping in one go. */
        const unsigned char *run = p;
        while (p < end && !escape_kind[*p]) {
            p++;
        }
        ds_put_buffer(ds, (const char *) run, p - run);
        if (p >= end) {
            break;
        }

        char kind = escape_kind[*p];
        if (kind == 'u') {
            char *out = ds_put_uninit(ds, 6);
            memcpy(out, "\\u00", 4);
            out[4] = hex[*p >> 4];
            out[5] = hex[*p & 15];
        } else {
            char *out = ds_put_uninit(ds, 2);
            out[0] = '\\';
            out[1] = kind;
        }
        p++;
    }
    ds_put_char(ds, '"');
}

void
json_string_escape(const char *in, struct ds *out)
{
    json_text_put_string(out, in, strlen(in));
}

void
json_text_put_integer(struct ds *ds, long long int value)
{
    char buf[24];
    char *end = buf + sizeof buf;
    char *p = end;
    unsigned long long int u = value < 0 ? -(unsigned long long int) value
                                         : (unsigned long long int) value;
    do {
        *--p = '0' + u % 10;
        u /= 10;
    } while (u);
    if (value < 0) {
        *--p = '-';
    }
    ds_put_buffer(ds, p, end - p);
}

void
json_text_put_real(struct ds *ds, double value)
{
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%.15g", value);
    ds_put_buffer(ds, buf, n);
}

/* Unescaping. */

static void
put_utf8(struct ds *out, unsigned int c)
{
    if (c < 0x80) {
        ds_put_char(out, c);
    } else if (c < 0x800) {
        ds_put_char(out, 0xc0 | (c >> 6));
        ds_put_char(out, 0x80 | (c & 0x3f));
    } else if (c < 0x10000) {
        ds_put_char(out, 0xe0 | (c >> 12));
        ds_put_char(out, 0x80 | ((c >> 6) & 0x3f));
        ds_put_char(out, 0x80 | (c & 0x3f));
    } else {
        ds_put_char(out, 0xf0 | (c >> 18));
        ds_put_char(out, 0x80 | ((c >> 12) & 0x3f));
        ds_put_char(out, 0x80 | ((c >> 6) & 0x3f));
        ds_put_char(out, 0x80 | (c & 0x3f));
    }
}

/* Reads the 4 hex digits of a \u escape at 'p'. */
static const char *
read_4hex(const char *p, const char *end, unsigned int *value)
{
    if (end - p < 4) {
        return "quoted string ends within \\u escape";
    }
    unsigned int v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hexit_value(p[i]);
        if (h < 0) {
            return "malformed \\u escape";
        }
        v = v * 16 + h;
    }
    if (!v) {
        return "null bytes not supported in quoted strings";
    }
    *value = v;
    return NULL;
}

/* Decodes the \u escape whose hex digits start at '*pp' (a surrogate pair
 * takes two escapes).  Returns an error message or NULL. */
static const char *
unescape_unicode(const char **pp, const char *end, struct ds *out)
{
    const char *p = *pp;
    unsigned int c0, c1;
    const char *error = read_4hex(p, end, &c0);
    if (error) {
        return error;
    }
    p += 4;
    if (c0 < 0xd800 || c0 > 0xdbff) {
        /* Not a leading surrogate: a lone trailing surrogate is kept too. */
        put_utf8(out, c0);
        *pp = p;
        return NULL;
    }
    if (end - p < 2 || p[0] != '\\' || p[1] != 'u') {
        return "malformed escaped surrogate pair";
    }
    p += 2;
    error = read_4hex(p, end, &c1);
    if (error) {
        return error;
    }
    p += 4;
    if (c1 < 0xdc00 || c1 > 0xdfff) {
        return "second half of escaped surrogate pair is not "
               "trailing surrogate";
    }
    put_utf8(out, 0x10000 + ((c0 - 0xd800) << 10) + (c1 - 0xdc00));
    *pp = p;
    return NULL;
}

bool
json_string_unescape(const char *in, size_t in_len, char **outp)
{
    const char *end = in + in_len;
    const char *error = NULL;
    char bad_escape[16];
    struct ds out;

    ds_init(&out);
    ds_reserve(&out, in_len);
    while (in < end && !error) {
        const char *run = in;
        while (in < end && *in != '\\' && *in != '"') {
            in++;
        }
        ds_put_buffer(&out, run, in - run);
        if (in >= end) {
            break;
        }
        if (*in == '"') {
            error = "quoted string may not include unescaped \"";
            break;
        }
        if (++in >= end) {
            error = "quoted string may not end with backslash";
            break;
        }
        char c = *in++;
        switch (c) {
        case '"': case '\\': case '/':
            ds_put_char(&out, c);
            break;
        case 'b':
            ds_put_char(&out, '\b');
            break;
        case 'f':
            ds_put_char(&out, '\f');
            break;
        case 'n':
            ds_put_char(&out, '\n');
            break;
        case 'r':
            ds_put_char(&out, '\r');
            break;
        case 't':
            ds_put_char(&out, '\t');
            break;
        case 'u':
            error = unescape_unicode(&in, end, &out);
            break;
        default:
            snprintf(bad_escape, sizeof bad_escape, "bad escape \\%c", c);
            error = bad_escape;
            break;
        }
    }
    if (error) {
        ds_clear(&out);
        ds_put_cstr(&out, error);
    }
    *outp = ds_steal_cstr(&out);
    return !error;
}

/* Number lexing.
 *
 * The token is read as an exact decimal significand and a power of ten.  If
 * that is exactly an integer in int64 range (e.g. "10", "1e2", "1.50e1") the
 * number is an integer; otherwise strtod() gives a real.  Overflow to
 * infinity is an error; underflow to zero is not. */
/* Whether significand * 10 + digit fits in 64 bits.  (OVS checks only
 * significand <= ULLONG_MAX / 10, so e.g. 18446744073709551616 wraps to 0
 * there; we do not copy that bug: see docs/json-rules.md.) */
static inline bool
digit_fits(unsigned long long int significand, char digit)
{
    return significand < ULLONG_MAX / 10
           || (significand == ULLONG_MAX / 10
               && (unsigned) (digit - '0') <= ULLONG_MAX % 10);
}

const char *
json_text_lex_number(const char *cp, struct json_number *num)
{
    const char *start = cp;
    unsigned long long int significand = 0;
    bool imprecise = false;
    bool negative = false;
    long long int pow10 = 0;   /* Wide enough that no input overflows it. */

    if (*cp == '-') {
        negative = true;
        cp++;
    }

    if (*cp == '0') {
        cp++;
        if (*cp >= '0' && *cp <= '9') {
            return "leading zeros not allowed";
        }
    } else if (*cp >= '1' && *cp <= '9') {
        for (; *cp >= '0' && *cp <= '9'; cp++) {
            if (digit_fits(significand, *cp)) {
                significand = significand * 10 + (*cp - '0');
            } else {
                /* Out of significand room: the digit only scales. */
                pow10++;
                imprecise |= *cp != '0';
            }
        }
    } else {
        return "'-' must be followed by digit";
    }

    if (*cp == '.') {
        cp++;
        if (!(*cp >= '0' && *cp <= '9')) {
            return "decimal point must be followed by digit";
        }
        for (; *cp >= '0' && *cp <= '9'; cp++) {
            if (digit_fits(significand, *cp)) {
                significand = significand * 10 + (*cp - '0');
                pow10--;
            } else {
                imprecise |= *cp != '0';
            }
        }
    }

    if (*cp == 'e' || *cp == 'E') {
        bool negative_exponent = false;
        int exponent = 0;

        cp++;
        if (*cp == '+' || *cp == '-') {
            negative_exponent = *cp == '-';
            cp++;
        }
        if (!(*cp >= '0' && *cp <= '9')) {
            return "exponent must contain at least one digit";
        }
        for (; *cp >= '0' && *cp <= '9'; cp++) {
            if (exponent >= INT_MAX / 10) {
                return "exponent outside valid range";
            }
            exponent = exponent * 10 + (*cp - '0');
        }
        pow10 += negative_exponent ? -exponent : exponent;
    }

    if (*cp != '\0') {
        return "syntax error in number";
    }

    /* Zero of any spelling is the integer 0 (no negative zero). */
    if (!significand) {
        num->is_integer = true;
        num->integer = 0;
        return NULL;
    }

    if (!imprecise) {
        while (pow10 > 0 && significand < ULLONG_MAX / 10) {
            significand *= 10;
            pow10--;
        }
        while (pow10 < 0 && significand % 10 == 0) {
            significand /= 10;
            pow10++;
        }
        unsigned long long int limit = (unsigned long long int) LLONG_MAX
                                       + negative;
        if (pow10 == 0 && significand <= limit) {
            num->is_integer = true;
            num->integer = negative
                           ? (long long int) (0 - significand)
                           : (long long int) significand;
            return NULL;
        }
    }

    errno = 0;
    char *tail;
    double d = strtod(start, &tail);
    if ((errno == ERANGE && d != 0) || *tail != '\0') {
        return "number outside valid range";
    }
    num->is_integer = false;
    num->real = d == 0 ? 0 : d;     /* Also drops negative zero. */
    return NULL;
}
