/* API tests, run against each impl.
 *
 * usage: json-api-<impl> GROUP
 *
 * Expectations that depend on the representation are derived from
 * json_impl_info() (refcount, serialized, inline maxima), so the same file
 * tests every impl and fails if an impl does not do what it claims. */
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

static const struct json_impl_info *info;

static bool
has_feature(const char *feature)
{
    const char *f = info->features;
    size_t len = strlen(feature);
    while ((f = strstr(f, feature))) {
        if ((f == info->features || f[-1] == ',')
            && (f[len] == ',' || f[len] == '\0')) {
            return true;
        }
        f += len;
    }
    return false;
}

/* Parses 's', which must be valid. */
static struct json *
parse(const char *s)
{
    struct json *json = json_from_string(s);
    if (json_get_type(json) == JSON_STRING) {
        fprintf(stderr, "unexpected parse error: %s\n  in: %s\n",
                json_string(json), s);
        exit(1);
    }
    return json;
}

/* Serializes and frees 'json'. */
static char *
to_string_destroy(struct json *json, int flags)
{
    char *s = json_to_string(json, flags);
    json_destroy(json);
    return s;
}

/* Parses 's' (valid or not) and returns the serialization or the error. */
static char *
parse_result(const char *s, int flags)
{
    struct json *json = json_from_string(s);
    if (json_get_type(json) == JSON_STRING) {
        char *error = xstrdup(json_string(json));
        json_destroy(json);
        return error;
    }
    return to_string_destroy(json, flags);
}

#define CHECK_PARSE(INPUT, EXPECTED)                \
    do {                                            \
        char *result_ = parse_result(INPUT, 0);     \
        CHECK_STREQ(result_, EXPECTED);             \
        xfree(result_);                             \
    } while (0)

#define CHECK_SERIALIZE(JSON, FLAGS, EXPECTED)              \
    do {                                                    \
        char *result_ = to_string_destroy(JSON, FLAGS);     \
        CHECK_STREQ(result_, EXPECTED);                     \
        xfree(result_);                                     \
    } while (0)

/* Allocation calls made by the statement 'STMT'. */
#define ALLOCS(STMT)                                        \
    ({ uint64_t before_ = xalloc_stats.calls;               \
       STMT;                                                \
       xalloc_stats.calls - before_; })

static void
test_impl_info(void)
{
    CHECK(info->name && info->name[0]);
    /* Whatever the layout, what it keeps inline fits in the node. */
    CHECK(info->node_size >= sizeof(enum json_type) + sizeof(void *));
    CHECK(info->string_inline_max < info->node_size);
    CHECK(info->array_inline_max * sizeof(void *) < info->node_size);
    CHECK_EQ(has_feature("refcount"), info->refcount);
    CHECK_EQ(has_feature("serialized"), info->serialized);
    CHECK_EQ(has_feature("inline-strings"), info->string_inline_max > 0);
    CHECK_EQ(has_feature("inline-arrays"), info->array_inline_max > 0);

    /* The built-in impls keep the layouts their reports describe (a new
     * impl needs no line here). */
    static const struct {
        const char *name;
        size_t node_size, string_max, array_max;
        bool refcount, serialized;
    } expected[] = {
        { "plain", 32, 0, 0, false, false },
        { "refcount", 40, 0, 0, true, false },
        { "inline", 40, 23, 0, true, false },
        { "serialized", 40, 0, 0, true, true },
        { "ovs", 40, 23, 3, true, true },
        { "ovs-regressed", 40, 23, 3, true, true },
    };
    for (size_t i = 0; i < ARRAY_SIZE(expected); i++) {
        if (!strcmp(info->name, expected[i].name)) {
            CHECK_EQ(info->node_size, expected[i].node_size);
            CHECK_EQ(info->string_inline_max, expected[i].string_max);
            CHECK_EQ(info->array_inline_max, expected[i].array_max);
            CHECK_EQ(info->refcount, expected[i].refcount);
            CHECK_EQ(info->serialized, expected[i].serialized);
        }
    }
    printf("%s: sizeof(struct json) = %zu\n", info->name, info->node_size);
}

static void
test_clone(void)
{
    struct json *json = parse("{\"a\":[1,\"two\",{\"three\":3.5}],\"b\":null}");
    struct json *clone;

    /* An arena impl's parsed nodes die with their arena: json_clone() of
     * one is a copy on the heap, that of a constructed node count++. */
    bool arena = has_feature("arena");
    bool shares = info->refcount && !arena;
    uint64_t calls = ALLOCS(clone = json_clone(json));
    CHECK(json_equal(json, clone));
    CHECK(json_equal(json, json));
    if (shares) {
        CHECK(clone == json);
        CHECK_EQ(calls, 0);
        CHECK_EQ(json_refcount(json), 2);
        struct json *clone2 = json_clone(clone);
        CHECK_EQ(json_refcount(json), 3);
        json_destroy(clone2);
        CHECK_EQ(json_refcount(json), 2);
    } else {
        CHECK(clone != json);
        CHECK(calls > 0);
        CHECK_EQ(json_refcount(json), 1);
        CHECK_EQ(json_refcount(clone), 1);
    }
    json_destroy(clone);
    CHECK_EQ(json_refcount(json), 1);

    /* A deep clone is always a separate tree. */
    struct json *deep = json_deep_clone(json);
    CHECK(deep != json);
    CHECK_EQ(json_refcount(deep), 1);
    CHECK(json_equal(json, deep));
    json_object_put(deep, "c", json_integer_create(1));
    CHECK(!json_equal(json, deep));
    CHECK(json_object_get(json, "c") == NULL);
    json_destroy(deep);

    /* Children of a refcounted clone are shared, not copied. */
    const struct json *a = json_object_get(json, "a");
    struct json *a_clone = json_clone(a);
    CHECK_EQ(json_refcount(a), shares ? 2 : 1);
    if (arena) {
        /* Constructed trees keep count++, and a clone of a parsed child
         * is independent of its tree. */
        struct json *heap = json_deep_clone(json);
        CHECK(json_clone(heap) == heap);
        CHECK_EQ(json_refcount(heap), 2);
        json_destroy(heap);
        json_destroy(heap);
        CHECK(a_clone != a);
        CHECK(json_equal(a_clone, a));
    }
    json_destroy(json);             /* 'a' survives through the clone. */
    CHECK_EQ(json_refcount(a_clone), 1);
    CHECK_EQ(json_array_size(a_clone), 3);
    CHECK_STREQ(json_string(json_array_at(a_clone, 1)), "two");
    json_destroy(a_clone);

    CHECK(json_nullable_clone(NULL) == NULL);
    json_destroy(NULL);

    /* Cloning every scalar type. */
    struct json *scalars[] = {
        json_null_create(), json_boolean_create(true),
        json_boolean_create(false), json_integer_create(-5),
        json_real_create(2.25), json_string_create("s"),
        json_string_create("a string that is too long to be inline"),
        json_array_create_empty(), json_object_create(),
    };
    for (size_t i = 0; i < ARRAY_SIZE(scalars); i++) {
        struct json *c = json_clone(scalars[i]);
        struct json *d = json_deep_clone(scalars[i]);
        CHECK(json_equal(c, scalars[i]) && json_equal(d, scalars[i]));
        CHECK_EQ(json_get_type(d), json_get_type(scalars[i]));
        json_destroy(c);
        json_destroy(d);
        json_destroy(scalars[i]);
    }
}

