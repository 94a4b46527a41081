/* The chunked JSON parser: a byte-at-a-time lexer feeding a push-down
 * parser.  Input may be split anywhere between json_parser_feed() calls.
 * By default it builds the tree only through the public constructors, so it
 * is the same for every representation (and is compiled into each impl's
 * library so those calls can be inlined).
 *
 * Options, each 0 (the default) or 1, set in the impl folder's impl.h; none
 * changes what is accepted, the tree built or an error message:
 *
 *   JSON_PARSER_FAST_LEX         a string without escapes and an integer
 *                                lying whole in the input chunk are lexed
 *                                straight from it (lex_fast()) instead of
 *                                byte by byte into the token buffer
 *   JSON_PARSER_MEMBER_SLOT      an object member's name is kept in a
 *                                buffer the parser reuses and its value is
 *                                stored through json_object_slot(), instead
 *                                of a heap copy of each name handed to
 *                                json_object_put_nocopy()
 *   JSON_PARSER_PENDING_STRINGS  (needs JSON_PARSER_MEMBER_SLOT and an
 *                                interning layout) strings are interned a
 *                                few tokens after they are parsed, with the
 *                                lookup's cache misses prefetched meanwhile
 *                                (see "Pending strings")
 *   JSON_PARSER_STORE            the layout's <json-node.h> has a parse
 *                                store (struct parse_store and
 *                                parse_store_init/enter/leave()): each
 *                                json_parser_feed() runs inside it, and
 *                                (without JSON_PARSER_MEMBER_SLOT) member
 *                                names are made where the object's map
 *                                keeps its names (<shash-store.h>)
 *
 * With all of them 0 (the 'ovs' impl and the other feature combinations) the
 * parser is the one OVS's costs are measured with: every byte of a token
 * goes through lex_byte() or the plain-run loop into the token buffer. */
#include <impl.h>

#include "json.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ds.h"
#include "json-text.h"
#include "shash.h"
#include "util.h"

#ifndef JSON_PARSER_FAST_LEX
#define JSON_PARSER_FAST_LEX 0
#endif
#ifndef JSON_PARSER_MEMBER_SLOT
#define JSON_PARSER_MEMBER_SLOT 0
#endif
#ifndef JSON_PARSER_PENDING_STRINGS
#define JSON_PARSER_PENDING_STRINGS 0
#endif
#ifndef JSON_PARSER_STORE
#define JSON_PARSER_STORE 0
#endif

#if JSON_PARSER_PENDING_STRINGS && !JSON_PARSER_MEMBER_SLOT
#error "JSON_PARSER_PENDING_STRINGS needs JSON_PARSER_MEMBER_SLOT"
#endif

#if JSON_PARSER_PENDING_STRINGS || JSON_PARSER_STORE
#include <json-node.h>          /* The including impl's layout. */
#endif
#if JSON_PARSER_MEMBER_SLOT || JSON_PARSER_PENDING_STRINGS
#include "json-parse-hooks.h"
#endif
#if JSON_PARSER_STORE && !JSON_PARSER_MEMBER_SLOT
#include <shash-store.h>        /* The including impl's, else common/'s. */
#endif

#define JSON_MAX_HEIGHT 1000

#if JSON_PARSER_PENDING_STRINGS
/* Strings in flight between creation and interning: enough tokens for the
 * prefetched table slot and node to arrive (json-tree.c). */
#define PENDING_MAX 16
#endif

enum lex_state {
    LEX_IDLE,                   /* Between tokens. */
    LEX_NUMBER,
    LEX_KEYWORD,
    LEX_STRING,
    LEX_STRING_ESCAPE,          /* Just after a backslash in a string. */
    /* A string with JSPF_BYTE_STRINGS: lexed as LEX_STRING, but the feed
     * loop takes no runs of it, so every byte goes through lex_byte(). */
    LEX_STRING_BYTES,
};

enum parse_state {
    PARSE_START,                /* Nothing yet: expecting '{' or '['. */
    PARSE_END,                  /* Top-level value complete. */
    PARSE_OBJECT_FIRST,         /* After '{': a name or '}'. */
    PARSE_OBJECT_NAME,          /* After ',': a name. */
    PARSE_OBJECT_COLON,
    PARSE_OBJECT_VALUE,
    PARSE_OBJECT_NEXT,          /* After a member: ',' or '}'. */
    PARSE_ARRAY_FIRST,          /* After '[': a value or ']'. */
    PARSE_ARRAY_VALUE,          /* After ',': a value. */
    PARSE_ARRAY_NEXT,           /* After an element: ',' or ']'. */
};

