/* impls/ovs-arena: impls/common/json-parser.c, with a parse store for
 * the database read path: a parser created with JSPF_DATABASE makes its
 * parse store current while it is fed (read-store.h), so the tree it builds
 * (member names included) goes to its arena, or, without the arena, is
 * marked as the read path's.  Other parsers are common's.
 *
 * The chunked JSON parser: a byte-at-a-time lexer feeding a push-down
 * parser.  Input may be split anywhere between json_parser_feed() calls.
 * It builds the tree only through the public constructors. */
#include "json.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ds.h"
#include "json-text.h"
#include "read-store.h"
#include "shash.h"
#include "util.h"

#define JSON_MAX_HEIGHT 1000

enum lex_state {
    LEX_IDLE,                   /* Between tokens. */
    LEX_NUMBER,
    LEX_KEYWORD,
    LEX_STRING,
    LEX_STRING_ESCAPE,          /* Just after a backslash in a string. */
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
    struct parse_store store;   /* Current while fed, with JSPF_DATABASE. */

    enum lex_state lex_state;
    struct ds buffer;           /* Text of the token being lexed. */
    bool buffer_has_escape;
    int line, column, byte;     /* Position of the next byte, 0-based. */

    enum parse_state parse_state;
    struct json **stack;        /* Open objects and arrays, outermost first. */
    size_t height, allocated;
    char *member_name;          /* Name awaiting its value. */

    bool done;
    char *error;
};

static void parser_error(struct json_parser *, const char *format, ...)
    OVS_PRINTF_FORMAT(2, 3);
static void parser_token(struct json_parser *, struct token *);

struct json_parser *
json_parser_create(int flags)
{
    struct json_parser *p = xzalloc(sizeof *p);
    p->flags = flags;
    p->store.arena = NULL;
    ds_init(&p->buffer);
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
            p->lex_state = LEX_STRING;
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
        p->lex_state = LEX_STRING;
        break;
    }
    ds_put_char(&p->buffer, c);
    return true;
}

static size_t json_parser_feed__(struct json_parser *, const char *, size_t);

size_t
json_parser_feed(struct json_parser *p, const char *input, size_t n)
{
    if (!(p->flags & JSPF_DATABASE)) {
        return json_parser_feed__(p, input, n);
    }
    struct parse_store *prev = read_store_enter(&p->store);
    size_t used = json_parser_feed__(p, input, n);
    read_store_leave(prev);
    return used;
}

static size_t
json_parser_feed__(struct json_parser *p, const char *input, size_t n)
{
    size_t i = 0;

    while (i < n && !p->done) {
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
    struct json *json;

    if (!p->error) {
        switch (p->lex_state) {
        case LEX_IDLE:
            break;
        case LEX_STRING:
        case LEX_STRING_ESCAPE:
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
        /* Before the root: the name may be in the root's arena. */
        read_store_free(p->member_name);
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

/* Adds 'value' to the innermost open object or array. */
static void
put_value(struct json_parser *p, struct json *value)
{
    struct json *parent = top(p);
    if (json_get_type(parent) == JSON_OBJECT) {
        json_object_put_nocopy(parent, p->member_name, value);
        p->member_name = NULL;
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
        value = json_string_create_len(token->text, token->len);
        break;
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
            p->member_name = read_store_memdup0(XALLOC_OBJECT, token->text,
                                                token->len);
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