/* Allocation calls a deep copy of a string of 'len' bytes takes. */
static uint64_t
string_copy_allocs(size_t len)
{
    char *s = xmalloc(len + 1);
    memset(s, 'x', len);
    s[len] = '\0';
    struct json *json = json_string_create(s);
    struct json *copy;
    uint64_t calls = ALLOCS(copy = json_deep_clone(json));
    CHECK_STREQ(json_string(copy), s);
    CHECK(json_equal(copy, json));
    json_destroy(copy);
    json_destroy(json);
    xfree(s);
    return calls;
}

/* Allocation calls a deep copy of an array of 'n' nulls takes. */
static uint64_t
array_copy_allocs(size_t n)
{
    struct json *json = json_array_create_empty();
    for (size_t i = 0; i < n; i++) {
        json_array_add(json, json_null_create());
    }
    struct json *copy;
    uint64_t calls = ALLOCS(copy = json_deep_clone(json));
    CHECK_EQ(json_array_size(copy), n);
    CHECK(json_equal(copy, json));
    json_destroy(copy);
    json_destroy(json);
    return calls;
}

/* Impls with the "interned" feature keep one node per distinct string. */
static void
test_interning(size_t smax)
{
    static const char *long_s = "a string that is too long to be inline";
    struct json *keep = json_string_create("keeps the table allocated");

    /* Equal strings, however made, are one node; others are not. */
    struct json *a = json_string_create("abc");
    struct json *b = json_string_create_len("abcdef", 3);
    struct json *c = json_string_create_nocopy(xstrdup("abc"));
    struct json *d = json_string_create("abd");
    CHECK(a == b && b == c);
    CHECK(a != d);
    CHECK_EQ(json_refcount(a), 3);
    CHECK(json_equal(a, b) && !json_equal(a, d));
    CHECK_EQ(json_hash(a, 5), json_hash(c, 5));
    json_destroy(b);
    json_destroy(c);
    CHECK_EQ(json_refcount(a), 1);

    /* A string that exists costs no allocation; _nocopy frees the buffer. */
    CHECK_EQ(ALLOCS(b = json_string_create("abc")), 0);
    char *buf = xstrdup("abc");
    uint64_t frees = xalloc_stats.frees;
    c = json_string_create_nocopy(buf);
    CHECK_EQ(xalloc_stats.frees - frees, 1);
    CHECK(c == a);
    json_destroy(b);
    json_destroy(c);

    /* The last reference takes the string out of the table: a new one is
     * a new node (its allocations are those of a fresh string). */
    json_destroy(a);
    CHECK_EQ(ALLOCS(a = json_string_create("abc")),
             smax >= 3 || has_feature("sized-strings") ? 1 : 2);
    CHECK_STREQ(json_string(a), "abc");
    json_destroy(a);
    json_destroy(d);

    /* The parser interns too, also across documents, and long strings. */
    char *text = xasprintf("[\"%s\",\"%s\",\"x\"]", long_s, long_s);
    struct json *doc = parse(text);
    struct json *mine = json_string_create(long_s);
    CHECK(json_array_at(doc, 0) == json_array_at(doc, 1));
    CHECK(json_array_at(doc, 0) == mine);
    CHECK_EQ(json_refcount(mine), 3);
    struct json *doc2 = parse(text);
    CHECK(json_array_at(doc2, 2) == json_array_at(doc, 2));
    CHECK(json_equal(doc, doc2));
    CHECK_EQ(json_hash(doc, 0), json_hash(doc2, 0));
    json_destroy(doc);
    CHECK_EQ(json_refcount(mine), 3);
    CHECK_EQ(json_refcount(json_array_at(doc2, 2)), 1);
    json_destroy(doc2);
    CHECK_EQ(json_refcount(mine), 1);
    json_destroy(mine);
    xfree(text);

    /* Many distinct strings (the table grows and shrinks) stay distinct and
     * findable. */
    enum { N = 5000 };
    struct json **many = xmalloc(N * sizeof *many);
    for (size_t i = 0; i < N; i++) {
        char *s = xasprintf("s%zu", i);
        many[i] = json_string_create_nocopy(s);
    }
    for (size_t i = 0; i < N; i += 2) {
        json_destroy(many[i]);          /* Deletions shift entries back. */
    }
    for (size_t i = 0; i < N; i++) {
        char *s = xasprintf("s%zu", i);
        struct json *again = json_string_create(s);
        CHECK_STREQ(json_string(again), s);
        if (i % 2) {
            CHECK(again == many[i]);
            json_destroy(again);
        } else {
            many[i] = again;
        }
        xfree(s);
    }
    for (size_t i = 0; i < N; i++) {
        CHECK_EQ(json_refcount(many[i]), 1);
        json_destroy(many[i]);
    }
    xfree(many);
    json_destroy(keep);
}

static void
test_inline(void)
{
    size_t smax = info->string_inline_max;
    size_t amax = info->array_inline_max;
    int tax = has_feature("regressed");  /* Extra allocation per string. */
    bool interned = has_feature("interned");

    /* Strings: one allocation (the node) while the string fits inline.
     * Interned strings are shared: a copy is the same node, count++. */
    int copy = interned ? 0 : 1;
    for (size_t len = 0; len <= smax + 8; len++) {
        bool fits = smax && len <= smax;
        CHECK_EQ(string_copy_allocs(len), ((fits ? 1 : 2) + tax) * copy);
    }
    if (smax) {
        CHECK_EQ(string_copy_allocs(smax), (1 + tax) * copy);
        CHECK_EQ(string_copy_allocs(smax + 1), (2 + tax) * copy);
    }
    if (interned) {
        test_interning(smax);
    }

    /* Arrays: the node plus the elements, plus a vector unless inline. */
    for (size_t n = 1; n <= amax + 3; n++) {
        bool fits = amax && n <= amax;
        CHECK_EQ(array_copy_allocs(n), 1 + n + (fits ? 0 : 1));
    }
    CHECK_EQ(array_copy_allocs(0), 1);

    /* The json_array_create_N() constructors. */
    struct json *a;
    uint64_t calls = ALLOCS(a = json_array_create_3(NULL, NULL, NULL));
    CHECK_EQ(calls, amax >= 3 ? 1 : 2);
    CHECK_EQ(json_array_size(a), 3);
    /* Elements are NULL here: pop them before destroying. */
    while (json_array_size(a)) {
        CHECK(json_array_pop(a) == NULL);
    }
    json_destroy(a);

    /* Parsed arrays end up inline when small (trimmed at the end). */
    static const char *docs[] = { "[[1]]", "[[1,2]]", "[[1,2,3]]",
                                  "[[1,2,3,4]]", "[[]]" };
    for (size_t i = 0; i < ARRAY_SIZE(docs); i++) {
        struct json *doc = parse(docs[i]);
        const struct json *inner = json_array_at(doc, 0);
        size_t n = json_array_size(inner);
        struct json *copy;
        calls = ALLOCS(copy = json_deep_clone(inner));
        CHECK_EQ(calls, 1 + n + (n && (!amax || n > amax) ? 1 : 0));
        json_destroy(copy);
        char *s = json_to_string(doc, 0);
        CHECK_STREQ(s, docs[i]);
        xfree(s);
        json_destroy(doc);
    }

    /* Strings round-trip exactly on both sides of the inline limit. */
    char *s_fit = xmalloc(smax + 2);
    for (size_t i = 0; i <= smax; i++) {
        s_fit[i] = 'a' + i % 26;
    }
    s_fit[smax + 1] = '\0';
    char *s_over = xstrdup(s_fit);      /* smax + 1 bytes. */
    s_fit[smax] = '\0';                 /* smax bytes. */
    struct json *j_fit = json_string_create(s_fit);
    struct json *j_over = json_string_create(s_over);
    CHECK_STREQ(json_string(j_fit), s_fit);
    CHECK_STREQ(json_string(j_over), s_over);
    CHECK(!json_equal(j_fit, j_over));
    json_destroy(j_fit);
    json_destroy(j_over);
    xfree(s_fit);
    xfree(s_over);

    /* _nocopy with a short string: the buffer is freed, content kept. */
    char *buf = xstrdup("short");
    uint64_t frees = xalloc_stats.frees;
    struct json *j = json_string_create_nocopy(buf);
    CHECK_EQ(xalloc_stats.frees - frees,
             (smax || has_feature("sized-strings") ? 1 : 0) + tax);
    CHECK_STREQ(json_string(j), "short");
    json_destroy(j);

    /* json_string_create_len() copies exactly 'len' bytes. */
    j = json_string_create_len("abcdef", 3);
    CHECK_STREQ(json_string(j), "abc");
    json_destroy(j);
    j = json_string_create_len("0123456789012345678901234567890123", 30);
    CHECK_STREQ(json_string(j), "012345678901234567890123456789");
    json_destroy(j);
}