enum token_type {
    TOK_BEGIN_OBJECT = '{', TOK_END_OBJECT = '}',
    TOK_BEGIN_ARRAY = '[', TOK_END_ARRAY = ']',
    TOK_COLON = ':', TOK_COMMA = ',',
    TOK_VALUE = 256,            /* A scalar: 'value' holds the node. */
    TOK_STRING,                 /* 'text'/'len' hold the (unescaped) string. */
};

struct token {
    enum token_type type;
    struct json *value;
    const char *text;
    size_t len;
};

struct json_parser {
    int flags;

    enum lex_state lex_state;
    enum lex_state string_state;    /* LEX_STRING or LEX_STRING_BYTES. */
    struct ds buffer;           /* Text of the token being lexed. */
    bool buffer_has_escape;
    int line, column, byte;     /* Position of the next byte, 0-based. */

    enum parse_state parse_state;
    struct json **stack;        /* Open objects and arrays, outermost first. */
    size_t height, allocated;
#if JSON_PARSER_MEMBER_SLOT
    struct ds member;           /* Name of the member awaiting its value. */
#else
    char *member_name;          /* Name awaiting its value. */
#endif

#if JSON_PARSER_PENDING_STRINGS
    /* Strings created but not interned yet, oldest first from 'pending_head'
     * (see put_value()). */
    struct pending_string {
        struct json *standin;   /* Reused string node, NULL at first. */
        size_t cap;             /* Bytes it has room for. */
        struct json *parent;    /* Array holding it, or NULL (object). */
        size_t index;           /* Its index in 'parent', */
        void **slot;            /* or where the object holds it. */
    } pending[PENDING_MAX];
    unsigned int pending_head, n_pending;
#endif
#if JSON_PARSER_STORE
    struct parse_store store;   /* Where the tree's nodes go (node-store.h). */
#endif

    bool done;
    char *error;
};

static void parser_error(struct json_parser *, const char *format, ...)
    OVS_PRINTF_FORMAT(2, 3);
static void parser_token(struct json_parser *, struct token *);
static void pending_flush(struct json_parser *);

#if !JSON_PARSER_MEMBER_SLOT
/* A member name awaiting its value: a block that the object's map takes
 * (json_object_put_nocopy()), so with a parse store it is made where the
 * map keeps its names. */
static inline char *
member_name_new(const char *name, size_t len)
{
#if JSON_PARSER_STORE
    return shash_store_memdup0(XALLOC_OBJECT, name, len);
#else
    return xmemdup0_as(XALLOC_OBJECT, name, len);
#endif
}

static inline void
member_name_free(char *name)
{
#if JSON_PARSER_STORE
    shash_store_free(name);
#else
    xfree(name);
#endif
}
#endif
#if JSON_PARSER_MEMBER_SLOT
static void **member_slot(struct json_parser *, struct json *object);
#endif

struct json_parser *
json_parser_create(int flags)
{
    struct json_parser *p = xzalloc(sizeof *p);
    p->flags = flags;
    p->string_state = (flags & JSPF_BYTE_STRINGS ? LEX_STRING_BYTES
                       : LEX_STRING);
    ds_init(&p->buffer);
#if JSON_PARSER_MEMBER_SLOT
    ds_init(&p->member);
#endif
#if JSON_PARSER_STORE
    parse_store_init(&p->store, flags);
#endif
    return p;
}

static void
parser_error(struct json_parser *p, const char *format, ...)
{
    if (!p->error) {
        struct ds msg = DS_EMPTY_INITIALIZER;
        va_list args;

        ds_put_format(&msg, "line %d, column %d, byte %d: ",
                      p->line, p->column, p->byte);
        va_start(args, format);
        ds_put_format_valist(&msg, format, args);
        va_end(args);
        p->error = ds_steal_cstr(&msg);
    }
    p->done = true;
}

/* Token completion. */

