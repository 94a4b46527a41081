/* The counting allocator's memory breakdown, exact on known sequences: live
 * bytes (malloc_usable_size) and blocks per category through malloc,
 * calloc, realloc, retag and free; sums equal totals; the peak; blocks
 * allocated before the breakdown was on; and the categories the impl's
 * JSON tree gives its nodes, strings, arrays and objects.  Linked with
 * every impl. */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "util.h"

static int failures;

#define CHECK_EQ(A, B)                                                  \
    do {                                                                \
        long long a_ = (long long) (A), b_ = (long long) (B);           \
        if (a_ != b_) {                                                 \
            failures++;                                                 \
            fprintf(stderr, "%s:%d: CHECK failed: %s == %s (%lld vs %lld)\n", \
                    __FILE__, __LINE__, #A, #B, a_, b_);                \
        }                                                               \
    } while (0)

static struct xalloc_breakdown
live(void)
{
    struct xalloc_breakdown b;
    xalloc_breakdown_get(&b, NULL);
    return b;
}

/* Every category and the totals agree with each other. */
static void
check_sums(void)
{
    struct xalloc_breakdown l, p;
    xalloc_breakdown_get(&l, &p);
    for (int w = 0; w < 2; w++) {
        const struct xalloc_breakdown *b = w ? &p : &l;
        uint64_t bytes = 0, blocks = 0;
        for (int c = 0; c < N_XALLOC_CATEGORIES; c++) {
            bytes += b->bytes[c];
            blocks += b->blocks[c];
        }
        CHECK_EQ(bytes, b->total_bytes);
        if (!w) {
            CHECK_EQ(blocks, b->total_blocks);
        }
    }
}

/* The raw allocator: one known sequence, every figure exact. */
static void
test_sequence(void)
{
    void *before = xmalloc(64);     /* Not tracked: allocated while off. */
    struct xalloc_breakdown_health h0, h;

    xalloc_breakdown_enable();
    xalloc_breakdown_health(&h0);
    struct xalloc_breakdown b = live();
    CHECK_EQ(b.total_bytes, 0);
    CHECK_EQ(b.total_blocks, 0);

    char *s;
    XALLOC_TAGGED(XALLOC_STRING, s = xmalloc(100));
    size_t s_size = malloc_usable_size(s);
    b = live();
    CHECK_EQ(b.bytes[XALLOC_STRING], s_size);
    CHECK_EQ(b.blocks[XALLOC_STRING], 1);
    CHECK_EQ(b.blocks[XALLOC_OTHER], 0);

    /* Untagged code counts as other; calloc and strdup too. */
    char *o = xstrdup("other");
    long *m;
    XALLOC_TAGGED(XALLOC_MODEL, m = xcalloc(10, sizeof *m));
    b = live();
    CHECK_EQ(b.bytes[XALLOC_OTHER], malloc_usable_size(o));
    CHECK_EQ(b.bytes[XALLOC_MODEL], malloc_usable_size(m));
    CHECK_EQ(b.total_blocks, 3);

    /* realloc keeps the block's category whatever the current one. */
    XALLOC_TAGGED(XALLOC_OBJECT, s = xrealloc(s, 5000));
    b = live();
    CHECK_EQ(b.bytes[XALLOC_STRING], malloc_usable_size(s));
    CHECK_EQ(b.blocks[XALLOC_STRING], 1);
    CHECK_EQ(b.blocks[XALLOC_OBJECT], 0);
    uint64_t peak_expected = b.total_bytes;

    /* realloc of NULL is a fresh block of the current category. */
    void **a = NULL;
    XALLOC_TAGGED(XALLOC_ARRAY, a = xrealloc(a, 3 * sizeof *a));
    b = live();
    CHECK_EQ(b.bytes[XALLOC_ARRAY], malloc_usable_size(a));
    peak_expected = b.total_bytes;

    /* Retagging moves the bytes, not the totals. */
    xalloc_retag(m, XALLOC_INDEX);
    b = live();
    CHECK_EQ(b.bytes[XALLOC_MODEL], 0);
    CHECK_EQ(b.blocks[XALLOC_MODEL], 0);
    CHECK_EQ(b.bytes[XALLOC_INDEX], malloc_usable_size(m));
    CHECK_EQ(b.total_bytes, peak_expected);
    check_sums();

    /* Shrinking: the peak stays where it was. */
    xfree(s);
    b = live();
    CHECK_EQ(b.bytes[XALLOC_STRING], 0);
    struct xalloc_breakdown p;
    xalloc_breakdown_get(NULL, &p);
    CHECK_EQ(p.total_bytes, peak_expected);
    xalloc_breakdown_reset_peak();
    xalloc_breakdown_get(NULL, &p);
    CHECK_EQ(p.total_bytes, b.total_bytes);
    check_sums();

    /* A block from before is freed without disturbing the counts. */
    xfree(before);
    xalloc_breakdown_health(&h);
    CHECK_EQ(h.untracked_frees, h0.untracked_frees + 1);
    CHECK_EQ(live().total_bytes, b.total_bytes);

    xfree(o);
    xfree(m);
    xfree(a);
    xfree(NULL);
    b = live();
    CHECK_EQ(b.total_bytes, 0);
    CHECK_EQ(b.total_blocks, 0);
    for (int c = 0; c < N_XALLOC_CATEGORIES; c++) {
        CHECK_EQ(b.bytes[c], 0);
        CHECK_EQ(b.blocks[c], 0);
    }

    /* Many blocks: the side table grows and deletes keep every block
     * findable. */
    enum { N = 200000 };
    void **many = malloc(N * sizeof *many);
    uint64_t expected = 0;
    for (int i = 0; i < N; i++) {
        XALLOC_TAGGED(i % N_XALLOC_CATEGORIES,
                      many[i] = xmalloc(8 + i % 200));
        expected += malloc_usable_size(many[i]);
    }
    CHECK_EQ(live().total_bytes, expected);
    CHECK_EQ(live().total_blocks, N);
    check_sums();
    for (int i = 0; i < N; i += 2) {
        xfree(many[i]);
    }
    CHECK_EQ(live().total_blocks, N / 2);
    for (int i = 1; i < N; i += 2) {
        xfree(many[i]);
    }
    free(many);
    CHECK_EQ(live().total_bytes, 0);
    xalloc_breakdown_health(&h);
    CHECK_EQ(h.untracked_frees, h0.untracked_frees + 1);
    CHECK_EQ(h.stale, 0);
}

/* A block freed with plain free() is reported when its address comes back
 * (when it does: under ASan freed memory sits in quarantine). */
static void
test_stale(void)
{
    struct xalloc_breakdown_health h0, h;
    xalloc_breakdown_health(&h0);
    void *p = xmalloc(48);
    free(p);
    void *q = xmalloc(48);
    xalloc_breakdown_health(&h);
    CHECK_EQ(h.stale, h0.stale + (p == q));
    xfree(q);
}

/* The JSON tree's categories: exact block counts. */
static void
test_json(void)
{
    const struct json_impl_info *info = json_impl_info();
    /* Impls that size each node to hold its string (compact) have no
     * separate string blocks; those that embed the object's table in the
     * node have fewer object blocks. */
    const bool sized_strings = strstr(info->features, "sized-strings");
    const bool object_in_node = strstr(info->features, "object-in-node");
    /* "arena" itself: "arena-read-path" (ovs-arena) parses ordinary
     * documents on the heap. */
    const char *f = strstr(info->features, "arena");
    const bool arena = f && (f[5] == '\0' || f[5] == ',');
    const int string_block = sized_strings ? 0 : 1;
    struct xalloc_breakdown b0 = live(), b;
    const char *long_string = "a string longer than any inline string is";

    struct json *s = json_string_create(long_string);
    b = live();
    CHECK_EQ(b.blocks[XALLOC_JSON_NODE] - b0.blocks[XALLOC_JSON_NODE], 1);
    CHECK_EQ(b.bytes[XALLOC_JSON_NODE] - b0.bytes[XALLOC_JSON_NODE],
             malloc_usable_size(s));
    CHECK_EQ(b.blocks[XALLOC_STRING] - b0.blocks[XALLOC_STRING], string_block);
    CHECK_EQ(b.bytes[XALLOC_STRING] - b0.bytes[XALLOC_STRING],
             sized_strings ? 0 : malloc_usable_size(
                 CONST_CAST(char *, json_string(s))));
    CHECK_EQ(b.blocks[XALLOC_OTHER], b0.blocks[XALLOC_OTHER]);
    json_destroy(s);

    /* A caller's string handed over: string bytes from then on. */
    s = json_string_create_nocopy(xstrdup(long_string));
    b = live();
    CHECK_EQ(b.blocks[XALLOC_STRING] - b0.blocks[XALLOC_STRING], string_block);
    CHECK_EQ(b.blocks[XALLOC_OTHER], b0.blocks[XALLOC_OTHER]);
    json_destroy(s);

    /* Five elements: never inline, so one heap vector. */
    struct json *a = json_array_create_empty();
    for (int i = 0; i < 5; i++) {
        json_array_add(a, json_null_create());
    }
    b = live();
    CHECK_EQ(b.blocks[XALLOC_JSON_NODE] - b0.blocks[XALLOC_JSON_NODE], 6);
    CHECK_EQ(b.blocks[XALLOC_ARRAY] - b0.blocks[XALLOC_ARRAY], 1);
    CHECK_EQ(b.blocks[XALLOC_OTHER], b0.blocks[XALLOC_OTHER]);
    json_destroy(a);

    /* An object: its table, bucket array, member and name are the
     * object's; the values are nodes. */
    struct json *o = json_object_create();
    json_object_put(o, "name", json_integer_create(1));
    b = live();
    CHECK_EQ(b.blocks[XALLOC_JSON_NODE] - b0.blocks[XALLOC_JSON_NODE], 2);
    CHECK_EQ(b.blocks[XALLOC_OTHER], b0.blocks[XALLOC_OTHER]);
    CHECK_EQ(b.blocks[XALLOC_STRING], b0.blocks[XALLOC_STRING]);
    CHECK_EQ(b.blocks[XALLOC_OBJECT] - b0.blocks[XALLOC_OBJECT]
             >= (object_in_node ? 1 : 3), 1);
    json_destroy(o);

    /* A parsed document: nothing of the tree is "other", and its
     * serialization is string bytes. */
    struct json *doc = json_from_string(
        "{\"a\":[1,2,3,4,5],\"b\":\"a string longer than any inline one\","
        "\"c\":{\"d\":null}}");
    b = live();
    CHECK_EQ(b.blocks[XALLOC_OTHER], b0.blocks[XALLOC_OTHER]);
    CHECK_EQ(b.blocks[XALLOC_STRING] - b0.blocks[XALLOC_STRING], string_block);
    if (arena) {
        /* All in one arena chunk (and its registry), but the string,
         * interned on the heap. */
        CHECK_EQ(b.blocks[XALLOC_ARRAY] - b0.blocks[XALLOC_ARRAY], 0);
        CHECK_EQ(b.blocks[XALLOC_OBJECT] - b0.blocks[XALLOC_OBJECT], 0);
        CHECK_EQ(b.blocks[XALLOC_JSON_NODE] - b0.blocks[XALLOC_JSON_NODE], 3);
    } else {
        CHECK_EQ(b.blocks[XALLOC_ARRAY] - b0.blocks[XALLOC_ARRAY], 1);
        /* Two objects, an array, five numbers, a string, a null. */
        CHECK_EQ(b.blocks[XALLOC_JSON_NODE] - b0.blocks[XALLOC_JSON_NODE],
                 10);
    }
    struct xalloc_breakdown b1 = b;
    char *text = json_to_string(doc, JSSF_SORT);
    b = live();
    CHECK_EQ(b.blocks[XALLOC_STRING] - b1.blocks[XALLOC_STRING], 1);
    CHECK_EQ(b.blocks[XALLOC_OTHER], b1.blocks[XALLOC_OTHER]);
    xfree(text);
    json_destroy(doc);

    /* Short strings: inline ones are the node alone. */
    s = json_string_create("short");
    b = live();
    CHECK_EQ(b.blocks[XALLOC_STRING] - b0.blocks[XALLOC_STRING],
             info->string_inline_max >= 5 || sized_strings ? 0 : 1);
    json_destroy(s);

    b = live();
    CHECK_EQ(b.total_bytes, b0.total_bytes);
    CHECK_EQ(b.total_blocks, b0.total_blocks);
    check_sums();
}

int
main(void)
{
    test_sequence();
    test_stale();
    test_json();
    if (failures) {
        fprintf(stderr, "%s: %d check(s) failed\n", json_impl_info()->name,
                failures);
        return 1;
    }
    printf("%s: memory breakdown checks passed\n", json_impl_info()->name);
    return 0;
}