static void
test_serialized(void)
{
    const char *inner_text = "{\"name\":\"r1\",\"n\":[1,2,3,4],\"x\":1.5}";
    struct json *tree = parse(inner_text);
    char *tree_text = json_to_string(tree, 0);

    struct json *ser = json_serialized_object_create(tree);
    if (info->serialized) {
        CHECK_EQ(json_get_type(ser), JSON_SERIALIZED_OBJECT);
        CHECK_STREQ(json_serialized_object(ser), tree_text);
    } else {
        CHECK_EQ(json_get_type(ser), JSON_OBJECT);
        CHECK(json_equal(ser, tree));
    }
    CHECK_STREQ(json_type_to_string(JSON_SERIALIZED_OBJECT),
                "serialized object");

    /* Inside a larger tree, the same output as the plain tree. */
    struct json *with_ser = json_object_create();
    json_object_put(with_ser, "row", ser);
    json_object_put(with_ser, "list",
                    json_array_create_2(json_integer_create(1),
                                        json_clone(ser)));
    struct json *with_tree = json_object_create();
    json_object_put(with_tree, "row", json_clone(tree));
    json_object_put(with_tree, "list",
                    json_array_create_2(json_integer_create(1),
                                        json_clone(tree)));
    char *a = json_to_string(with_ser, 0);
    char *b = json_to_string(with_tree, 0);
    CHECK_STREQ(a, b);
    xfree(a);
    xfree(b);
    /* Sorted output agrees too when the serialized text was sorted. */
    a = json_to_string(with_ser, JSSF_SORT);
    b = json_to_string(with_tree, JSSF_SORT);
    if (info->serialized) {
        CHECK(strstr(a, tree_text) != NULL);    /* Pasted verbatim. */
    }
    xfree(a);
    xfree(b);
    json_destroy(with_ser);
    json_destroy(with_tree);

    /* From text, with and without copying, any JSON value. */
    static const char *texts[] = {
        "{\"a\":1}", "[1,\"x\",null]", "\"just a string\"", "42", "-1.5",
        "true", "null", "{}", "[]",
    };
    for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
        struct json *from = json_serialized_object_create_from_text(texts[i]);
        struct json *nocopy
            = json_serialized_object_create_nocopy(xstrdup(texts[i]));
        struct json *wrapped = json_array_create_2(from, nocopy);
        char *out = to_string_destroy(wrapped, 0);
        char *expected = xasprintf("[%s,%s]", texts[i], texts[i]);
        CHECK_STREQ(out, expected);
        xfree(out);
        xfree(expected);
    }

    /* Copies of serialized nodes. */
    struct json *s1 = json_serialized_object_create_from_text(inner_text);
    struct json *s2 = json_deep_clone(s1);
    struct json *s3 = json_clone(s1);
    CHECK(json_equal(s1, s2) && json_equal(s1, s3));
    CHECK_EQ(json_hash(s1, 0), json_hash(s2, 0));
    CHECK_EQ(json_refcount(s1), info->refcount ? 2 : 1);
    char *t2 = to_string_destroy(s2, 0);
    char *t3 = to_string_destroy(s3, 0);
    char *t1 = to_string_destroy(s1, 0);
    CHECK_STREQ(t1, t2);
    CHECK_STREQ(t1, t3);
    xfree(t1);
    xfree(t2);
    xfree(t3);

    xfree(tree_text);
    json_destroy(tree);
}

/* A document with every token kind, escapes, nesting and line breaks. */
static const char chunk_doc[] =
    "{\"name\": \"ovn-\\\"nb\\\"\\n\",\n"
    "  \"rows\": [1, -2, 3.25e2, 1E-2, 9223372036854775807, true, false,\n"
    "\tnull, \"\\u00e9\\ud83d\\ude00\", {\"k\": [[], {}, [\"\"]]}],\r\n"
    "  \"big\": 12345678901234567890, \"long\": \"a string longer than "
    "twenty-three bytes\"}  ";

static char *
parse_in_pieces(const char *doc, size_t len, const size_t *cuts,
                size_t n_cuts)
{
    struct json_parser *p = json_parser_create(JSPF_TRAILER);
    size_t pos = 0;
    for (size_t i = 0; i <= n_cuts; i++) {
        size_t end = i < n_cuts ? cuts[i] : len;
        CHECK_EQ(json_parser_feed(p, doc + pos, end - pos), end - pos);
        pos = end;
    }
    struct json *json = json_parser_finish(p);
    CHECK(json_get_type(json) == JSON_OBJECT);
    return to_string_destroy(json, JSSF_SORT);
}

/* A document with many strings, repeated ones, and repeated member names
 * whose earlier values hold strings: more strings than a parser may keep
 * in flight (compact interns them a few tokens late), and values it must
 * drop after taking them in.  Also numbers on both sides of the 18-digit
 * limit of compact's integer fast path. */