static void
finish_keyword(struct json_parser *p)
{
    const char *s = ds_cstr(&p->buffer);
    struct token token = { .type = TOK_VALUE };

    if (!strcmp(s, "null")) {
        token.value = json_null_create();
    } else if (!strcmp(s, "true")) {
        token.value = json_boolean_create(true);
    } else if (!strcmp(s, "false")) {
        token.value = json_boolean_create(false);
    } else {
        parser_error(p, "invalid keyword '%s'", s);
        return;
    }
    parser_token(p, &token);
}

static void
finish_number(struct json_parser *p)
{
    struct json_number num;
    const char *error = json_text_lex_number(ds_cstr(&p->buffer), &num);
    if (error) {
        parser_error(p, "%s", error);
        return;
    }
    struct token token = {
        .type = TOK_VALUE,
        .value = num.is_integer ? json_integer_create(num.integer)
                                : json_real_create(num.real),
    };
    parser_token(p, &token);
}

static void
finish_string(struct json_parser *p)
{
    struct token token = { .type = TOK_STRING };

    if (!p->buffer_has_escape) {
        token.text = ds_cstr(&p->buffer);
        token.len = p->buffer.length;
        parser_token(p, &token);
    } else {
        /* Unescape only up to the first NUL byte, as OVS does: a NUL can
         * only follow a backslash here, so "\<NUL>" reads as a string
         * ending with a backslash. */
        char *cooked;
        if (json_string_unescape(p->buffer.string,
                                 strlen(ds_cstr(&p->buffer)), &cooked)) {
            token.text = cooked;
            token.len = strlen(cooked);
            parser_token(p, &token);
        } else {
            parser_error(p, "%s", cooked);
        }
        xfree(cooked);
    }
}

/* Lexing.  Returns false if 'c' ended a number or keyword without being part
 * of it, so the caller must offer it again. */
static bool
lex_byte(struct json_parser *p, unsigned char c)
{
    switch (p->lex_state) {
    case LEX_IDLE:
        switch (c) {
        case ' ': case '\t': case '\n': case '\r':
            return true;

        case '{': case '}': case '[': case ']': case ':': case ',': {
            struct token token = { .type = c };
            parser_token(p, &token);
            return true;
        }

        case '"':
            p->lex_state = p->string_state;
            p->buffer_has_escape = false;
            return true;

        case '-': case '0': case '1': case '2': case '3': case '4':
        case '5': case '6': case '7': case '8': case '9':
            p->lex_state = LEX_NUMBER;
            break;

        default:
            if (c >= 'a' && c <= 'z') {
                p->lex_state = LEX_KEYWORD;
            } else if (c >= 0x20 && c < 0x7f) {
                parser_error(p, "invalid character '%c'", c);
                return true;
            } else {
                parser_error(p, "invalid character U+%04x", c);
                return true;
            }
            break;
        }
        break;

    case LEX_KEYWORD:
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
            finish_keyword(p);
            return false;
        }
        break;

    case LEX_NUMBER:
        /* A NUL byte continues a number, as in OVS (whose lexer looks the
         * byte up with strchr(), which also finds the terminator); the
         * number is then read only up to the NUL. */
        if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E'
              || c == '-' || c == '+' || c == '\0')) {
            finish_number(p);
            return false;
        }
        break;

    case LEX_STRING:
    case LEX_STRING_BYTES:
        if (c == '"') {
            finish_string(p);
            return true;
        } else if (c == '\\') {
            p->lex_state = LEX_STRING_ESCAPE;
            p->buffer_has_escape = true;
        } else if (c < 0x20) {
            parser_error(p, "U+%04X must be escaped in quoted string", c);
            return true;
        }
        break;

    case LEX_STRING_ESCAPE:
        p->lex_state = p->string_state;
        break;
    }
    ds_put_char(&p->buffer, c);
    return true;
}

#if JSON_PARSER_FAST_LEX
/* Fast paths for the two commonest tokens when they lie whole in the
 * input chunk: a string without escapes and an integer.  They accept only
 * what the byte-at-a-time lexer would accept as the same token, and hand
 * the parser the token at the same position, so results and error messages
 * do not change; anything else goes the slow way. */

/* True if one of the 8 bytes in 'x' is zero (exact: a borrow can only
 * flag a byte above a zero byte). */
static inline bool
word_has_zero(uint64_t x)
{
    return ((x - UINT64_C(0x0101010101010101)) & ~x
            & UINT64_C(0x8080808080808080)) != 0;
}