static void
test_many_strings(void)
{
    struct ds in = DS_EMPTY_INITIALIZER, want = DS_EMPTY_INITIALIZER;
    ds_put_cstr(&in, "[");
    ds_put_cstr(&want, "[");
    for (int i = 0; i < 50; i++) {
        ds_put_format(&in, "\"s%d\",", i % 7);
        ds_put_format(&want, "\"s%d\",", i % 7);
    }
    ds_put_cstr(&in, "{\"d\":\"x\",\"d\":[\"y\",\"s1\",\"y\"],\"e\":\"s2\","
                "\"d\":{\"f\":\"z\",\"f\":\"s3\"}},\"tail\",999999999999999999,"
                "-999999999999999999,9223372036854775807,"
                "-9223372036854775808,12,-0,0,\"s0\"]");
    ds_put_cstr(&want, "{\"d\":{\"f\":\"s3\"},\"e\":\"s2\"},\"tail\","
                "999999999999999999,-999999999999999999,9223372036854775807,"
                "-9223372036854775808,12,0,0,\"s0\"]");
    struct json *doc = parse(ds_cstr(&in));
    CHECK_EQ(json_integer(json_array_at(doc, 54)), INT64_MAX);
    CHECK_EQ(json_integer(json_array_at(doc, 55)), INT64_MIN);
    if (has_feature("interned")) {
        CHECK(json_array_at(doc, 0) == json_array_at(doc, 49));
        CHECK(json_array_at(doc, 0) == json_array_at(doc, 59));
        CHECK_EQ(json_refcount(json_array_at(doc, 0)), 9);
        CHECK_EQ(json_refcount(json_array_at(doc, 1)), 7);
    }
    CHECK_SERIALIZE(doc, JSSF_SORT, ds_cstr(&want));

    /* An error after many strings: the same message as anywhere, no leak. */
    ds_clear(&in);
    ds_put_cstr(&in, "[");
    for (int i = 0; i < 40; i++) {
        ds_put_format(&in, "\"t%d\",{\"k\":\"t%d\"},", i % 5, i);
    }
    ds_put_cstr(&in, "x]");
    char *error = parse_result(ds_cstr(&in), 0);
    char *expected = xasprintf("line 0, column %zu, byte %zu: invalid "
                               "keyword 'x'", in.length - 1, in.length - 1);
    CHECK_STREQ(error, expected);
    xfree(error);
    xfree(expected);
    ds_destroy(&in);
    ds_destroy(&want);
}

static void
test_chunked(void)
{
    size_t len = strlen(chunk_doc);
    char *whole = parse_result(chunk_doc, JSSF_SORT);
    CHECK(whole[0] == '{');

    /* Split in two at every byte, and in three at every pair of bytes. */
    for (size_t i = 0; i <= len; i++) {
        char *s = parse_in_pieces(chunk_doc, len, &i, 1);
        CHECK_STREQ(s, whole);
        xfree(s);
        for (size_t j = i; j <= len; j += 7) {
            size_t cuts[2] = { i, j };
            s = parse_in_pieces(chunk_doc, len, cuts, 2);
            CHECK_STREQ(s, whole);
            xfree(s);
        }
    }
    /* One byte at a time. */
    size_t cuts[sizeof chunk_doc];
    for (size_t i = 0; i < len; i++) {
        cuts[i] = i;
    }
    char *s = parse_in_pieces(chunk_doc, len, cuts, len);
    CHECK_STREQ(s, whole);
    xfree(s);
    xfree(whole);

    /* Without JSPF_TRAILER the parser stops after the top-level value, so
     * a stream can hold several documents. */
    const char *stream = "{\"a\":1} [2]";
    struct json_parser *p = json_parser_create(0);
    CHECK_EQ(json_parser_feed(p, stream, strlen(stream)), 7);
    CHECK(json_parser_is_done(p));
    CHECK_EQ(json_parser_feed(p, stream + 7, 4), 0);
    CHECK_SERIALIZE(json_parser_finish(p), 0, "{\"a\":1}");

    /* With it, trailing text is an error; trailing space is not. */
    CHECK_PARSE("{\"a\":1} [2]",
                "line 0, column 8, byte 8: trailing garbage at end of input");
    CHECK_PARSE(" \t\r\n[2] \n", "[2]");

    /* Abort frees a half-built tree. */
    p = json_parser_create(0);
    json_parser_feed(p, "{\"a\":[1,2,{\"b\":\"c", 17);
    CHECK(!json_parser_is_done(p));
    json_parser_abort(p);
    json_parser_abort(NULL);
}

static void
test_errors(void)
{
    static const struct {
        const char *input, *error;
    } cases[] = {
        { "", "line 0, column 0, byte 0: empty input stream" },
        { "   ", "line 0, column 3, byte 3: empty input stream" },
        { "[1,\n 2,\n x]", "line 2, column 2, byte 10: invalid keyword 'x'" },
        { "[1,]", "line 0, column 3, byte 3: syntax error expecting value" },
        { "{\"a\" 1}", "line 0, column 6, byte 6: syntax error parsing "
          "object expecting ':'" },
        { "{1:2}", "line 0, column 2, byte 2: syntax error parsing object "
          "expecting string" },
        { "{\"a\":1,}", "line 0, column 7, byte 7: syntax error parsing "
          "object expecting string" },
        { "{\"a\":1 \"b\"}", "line 0, column 9, byte 9: syntax error "
          "expecting '}' or ','" },
        { "[1 2]", "line 0, column 4, byte 4: syntax error expecting ']' "
          "or ','" },
        { "\"abc\"", "line 0, column 4, byte 4: syntax error at beginning "
          "of input" },
        { "7", "line 0, column 1, byte 1: syntax error at beginning of "
          "input" },
        { "[1] [", "line 0, column 4, byte 4: trailing garbage at end of "
          "input" },
        { "[1] x", "line 0, column 5, byte 5: invalid keyword 'x'" },
        { "[\"abc", "line 0, column 5, byte 5: unexpected end of input in "
          "quoted string" },
        /* A number or keyword still open at the end is ended by a space
         * that counts as input (OVS feeds one), so the position is one
         * past the last byte; a white space byte ends it for real. */
        { "[1", "line 0, column 3, byte 3: unexpected end of input" },
        { "[true", "line 0, column 6, byte 6: unexpected end of input" },
        { "{\"a\":-1.5", "line 0, column 10, byte 10: unexpected end of "
          "input" },
        { "[1\n", "line 1, column 0, byte 3: unexpected end of input" },
        { "[1e", "line 0, column 3, byte 3: exponent must contain at least "
          "one digit" },
        { "{\"a\":", "line 0, column 5, byte 5: unexpected end of input" },
        { "[\x01]", "line 0, column 1, byte 1: invalid character U+0001" },
        { "[\xff]", "line 0, column 1, byte 1: invalid character U+00ff" },
        { "[#]", "line 0, column 1, byte 1: invalid character '#'" },
        { "[True]", "line 0, column 1, byte 1: invalid character 'T'" },
        { "[tru]", "line 0, column 4, byte 4: invalid keyword 'tru'" },
        { "[nulls]", "line 0, column 6, byte 6: invalid keyword 'nulls'" },
        { "[\"a\tb\"]", "line 0, column 3, byte 3: U+0009 must be escaped "
          "in quoted string" },
        { "[\"\\x\"]", "line 0, column 4, byte 4: bad escape \\x" },
        { "[\"\\u0000\"]", "line 0, column 8, byte 8: null bytes not "
          "supported in quoted strings" },
        { "[\"\\u12\"]", "line 0, column 6, byte 6: quoted string ends "
          "within \\u escape" },
        { "[\"\\uzzzz\"]", "line 0, column 8, byte 8: malformed \\u escape" },
        { "[\"\\ud800\"]", "line 0, column 8, byte 8: malformed escaped "
          "surrogate pair" },
        { "[\"\\ud800\\u0041\"]", "line 0, column 14, byte 14: second half "
          "of escaped surrogate pair is not trailing surrogate" },
        { "[01]", "line 0, column 3, byte 3: leading zeros not allowed" },
        { "[-]", "line 0, column 2, byte 2: '-' must be followed by digit" },
        { "[1.]", "line 0, column 3, byte 3: decimal point must be "
          "followed by digit" },
        { "[1e]", "line 0, column 3, byte 3: exponent must contain at "
          "least one digit" },
        { "[1.2.3]", "line 0, column 6, byte 6: syntax error in number" },
        { "[1e400]", "line 0, column 6, byte 6: number outside valid "
          "range" },
        { "[1e99999999999]", "line 0, column 14, byte 14: exponent outside "
          "valid range" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        CHECK_PARSE(cases[i].input, cases[i].error);

        char *error = NULL;
        struct json *json = json_parse_buffer(cases[i].input,
                                              strlen(cases[i].input), &error);
        CHECK(json == NULL);
        CHECK(error && !strcmp(error, cases[i].error));
        xfree(error);
    }

    /* A NUL byte between tokens is just an invalid character. */
    char *error;
    CHECK(json_parse_buffer("[1,\0]", 5, &error) == NULL);
    CHECK_STREQ(error, "line 0, column 3, byte 3: invalid character U+0000");
    xfree(error);

    /* OVS quirks with NUL bytes, kept so messages match: a NUL continues a
     * number, which is then read up to the NUL ... */
    struct json *json = json_parse_buffer("[1\0]", 4, &error);
    CHECK(json && error == NULL);
    if (json) {
        char *s = json_to_string(json, 0);
        CHECK_STREQ(s, "[1]");
        xfree(s);
        json_destroy(json);
    }
    CHECK(json_parse_buffer("123\0", 4, &error) == NULL);
    CHECK_STREQ(error, "line 0, column 4, byte 4: syntax error at beginning "
                "of input");
    xfree(error);
    /* ... and a string is unescaped only up to a NUL, which can only follow
     * a backslash there. */
    CHECK(json_parse_buffer("[\"a\\n\\\0b\"]", 10, &error) == NULL);
    CHECK_STREQ(error, "line 0, column 8, byte 8: quoted string may not end "
                "with backslash");
    xfree(error);

    json = json_parse_buffer("[1] ", 4, &error);
    CHECK(json && error == NULL);
    json_destroy(json);

    json = json_from_file("/nonexistent/file.json");
    CHECK_EQ(json_get_type(json), JSON_STRING);
    CHECK(strstr(json_string(json), "error opening") != NULL);
    json_destroy(json);
}

/* 'depth' containers: depth - 1 times 'open', then 'innermost', then
 * depth - 1 times 'close'. */
static char *
nested(const char *open, const char *innermost, const char *close,
       int depth)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    for (int i = 1; i < depth; i++) {
        ds_put_cstr(&ds, open);
    }
    ds_put_cstr(&ds, innermost);
    for (int i = 1; i < depth; i++) {
        ds_put_cstr(&ds, close);
    }
    return ds_steal_cstr(&ds);
}