/* True if one of the 8 bytes in 'x' is below 0x20, a '"' or a '\\'. */
static inline bool
word_has_special(uint64_t x)
{
    const uint64_t ones = UINT64_C(0x0101010101010101);
    bool control = ((x - ones * 0x20) & ~x & (ones * 0x80)) != 0;
    return (control || word_has_zero(x ^ (ones * '"'))
            || word_has_zero(x ^ (ones * '\\')));
}

/* Index of the first byte at or after 'i' that is below 0x20, '"' or '\\',
 * or 'n'. */
static size_t
scan_plain(const char *input, size_t i, size_t n)
{
    while (i + 8 <= n) {
        uint64_t x;
        memcpy(&x, &input[i], sizeof x);
        if (word_has_special(x)) {
            break;
        }
        i += 8;
    }
    while (i < n && (unsigned char) input[i] >= 0x20
           && input[i] != '"' && input[i] != '\\') {
        i++;
    }
    return i;
}

/* Hands the parser a token that began at input index 'start' and ends
 * just before index 'end' (the closing quote of a string, or the byte
 * after a number): the slow lexer would do so with its position at 'end'
 * (no newline lies in such a token). */
static void
fast_token(struct json_parser *p, struct token *token, size_t start,
           size_t end)
{
    p->byte += end - start;
    p->column += end - start;
    p->lex_state = LEX_IDLE;
    parser_token(p, token);
}

/* Lexes the token starting at 'input[i]' (in LEX_IDLE) if a fast path
 * takes it: returns the index of the first byte not consumed, or 'i' if
 * it did not. */
static size_t
lex_fast(struct json_parser *p, const char *input, size_t i, size_t n)
{
    unsigned char c = input[i];
    if (c == '"' && p->string_state == LEX_STRING) {
        size_t j = scan_plain(input, i + 1, n);
        if (j < n && input[j] == '"') {
            struct token token = {
                .type = TOK_STRING,
                .text = &input[i + 1],
                .len = j - i - 1,
            };
            fast_token(p, &token, i, j);
            /* The closing quote, as lex_byte() consumes it. */
            p->byte++;
            p->column++;
            return j + 1;
        }
    } else if ((c >= '1' && c <= '9') || (c == '-' && i + 1 < n
                                           && input[i + 1] >= '1'
                                           && input[i + 1] <= '9')) {
        /* An integer of at most 18 digits (no overflow), not "0..." and
         * not "-0..." (the slow path keeps their errors and forms). */
        bool negative = c == '-';
        size_t j = i + negative;
        long long int value = 0;
        size_t digits_end = j + 18;
        while (j < n && j < digits_end && input[j] >= '0' && input[j] <= '9') {
            value = value * 10 + (input[j] - '0');
            j++;
        }
        if (j < n && !strchr("0123456789.eE+-", input[j]) && input[j]) {
            struct token token = {
                .type = TOK_VALUE,
                .value = json_integer_create(negative ? -value : value),
            };
            fast_token(p, &token, i, j);
            return j;
        }
    }
    return i;
}
#endif /* JSON_PARSER_FAST_LEX */

/* Around each call into the parser: what it allocates goes to its parse
 * store (JSON_PARSER_STORE), else nothing. */
#if JSON_PARSER_STORE
static inline struct parse_store *
store_enter(struct json_parser *p)
{
    return parse_store_enter(&p->store);
}

static inline void
store_leave(struct parse_store *prev)
{
    parse_store_leave(prev);
}
#else
struct parse_store;

static inline struct parse_store *
store_enter(struct json_parser *p OVS_UNUSED)
{
    return NULL;
}

static inline void
store_leave(struct parse_store *prev OVS_UNUSED)
{
}
#endif