static void
test_limits(void)
{
    char *ok = nested("[", "[]", "]", 1000);
    char *out = parse_result(ok, 0);
    CHECK_STREQ(out, ok);
    xfree(out);
    xfree(ok);

    char *too_deep = nested("[", "[]", "]", 1001);
    out = parse_result(too_deep, 0);
    CHECK_STREQ(out, "line 0, column 1000, byte 1000: input exceeds maximum "
                "nesting depth 1000");
    xfree(out);
    xfree(too_deep);

    ok = nested("{\"a\":", "{}", "}", 1000);
    out = parse_result(ok, 0);
    CHECK_STREQ(out, ok);
    xfree(out);
    xfree(ok);

    too_deep = nested("{\"a\":", "{}", "}", 1001);
    out = parse_result(too_deep, 0);
    CHECK(strstr(out, "input exceeds maximum nesting depth 1000") != NULL);
    xfree(out);
    xfree(too_deep);
}

static void
test_numbers(void)
{
    static const struct {
        const char *input;
        enum json_type type;
        const char *output;
    } cases[] = {
        { "[0]", JSON_INTEGER, "[0]" },
        { "[-0]", JSON_INTEGER, "[0]" },
        { "[-0.0]", JSON_INTEGER, "[0]" },
        { "[0e10]", JSON_INTEGER, "[0]" },
        { "[1]", JSON_INTEGER, "[1]" },
        { "[1.0]", JSON_INTEGER, "[1]" },
        { "[1.50e1]", JSON_INTEGER, "[15]" },
        { "[1e2]", JSON_INTEGER, "[100]" },
        { "[1E+2]", JSON_INTEGER, "[100]" },
        { "[0.1e1]", JSON_INTEGER, "[1]" },
        { "[1e18]", JSON_INTEGER, "[1000000000000000000]" },
        { "[9223372036854775807]", JSON_INTEGER, "[9223372036854775807]" },
        { "[-9223372036854775808]", JSON_INTEGER, "[-9223372036854775808]" },
        { "[9223372036854775808]", JSON_REAL, "[9.22337203685478e+18]" },
        { "[-9223372036854775809]", JSON_REAL, "[-9.22337203685478e+18]" },
        { "[18446744073709551615]", JSON_REAL, "[1.84467440737096e+19]" },
        { "[18446744073709551616]", JSON_REAL, "[1.84467440737096e+19]" },
        { "[18446744073709551617]", JSON_REAL, "[1.84467440737096e+19]" },
        { "[-18446744073709551619]", JSON_REAL, "[-1.84467440737096e+19]" },
        { "[0.18446744073709551619]", JSON_REAL, "[0.184467440737096]" },
        { "[1e19]", JSON_REAL, "[1e+19]" },
        { "[1.5]", JSON_REAL, "[1.5]" },
        { "[-2.25]", JSON_REAL, "[-2.25]" },
        { "[1e-2]", JSON_REAL, "[0.01]" },
        { "[0.1]", JSON_REAL, "[0.1]" },
        { "[1e-999]", JSON_REAL, "[0]" },
        { "[-1e-999]", JSON_REAL, "[0]" },
        { "[1.7976931348623157e308]", JSON_REAL, "[1.79769313486232e+308]" },
        { "[123456789.123456789]", JSON_REAL, "[123456789.123457]" },
        { "[3.141592653589793238462643383279]", JSON_REAL,
          "[3.14159265358979]" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        struct json *json = parse(cases[i].input);
        const struct json *n = json_array_at(json, 0);
        CHECK_EQ(json_get_type(n), cases[i].type);
        CHECK_SERIALIZE(json, 0, cases[i].output);
    }

    struct json *json = parse("[9223372036854775807,-9223372036854775808]");
    CHECK_EQ(json_integer(json_array_at(json, 0)), INT64_MAX);
    CHECK_EQ(json_integer(json_array_at(json, 1)), INT64_MIN);
    CHECK(json_real(json_array_at(json, 0)) == 9223372036854775807.0);
    json_destroy(json);

    /* Formatting of constructed numbers. */
    static const struct {
        double real;
        const char *output;
    } reals[] = {
        { 0.0, "0" }, { 100.0, "100" }, { 0.1, "0.1" }, { 1e300, "1e+300" },
        { 1e15, "1e+15" }, { 123456789012345.0, "123456789012345" },
        { 1.0 / 3, "0.333333333333333" }, { -2.5e-7, "-2.5e-07" },
        { 5e-324, "4.94065645841247e-324" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(reals); i++) {
        CHECK_SERIALIZE(json_real_create(reals[i].real), 0, reals[i].output);
    }
    CHECK_SERIALIZE(json_integer_create(LLONG_MIN), 0,
                    "-9223372036854775808");
    CHECK_SERIALIZE(json_integer_create(LLONG_MAX), 0,
                    "9223372036854775807");
    CHECK_SERIALIZE(json_integer_create(-7), 0, "-7");
    json = json_integer_create(3);
    CHECK(json_real(json) == 3.0);
    json_destroy(json);
}

static void
test_objects(void)
{
    struct json *obj = json_object_create();
    CHECK(json_object_is_empty(obj));

    struct json *value = json_string_create("first");
    struct json *keep = json_clone(value);
    json_object_put(obj, "k", value);
    CHECK(!json_object_is_empty(obj));
    /* Replacing destroys the old value (visible through the refcount). */
    json_object_put(obj, "k", json_integer_create(2));
    CHECK_EQ(json_refcount(keep), 1);
    CHECK_STREQ(json_string(keep), "first");
    json_destroy(keep);
    CHECK_EQ(json_integer(json_object_get(obj, "k")), 2);
    CHECK_EQ(shash_count(json_object(obj)), 1);

    json_object_put_nocopy(obj, xstrdup("k"), json_integer_create(3));
    json_object_put_nocopy(obj, xstrdup("n"), json_null_create());
    json_object_put_string(obj, "s", "str");
    json_object_put_format(obj, "f", "%d-%s", 42, "x");
    CHECK_EQ(shash_count(json_object(obj)), 4);
    CHECK_EQ(json_integer(json_object_get(obj, "k")), 3);
    CHECK_STREQ(json_string(json_object_get(obj, "s")), "str");
    CHECK_STREQ(json_string(json_object_get(obj, "f")), "42-x");
    CHECK(json_object_get(obj, "missing") == NULL);
    CHECK_SERIALIZE(obj, JSSF_SORT,
                    "{\"f\":\"42-x\",\"k\":3,\"n\":null,\"s\":\"str\"}");

    /* Duplicate keys when parsing: the last one wins. */
    CHECK_PARSE("{\"a\":1,\"b\":2,\"a\":[3]}", "{\"a\":[3],\"b\":2}");

    /* Unsorted order depends only on the keys, not on insertion order, so
     * it is the same in every impl and for every copy. */
    struct json *fwd = json_object_create(), *rev = json_object_create();
    char name[16];
    for (int i = 0; i < 100; i++) {
        snprintf(name, sizeof name, "key%d", i);
        json_object_put(fwd, name, json_integer_create(i));
        snprintf(name, sizeof name, "key%d", 99 - i);
        json_object_put(rev, name, json_integer_create(99 - i));
    }
    char *a = json_to_string(fwd, 0), *b = json_to_string(rev, 0);
    CHECK_STREQ(a, b);
    CHECK(json_equal(fwd, rev));
    CHECK_EQ(json_hash(fwd, 1), json_hash(rev, 1));
    xfree(a);
    xfree(b);
    json_destroy(fwd);
    json_destroy(rev);

    /* The shash underneath. */
    struct shash sh;
    shash_init(&sh);
    for (int i = 0; i < 1000; i++) {
        snprintf(name, sizeof name, "%04d", (i * 7919) % 1000);
        CHECK(shash_add_once(&sh, name, (void *) (intptr_t) i));
    }
    CHECK(!shash_add_once(&sh, "0000", NULL));
    CHECK_EQ(shash_count(&sh), 1000);
    const struct shash_node **sorted = shash_sort(&sh);
    for (int i = 0; i < 1000; i++) {
        snprintf(name, sizeof name, "%04d", i);
        CHECK_STREQ(sorted[i]->name, name);
    }
    xfree(sorted);
    CHECK(shash_find_len(&sh, "0012xyz", 4) == shash_find(&sh, "0012"));
    CHECK(shash_replace(&sh, "0012", (void *) 5) != NULL);
    CHECK(shash_find_data(&sh, "0012") == (void *) 5);
    CHECK(shash_find_and_delete(&sh, "0012") == (void *) 5);
    CHECK(shash_find(&sh, "0012") == NULL);
    size_t n = 0;
    struct shash_node *node;
    SHASH_FOR_EACH (node, &sh) {
        n++;
    }
    CHECK_EQ(n, 999);
    shash_destroy(&sh);
    CHECK(shash_is_empty(&sh));

    /* A one-bucket shash survives a move with shash_moved(). */
    struct shash *small = xmalloc(sizeof *small);
    shash_init(small);
    shash_add(small, "only", (void *) 1);
    struct shash *moved = xmemdup(small, sizeof *small);
    xfree(small);
    shash_moved(moved);
    CHECK(shash_find_data(moved, "only") == (void *) 1);
    shash_destroy(moved);
    xfree(moved);
}

static void
test_arrays(void)
{
    struct json *a = json_array_create_empty();
    for (int i = 0; i < 10; i++) {
        json_array_add(a, json_integer_create(i));
        CHECK_EQ(json_array_size(a), i + 1);
        for (int j = 0; j <= i; j++) {
            CHECK_EQ(json_integer(json_array_at(a, j)), j);
        }
    }
    json_array_trim(a);
    CHECK_SERIALIZE(json_clone(a), 0, "[0,1,2,3,4,5,6,7,8,9]");

    /* Pop down through the inline sizes and back up. */
    for (int i = 9; i >= 0; i--) {
        struct json *last = json_array_pop(a);
        CHECK_EQ(json_integer(last), i);
        json_destroy(last);
        CHECK_EQ(json_array_size(a), i);
        json_array_trim(a);
        CHECK_EQ(json_array_size(a), i);
    }
    CHECK(json_array_pop(a) == NULL);
    for (int i = 0; i < 5; i++) {
        json_array_add(a, json_string_create("x"));
    }
    CHECK_SERIALIZE(json_clone(a), 0, "[\"x\",\"x\",\"x\",\"x\",\"x\"]");

    /* Set replaces and destroys the old element (one reference less, also
     * when equal strings share a node). */
    struct json *old = json_clone(json_array_at(a, 2));
    size_t refs = json_refcount(old);
    json_array_set(a, 2, json_string_create("y"));
    CHECK_EQ(json_refcount(old), info->refcount ? refs - 1 : 1);
    json_destroy(old);
    CHECK(json_array_contains_string(a, "y"));
    CHECK(json_array_contains_string(a, "x"));
    CHECK(!json_array_contains_string(a, "z"));
    CHECK_SERIALIZE(a, 0, "[\"x\",\"x\",\"y\",\"x\",\"x\"]");

    /* json_array_create() takes the vector, for every size. */
    for (size_t n = 0; n <= 5; n++) {
        struct json **elems = n ? xmalloc(n * sizeof *elems) : NULL;
        for (size_t i = 0; i < n; i++) {
            elems[i] = json_integer_create(i);
        }
        struct json *arr = json_array_create(elems, n);
        CHECK_EQ(json_array_size(arr), n);
        for (size_t i = 0; i < n; i++) {
            CHECK_EQ(json_integer(json_array_at(arr, i)), i);
        }
        if (n) {
            json_array_set(arr, n - 1, json_null_create());
            CHECK_EQ(json_get_type(json_array_at(arr, n - 1)), JSON_NULL);
        }
        json_destroy(arr);
    }
    CHECK_SERIALIZE(json_array_create_1(json_integer_create(1)), 0, "[1]");
    CHECK_SERIALIZE(json_array_create_2(json_integer_create(1),
                                        json_null_create()), 0, "[1,null]");
    CHECK_SERIALIZE(json_array_create_3(json_integer_create(1),
                                        json_null_create(),
                                        json_boolean_create(true)),
                    0, "[1,null,true]");
    /* Adding to a json_array_create_3() array moves it to the heap. */
    a = json_array_create_3(json_integer_create(1), json_integer_create(2),
                            json_integer_create(3));
    json_array_add(a, json_integer_create(4));
    json_array_add(a, json_integer_create(5));
    CHECK_SERIALIZE(a, 0, "[1,2,3,4,5]");
}

static void
test_equal_hash(void)
{
    static const char *docs[] = {
        "[]", "{}", "[null]", "[true]", "[false]", "[1]", "[1.5]", "[\"\"]",
        "[\"a\"]", "[\"a string longer than twenty-three bytes\"]",
        "[1,2]", "[[1],2]", "[1,2,3,4]", "{\"a\":1}", "{\"a\":2}",
        "{\"b\":1}", "{\"a\":1,\"b\":2}", "[{\"a\":[1,2,3]}]",
    };
    for (size_t i = 0; i < ARRAY_SIZE(docs); i++) {
        struct json *x = parse(docs[i]);
        for (size_t j = 0; j < ARRAY_SIZE(docs); j++) {
            struct json *y = parse(docs[j]);
            CHECK_EQ(json_equal(x, y), i == j);
            if (i == j) {
                CHECK_EQ(json_hash(x, 3), json_hash(y, 3));
            } else {
                /* Not required, but a collision here would be suspicious. */
                CHECK(json_hash(x, 3) != json_hash(y, 3));
            }
            json_destroy(y);
        }
        json_destroy(x);
    }

    /* Key order does not matter; integer 1 and real 1.0 differ. */
    struct json *x = parse("{\"a\":1,\"b\":[true,null]}");
    struct json *y = parse("{\"b\":[true,null],\"a\":1}");
    CHECK(json_equal(x, y));
    CHECK_EQ(json_hash(x, 0), json_hash(y, 0));
    json_destroy(x);
    json_destroy(y);
    struct json *i1 = json_integer_create(1), *r1 = json_real_create(1.0);
    CHECK(!json_equal(i1, r1));
    json_destroy(i1);
    json_destroy(r1);
    struct json *z1 = json_real_create(0.0), *z2 = json_real_create(-0.0);
    CHECK(json_equal(z1, z2));
    CHECK_EQ(json_hash(z1, 0), json_hash(z2, 0));
    json_destroy(z1);
    json_destroy(z2);
}

static void
test_strings(void)
{
    /* Escaping: only '"', '\\' and bytes below 0x20. */
    struct ds ds = DS_EMPTY_INITIALIZER;
    char all[256];
    for (int i = 1; i < 256; i++) {
        all[i - 1] = i;
    }
    all[255] = '\0';
    json_string_escape(all, &ds);
    const char *expected_prefix =
        "\"\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n"
        "\\u000b\\f\\r\\u000e\\u000f\\u0010\\u0011\\u0012\\u0013\\u0014"
        "\\u0015\\u0016\\u0017\\u0018\\u0019\\u001a\\u001b\\u001c\\u001d"
        "\\u001e\\u001f !\\\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNO"
        "PQRSTUVWXYZ[\\\\]^_`abcdefghijklmnopqrstuvwxyz{|}~\x7f";
    CHECK(!strncmp(ds.string, expected_prefix, strlen(expected_prefix)));
    CHECK(!memcmp(ds.string + strlen(expected_prefix), all + 127, 128));
    CHECK_STREQ(ds.string + ds.length - 1, "\"");
    CHECK_EQ(ds.length, strlen(expected_prefix) + 128 + 1);

    /* And the parser reads that back to the same bytes. */
    char *doc = xasprintf("[%s]", ds.string);
    struct json *json = parse(doc);
    CHECK_STREQ(json_string(json_array_at(json, 0)), all);
    json_destroy(json);
    xfree(doc);
    ds_destroy(&ds);

    /* Unescaping. */
    static const struct {
        const char *in;
        bool ok;
        const char *out;
    } cases[] = {
        { "plain", true, "plain" },
        { "\\\"\\\\\\/\\b\\f\\n\\r\\t", true, "\"\\/\b\f\n\r\t" },
        { "\\u0041\\u00e9\\u20ac", true, "A\xc3\xa9\xe2\x82\xac" },
        { "\\ud83d\\ude00", true, "\xf0\x9f\x98\x80" },
        { "\\uDBFF\\uDFFF", true, "\xf4\x8f\xbf\xbf" },
        { "\\udc00", true, "\xed\xb0\x80" },   /* Lone trailing: kept. */
        { "\xff\xfe raw", true, "\xff\xfe raw" }, /* No UTF-8 checks. */
        { "\\ud800", false, "malformed escaped surrogate pair" },
        { "\\ud800x", false, "malformed escaped surrogate pair" },
        { "\\ud800\\u0041", false,
          "second half of escaped surrogate pair is not trailing surrogate" },
        { "\\u0000", false, "null bytes not supported in quoted strings" },
        { "\\u00", false, "quoted string ends within \\u escape" },
        { "\\u00g0", false, "malformed \\u escape" },
        { "\\q", false, "bad escape \\q" },
        { "a\"b", false, "quoted string may not include unescaped \"" },
        { "ab\\", false, "quoted string may not end with backslash" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        char *out;
        bool ok = json_string_unescape(cases[i].in, strlen(cases[i].in),
                                       &out);
        CHECK_EQ(ok, cases[i].ok);
        CHECK_STREQ(out, cases[i].out);
        xfree(out);
    }

    /* Invalid UTF-8 passes through the parser and serializer unchanged. */
    CHECK_PARSE("[\"\xc3\x28 \xed\xa0\x80 \xff\"]",
                "[\"\xc3\x28 \xed\xa0\x80 \xff\"]");
    CHECK_PARSE("[\"\\/\"]", "[\"/\"]");
}

static void
test_serializer(void)
{
    struct json *json = parse("{\"b\":{},\"a\":[1,[],{\"c\":\"d\"},[2]],"
                              "\"e\":\"x\"}");
    char *s = json_to_string(json, JSSF_SORT | JSSF_PRETTY);
    CHECK_STREQ(s,
                "{\n"
                "  \"a\": [\n"
                "    1,\n"
                "    [],\n"
                "    {\n"
                "      \"c\": \"d\"},\n"
                "    [\n"
                "      2]],\n"
                "  \"b\": {\n"
                "    },\n"
                "  \"e\": \"x\"}");
    xfree(s);
    s = json_to_string(json, JSSF_SORT);
    CHECK_STREQ(s, "{\"a\":[1,[],{\"c\":\"d\"},[2]],\"b\":{},\"e\":\"x\"}");
    xfree(s);

    /* json_to_ds() appends. */
    struct ds ds = DS_EMPTY_INITIALIZER;
    ds_put_cstr(&ds, "prefix:");
    json_to_ds(json, JSSF_SORT, &ds);
    CHECK_STREQ(ds_cstr(&ds),
                "prefix:{\"a\":[1,[],{\"c\":\"d\"},[2]],\"b\":{},\"e\":\"x\"}");
    ds_destroy(&ds);
    json_destroy(json);

    CHECK_SERIALIZE(json_object_create(), 0, "{}");
    CHECK_SERIALIZE(json_object_create(), JSSF_PRETTY, "{\n  }");
    CHECK_SERIALIZE(json_array_create_empty(), JSSF_PRETTY, "[]");
    CHECK_SERIALIZE(json_string_create("q\"\\\n\x01"), 0,
                    "\"q\\\"\\\\\\n\\u0001\"");
    CHECK_SERIALIZE(json_null_create(), 0, "null");
    CHECK_SERIALIZE(json_boolean_create(true), JSSF_PRETTY, "true");
    CHECK_SERIALIZE(json_boolean_create(false), 0, "false");

    /* Keys are escaped and sorted bytewise (unsigned). */
    json = json_object_create();
    json_object_put(json, "\xc3\xa9", json_integer_create(1));
    json_object_put(json, "z", json_integer_create(2));
    json_object_put(json, "A\n", json_integer_create(3));
    json_object_put(json, "", json_integer_create(4));
    CHECK_SERIALIZE(json, JSSF_SORT,
                    "{\"\":4,\"A\\n\":3,\"z\":2,\"\xc3\xa9\":1}");
}

static void
test_allocs(void)
{
    int tax = has_feature("regressed");
    /* "sized-strings": every string is in its node, one allocation. */
    bool inline_strings = (info->string_inline_max > 0
                           || has_feature("sized-strings"));
    struct json *json;
    /* With interning, a first string also allocates the table: keep one. */
    struct json *keep = json_string_create("keeps any intern table");

    CHECK_EQ(ALLOCS(json = json_integer_create(1)), 1);
    json_destroy(json);
    CHECK_EQ(ALLOCS(json = json_string_create("short")),
             (inline_strings ? 1 : 2) + tax);
    uint64_t frees = xalloc_stats.frees;
    json_destroy(json);
    CHECK_EQ(xalloc_stats.frees - frees, inline_strings ? 1 : 2);
    /* "object-in-node": the shash is part of the node. */
    CHECK_EQ(ALLOCS(json = json_object_create()),
             has_feature("object-in-node") ? 1 : 2);
    json_destroy(json);

    /* "sized-strings": a new string is one allocation of about its own
     * size, short or long. */
    if (has_feature("sized-strings")) {
        static const size_t lens[] = { 0, 5, 23, 40, 200 };
        for (size_t i = 0; i < ARRAY_SIZE(lens); i++) {
            char *text = xmalloc(lens[i] + 1);
            memset(text, 'q', lens[i]);
            text[lens[i]] = '\0';
            uint64_t bytes = xalloc_stats.bytes;
            CHECK_EQ(ALLOCS(json = json_string_create(text)), 1);
            CHECK(xalloc_stats.bytes - bytes <= lens[i] + 1 + 16);
            CHECK_STREQ(json_string(json), text);
            json_destroy(json);
            xfree(text);
        }
    }

    /* Parse allocation counts are deterministic: the same twice. */
    uint64_t first = ALLOCS(json_destroy(parse(chunk_doc)));
    uint64_t second = ALLOCS(json_destroy(parse(chunk_doc)));
    CHECK_EQ(first, second);
    CHECK(first > 0);

    /* Counted frees match for a tree built without reallocs (the
     * regression's extra allocation is freed at once, so it counts in both
     * columns). */
    uint64_t calls = xalloc_stats.calls;
    frees = xalloc_stats.frees;
    json = json_array_create_3(json_integer_create(1),
                               json_string_create("a string longer than "
                                                  "twenty-three bytes"),
                               json_null_create());
    json_destroy(json);
    CHECK_EQ(xalloc_stats.calls - calls, xalloc_stats.frees - frees);
    json_destroy(keep);

    printf("%s: parsing a %zu-byte document takes %llu allocations\n",
           info->name, strlen(chunk_doc), (unsigned long long) first);
}

/* A parsed tree changed after parsing, and parts of it kept past its root
 * (an arena impl's parsed nodes live and die with their tree's arena):
 * what the API hands out must stay valid and the rest must free cleanly
 * (run under ASan for the leak and use-after-free halves). */
static void
test_parsed_lifetime(void)
{
    struct json *doc = parse("{\"o\":{\"a\":1},\"v\":[1,2,3,4,5],"
                             "\"s\":[\"x\",\"y\"],\"n\":-7,"
                             "\"r\":2.5}");
    struct json *o = CONST_CAST(struct json *, json_object_get(doc, "o"));
    struct json *v = CONST_CAST(struct json *, json_object_get(doc, "v"));
    CHECK(o != NULL);

    /* Grow a parsed object past its table and a parsed array past its
     * vector, replace members and elements. */
    for (int i = 0; i < 40; i++) {
        char name[16];
        snprintf(name, sizeof name, "m%d", i);
        json_object_put(o, name, json_integer_create(i));
    }
    json_object_put(o, "a", json_string_create("replaced"));
    for (int i = 0; i < 40; i++) {
        json_array_add(v, json_integer_create(100 + i));
    }
    json_array_set(v, 0, json_string_create("first"));
    json_array_trim(v);
    CHECK_EQ(json_array_size(v), 45);
    CHECK_EQ(shash_count(json_object(o)), 41);

    /* Keep parts past the root: a clone of a container and of scalars,
     * and an element popped off a parsed array. */
    struct json *kept_o = json_clone(o);
    struct json *kept_n = json_clone(json_object_get(doc, "n"));
    struct json *kept_r = json_clone(json_object_get(doc, "r"));
    struct json *popped = json_array_pop(
        CONST_CAST(struct json *, json_object_get(doc, "s")));
    struct json *kept_s = json_clone(json_object_get(doc, "s"));
    char *before = json_to_string(kept_o, JSSF_SORT);
    json_destroy(doc);

    CHECK_EQ(json_integer(kept_n), -7);
    CHECK(json_real(kept_r) == 2.5);
    CHECK_STREQ(json_string(popped), "y");
    CHECK_EQ(json_array_size(kept_s), 1);
    CHECK_STREQ(json_string(json_array_at(kept_s, 0)), "x");
    char *after = json_to_string(kept_o, JSSF_SORT);
    CHECK_STREQ(after, before);
    CHECK_STREQ(json_string(json_object_get(kept_o, "a")), "replaced");
    /* The kept parts are ordinary trees: they change and free alone. */
    json_object_put(kept_o, "later", json_null_create());
    json_array_add(kept_s, json_clone(popped));
    CHECK_EQ(json_array_size(kept_s), 2);
    xfree(before);
    xfree(after);
    json_destroy(kept_o);
    json_destroy(kept_n);
    json_destroy(kept_r);
    json_destroy(kept_s);
    json_destroy(popped);

    /* A parse that fails part-way frees what it built. */
    struct json *err = json_from_string("{\"a\":[1,{\"b\":[2,3,4,5]},\"c\"],x");
    CHECK_EQ(json_get_type(err), JSON_STRING);
    json_destroy(err);
}

int
main(int argc, char *argv[])
{
    /* The built-in impls keep the layouts their reports describe (a new
     * impl needs no line here). */
    static const struct test_group groups[] = {
        { "impl-info", test_impl_info },
        { "clone", test_clone },
        { "inline", test_inline },
        { "serialized", test_serialized },
        { "chunked", test_chunked },
        { "many-strings", test_many_strings },
        { "parsed-lifetime", test_parsed_lifetime },
        { "errors", test_errors },
        { "limits", test_limits },
        { "numbers", test_numbers },
        { "objects", test_objects },
        { "arrays", test_arrays },
        { "equal-hash", test_equal_hash },
        { "strings", test_strings },
        { "serializer", test_serializer },
        { "allocs", test_allocs },
    };

    info = json_impl_info();
    return run_test_groups(argc, argv, groups, ARRAY_SIZE(groups),
                           info->name);
}