size_t
json_parser_feed(struct json_parser *p, const char *input, size_t n)
{
    struct parse_store *prev = store_enter(p);
    size_t i = 0;

    while (i < n && !p->done) {
#if JSON_PARSER_FAST_LEX
        if (p->lex_state == LEX_IDLE) {
            size_t j = lex_fast(p, input, i, n);
            if (j != i) {
                i = j;
                continue;
            }
        }
#endif
        /* Inside a string, take the longest plain run at once: the common
         * case, and the one that decides parse speed. */
        if (p->lex_state == LEX_STRING) {
            size_t j = i;
            while (j < n && (unsigned char) input[j] >= 0x20
                   && input[j] != '"' && input[j] != '\\') {
                j++;
            }
            if (j > i) {
                ds_put_buffer(&p->buffer, &input[i], j - i);
                p->byte += j - i;
                p->column += j - i;
                i = j;
                continue;
            }
        }

        if (lex_byte(p, input[i])) {
            p->byte++;
            if (input[i] == '\n') {
                p->line++;
                p->column = 0;
            } else {
                p->column++;
            }
            i++;
        }
    }
    store_leave(prev);
    return i;
}

bool
json_parser_is_done(const struct json_parser *p)
{
    return p->done;
}

struct json *
json_parser_finish(struct json_parser *p)
{
    /* Outside the parse store: the error string below is no part of the
     * tree (the feed of a space below enters the store itself). */
    struct json *json;

    if (!p->error) {
        switch (p->lex_state) {
        case LEX_IDLE:
            break;
        case LEX_STRING:
        case LEX_STRING_ESCAPE:
        case LEX_STRING_BYTES:
            parser_error(p, "unexpected end of input in quoted string");
            break;
        case LEX_NUMBER:
        case LEX_KEYWORD:
            /* Ends the token with a space that counts as input, as in OVS:
             * an error found after the token is reported one byte past the
             * end of the input. */
            json_parser_feed(p, " ", 1);
            break;
        }
    }

    if (p->parse_state == PARSE_START) {
        parser_error(p, "empty input stream");
    } else if (p->parse_state != PARSE_END) {
        parser_error(p, "unexpected end of input");
    }

    if (!p->error) {
        pending_flush(p);
        json = p->stack[0];
        p->height = 0;
    } else {
        json = json_string_create_nocopy(p->error);
        p->error = NULL;
    }
    json_parser_abort(p);
    return json;
}

void
json_parser_abort(struct json_parser *p)
{
    if (p) {
        ds_destroy(&p->buffer);
#if JSON_PARSER_PENDING_STRINGS
        pending_flush(p);       /* The stand-ins are the parser's. */
        for (size_t i = 0; i < PENDING_MAX; i++) {
            xfree(p->pending[i].standin);
        }
#endif
#if JSON_PARSER_MEMBER_SLOT
        ds_destroy(&p->member);
#else
        member_name_free(p->member_name);   /* Maybe in the root's store. */
#endif
        if (p->height) {
            json_destroy(p->stack[0]);
        }
        xfree(p->stack);
        xfree(p->error);
        xfree(p);
    }
}

/* Parsing. */

static struct json *
top(const struct json_parser *p)
{
    return p->stack[p->height - 1];
}

#if JSON_PARSER_PENDING_STRINGS
/* Pending strings.  Interning a string means a lookup in a table far larger
 * than the cache: the slot and the node it names are cache misses, the
 * largest cost of loading with interning.  So the tree first gets a
 * stand-in for a parsed string, one of PENDING_MAX string nodes that the
 * parser reuses, and the string is interned PENDING_MAX strings later,
 * when prefetches issued on its way (slot at once, node half-way) have
 * brought what the lookup touches into the cache; then the interned node
 * replaces the stand-in.  No stand-in is left when anything else can see
 * the tree, or before the parser destroys part of it. */

static struct pending_string *
pending_at(struct json_parser *p, unsigned int i)
{
    return &p->pending[(p->pending_head + i) % PENDING_MAX];
}

/* Replaces the oldest stand-in by its interned string. */
static void
pending_resolve_oldest(struct json_parser *p)
{
    struct pending_string *ps = pending_at(p, 0);
    struct json *node = json_string_intern_pending(ps->standin);
    if (ps->parent) {
        array_elems(ps->parent)[ps->index] = node;
    } else {
        *ps->slot = node;
    }
    p->pending_head = (p->pending_head + 1) % PENDING_MAX;
    p->n_pending--;
}

static void
pending_flush(struct json_parser *p)
{
    while (p->n_pending) {
        pending_resolve_oldest(p);
    }
}

/* Adds the string of 'len' bytes at 's' to the innermost open object or
 * array as a stand-in, to be interned later. */
static void
put_pending_string(struct json_parser *p, const char *s, size_t len)
{
    if (p->n_pending == PENDING_MAX) {
        pending_resolve_oldest(p);
    }
    if (p->n_pending >= PENDING_MAX / 2) {
        json_string_prefetch_match(
            pending_at(p, p->n_pending - PENDING_MAX / 2)->standin);
    }

    struct json *parent = top(p);
    void **slot = NULL;
    size_t index = 0;
    if (json_get_type(parent) == JSON_OBJECT) {
        slot = member_slot(p, parent);      /* May settle all pending. */
    } else {
        index = json_array_size(parent);
    }

    struct pending_string *ps = pending_at(p, p->n_pending++);
    json_string_standin_set(&ps->standin, &ps->cap, s, len);
    json_string_prefetch_slot(ps->standin);
    ps->parent = slot ? NULL : parent;
    ps->index = index;
    ps->slot = slot;
    if (slot) {
        *slot = ps->standin;
    } else {
        json_array_add(parent, ps->standin);
    }
}
#else
static void
pending_flush(struct json_parser *p OVS_UNUSED)
{
}
#endif /* JSON_PARSER_PENDING_STRINGS */

#if JSON_PARSER_MEMBER_SLOT
/* Where the innermost object keeps the value of the member being parsed.
 * A repeated name: the last value wins, as in OVS; the old one (or a
 * string in it) may be a stand-in, so all are settled first. */
static void **
member_slot(struct json_parser *p, struct json *object)
{
    bool added;
    void **slot = json_object_slot(object, ds_cstr(&p->member),
                                   p->member.length, &added);
    if (!added) {
        pending_flush(p);       /* A no-op without pending strings. */
        json_destroy(*slot);
        *slot = NULL;
    }
    return slot;
}
#endif

/* Adds 'value' to the innermost open object or array. */
static void
put_value(struct json_parser *p, struct json *value)
{
    struct json *parent = top(p);
    if (json_get_type(parent) == JSON_OBJECT) {
#if JSON_PARSER_MEMBER_SLOT
        *member_slot(p, parent) = value;
#else
        json_object_put_nocopy(parent, p->member_name, value);
        p->member_name = NULL;
#endif
    } else {
        json_array_add(parent, value);
    }
}

static void
push(struct json_parser *p, struct json *container,
     enum parse_state new_state)
{
    if (p->height >= JSON_MAX_HEIGHT) {
        json_destroy(container);
        parser_error(p, "input exceeds maximum nesting depth %d",
                     JSON_MAX_HEIGHT);
        return;
    }
    if (p->height >= p->allocated) {
        p->allocated = p->allocated ? p->allocated * 2 : 16;
        p->stack = xrealloc(p->stack, p->allocated * sizeof *p->stack);
    }
    if (p->height) {
        put_value(p, container);
    }
    p->stack[p->height++] = container;
    p->parse_state = new_state;
}

static void
pop(struct json_parser *p)
{
    struct json *container = top(p);
    if (json_get_type(container) == JSON_ARRAY) {
        /* Give back the vector's slack, as OVS does. */
        json_array_trim(container);
    }

    if (p->height == 1) {
        p->parse_state = PARSE_END;
        if (!(p->flags & JSPF_TRAILER)) {
            p->done = true;
        }
    } else {
        p->height--;
        p->parse_state = json_get_type(top(p)) == JSON_ARRAY
                         ? PARSE_ARRAY_NEXT : PARSE_OBJECT_NEXT;
    }
}

/* Handles a token where a value is expected. */
static void
parse_value(struct json_parser *p, struct token *token,
            enum parse_state next_state)
{
    struct json *value;

    switch ((int) token->type) {
    case TOK_BEGIN_OBJECT:
        push(p, json_object_create(), PARSE_OBJECT_FIRST);
        return;
    case TOK_BEGIN_ARRAY:
        push(p, json_array_create_empty(), PARSE_ARRAY_FIRST);
        return;
    case TOK_VALUE:
        value = token->value;
        token->value = NULL;
        break;
    case TOK_STRING:
#if JSON_PARSER_PENDING_STRINGS
        put_pending_string(p, token->text, token->len);
        p->parse_state = next_state;
        return;
#else
        value = json_string_create_len(token->text, token->len);
        break;
#endif
    default:
        parser_error(p, "syntax error expecting value");
        return;
    }
    put_value(p, value);
    p->parse_state = next_state;
}

static void
parser_token(struct json_parser *p, struct token *token)
{
    switch (p->parse_state) {
    case PARSE_START:
        if (token->type == TOK_BEGIN_OBJECT) {
            push(p, json_object_create(), PARSE_OBJECT_FIRST);
        } else if (token->type == TOK_BEGIN_ARRAY) {
            push(p, json_array_create_empty(), PARSE_ARRAY_FIRST);
        } else {
            parser_error(p, "syntax error at beginning of input");
        }
        break;

    case PARSE_END:
        parser_error(p, "trailing garbage at end of input");
        break;

    case PARSE_OBJECT_FIRST:
        if (token->type == TOK_END_OBJECT) {
            pop(p);
            break;
        }
        /* Fall through. */
    case PARSE_OBJECT_NAME:
        if (token->type == TOK_STRING) {
#if JSON_PARSER_MEMBER_SLOT
            ds_clear(&p->member);
            ds_put_buffer(&p->member, token->text, token->len);
#else
            p->member_name = member_name_new(token->text, token->len);
#endif
            p->parse_state = PARSE_OBJECT_COLON;
        } else {
            parser_error(p, "syntax error parsing object expecting string");
        }
        break;

    case PARSE_OBJECT_COLON:
        if (token->type == TOK_COLON) {
            p->parse_state = PARSE_OBJECT_VALUE;
        } else {
            parser_error(p, "syntax error parsing object expecting ':'");
        }
        break;

    case PARSE_OBJECT_VALUE:
        parse_value(p, token, PARSE_OBJECT_NEXT);
        break;

    case PARSE_OBJECT_NEXT:
        if (token->type == TOK_COMMA) {
            p->parse_state = PARSE_OBJECT_NAME;
        } else if (token->type == TOK_END_OBJECT) {
            pop(p);
        } else {
            parser_error(p, "syntax error expecting '}' or ','");
        }
        break;

    case PARSE_ARRAY_FIRST:
        if (token->type == TOK_END_ARRAY) {
            pop(p);
            break;
        }
        /* Fall through. */
    case PARSE_ARRAY_VALUE:
        parse_value(p, token, PARSE_ARRAY_NEXT);
        break;

    case PARSE_ARRAY_NEXT:
        if (token->type == TOK_COMMA) {
            p->parse_state = PARSE_ARRAY_VALUE;
        } else if (token->type == TOK_END_ARRAY) {
            pop(p);
        } else {
            parser_error(p, "syntax error expecting ']' or ','");
        }
        break;
    }

    /* A scalar that found no place (a syntax error) is dropped. */
    json_destroy(token->value);
    token->value = NULL;

    p->lex_state = LEX_IDLE;
    ds_clear(&p->buffer);
}

/* One-shot helpers. */

struct json *
json_from_string(const char *string)
{
    struct json_parser *p = json_parser_create(JSPF_TRAILER);
    json_parser_feed(p, string, strlen(string));
    return json_parser_finish(p);
}

struct json *
json_parse_buffer(const char *buffer, size_t n, char **errorp)
{
    struct json_parser *p = json_parser_create(JSPF_TRAILER);
    json_parser_feed(p, buffer, n);
    struct json *json = json_parser_finish(p);

    if (json_get_type(json) == JSON_STRING) {
        *errorp = xstrdup(json_string(json));
        json_destroy(json);
        return NULL;
    }
    *errorp = NULL;
    return json;
}

struct json *
json_from_stream(FILE *stream)
{
    struct json_parser *p = json_parser_create(JSPF_TRAILER);
    struct json *json;

    for (;;) {
        char buffer[65536];
        size_t n = fread(buffer, 1, sizeof buffer, stream);
        if (!n || json_parser_feed(p, buffer, n) != n) {
            break;
        }
    }
    json = json_parser_finish(p);

    if (ferror(stream)) {
        json_destroy(json);
        json = json_string_create_nocopy(
            xasprintf("error reading JSON stream: %s", strerror(errno)));
    }
    return json;
}

struct json *
json_from_file(const char *file_name)
{
    FILE *stream = fopen(file_name, "r");
    if (!stream) {
        return json_string_create_nocopy(
            xasprintf("error opening \"%s\": %s", file_name,
                      strerror(errno)));
    }
    struct json *json = json_from_stream(stream);
    fclose(stream);
    return json;
}
