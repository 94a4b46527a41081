/* Micro-benchmarks of the JSON API: one "<op>/<document>/<size>" benchmark
 * for every operation below and every generated document (micro-docs.h).
 *
 * What each reports, besides google-benchmark's times:
 *   bytes_per_second  document text bytes per second (for serialize*: bytes
 *                     of output produced);
 *   items_per_second  JSON values (nodes) per second;
 *   alloc_calls, alloc_bytes, frees
 *                     xalloc counts for ONE operation on the document,
 *                     measured outside the timed loop: deterministic, so a
 *                     gate can compare them exactly;
 *   doc_bytes, nodes, batch
 *                     the document's size, its node count, and how many
 *                     operations share one pause/resume of the timer.
 * Times are per operation on one document. */
#include "micro-bench.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gbench.h"
#include "json.h"
#include "micro-docs.h"
#include "shash.h"
#include "util.h"

struct micro_doc {
    enum micro_doc_kind kind;
    enum micro_doc_size size;
    char *text;                 /* NULL until first used. */
    size_t len;
    size_t n_nodes;
    int64_t batch;              /* Operations per timer pause. */
};

static struct micro_doc docs[MICRO_N_DOC_KINDS][MICRO_N_DOC_SIZES];

/* Benchmarks run grouped by document, so one parsed tree is kept for the
 * benchmarks that only read it (serialize, clone, equal, hash) instead of
 * parsing a 10 MB document again on every google-benchmark run. */
static struct micro_doc *tree_doc;
static struct json *tree;

/* Results go here so the compiler cannot drop the work. */
static volatile size_t sink;

static size_t
count_nodes(const struct json *json)
{
    size_t n = 1;

    switch (json_get_type(json)) {
    case JSON_OBJECT: {
        struct shash_node *node;
        SHASH_FOR_EACH (node, json_object(json)) {
            n += count_nodes(node->data);
        }
        break;
    }
    case JSON_ARRAY:
        for (size_t i = 0; i < json_array_size(json); i++) {
            n += count_nodes(json_array_at(json, i));
        }
        break;
    case JSON_NULL:
    case JSON_FALSE:
    case JSON_TRUE:
    case JSON_INTEGER:
    case JSON_REAL:
    case JSON_STRING:
    case JSON_N_TYPES:
    case JSON_SERIALIZED_OBJECT:
    default:
        break;
    }
    return n;
}

static struct json *
parse_doc(const struct micro_doc *doc)
{
    char *error = NULL;
    struct json *json = json_parse_buffer(doc->text, doc->len, &error);
    free(error);
    return json;
}

/* Makes 'doc' ready: text generated, tree parsed into the cache.  Returns
 * false, with the benchmark marked as failed, if the impl rejects it. */
static bool
doc_prepare(struct gb_state *st, struct micro_doc *doc)
{
    if (!doc->text) {
        doc->text = micro_doc_generate(doc->kind,
                                       micro_doc_size_target(doc->size),
                                       &doc->len);
        /* ~64 KB of documents per timer pause keeps the pause cost (a few
         * clock reads) well under 1% of the timed work. */
        doc->batch = doc->len >= 64000 ? 1 : (64000 + doc->len - 1) / doc->len;
    }
    if (tree_doc != doc) {
        json_destroy(tree);
        tree_doc = NULL;

        char *error = NULL;
        tree = json_parse_buffer(doc->text, doc->len, &error);
        if (!tree) {
            char *msg = xasprintf("generated %s/%s document rejected: %s",
                                  micro_doc_kind_name(doc->kind),
                                  micro_doc_size_name(doc->size),
                                  error ? error : "(no message)");
            gb_skip_with_error(st, msg);
            free(msg);
            free(error);
            return false;
        }
        tree_doc = doc;
        doc->n_nodes = count_nodes(tree);
    }
    return true;
}

/* Allocation counts of one operation, taken from xalloc_stats. */
struct alloc_probe {
    struct xalloc_stats before;
};

static void
alloc_probe_start(struct alloc_probe *probe)
{
    probe->before = xalloc_stats;
}

static void
alloc_probe_report(struct gb_state *st, const struct alloc_probe *probe)
{
    gb_set_counter(st, "alloc_calls",
                   (double) (xalloc_stats.calls - probe->before.calls),
                   GB_COUNTER_PLAIN);
    gb_set_counter(st, "alloc_bytes",
                   (double) (xalloc_stats.bytes - probe->before.bytes),
                   GB_COUNTER_PLAIN);
    gb_set_counter(st, "frees",
                   (double) (xalloc_stats.frees - probe->before.frees),
                   GB_COUNTER_PLAIN);
}

/* Sets the rates once the timed loop is over.  'bytes' is what one
 * operation processes. */
static void
report_rates(struct gb_state *st, const struct micro_doc *doc, size_t bytes,
             int64_t batch)
{
    int64_t n = gb_iterations(st);

    gb_set_bytes_processed(st, n * (int64_t) bytes);
    gb_set_items_processed(st, n * (int64_t) doc->n_nodes);
    gb_set_counter(st, "doc_bytes", (double) doc->len, GB_COUNTER_PLAIN);
    gb_set_counter(st, "nodes", (double) doc->n_nodes, GB_COUNTER_PLAIN);
    gb_set_counter(st, "batch", (double) batch, GB_COUNTER_PLAIN);
}

/* --- Operations --- */

static void
bench_parse(struct gb_state *st, struct micro_doc *doc)
{
    int64_t batch = doc->batch;
    struct json **trees = xmalloc(batch * sizeof *trees);
    struct alloc_probe probe;

    alloc_probe_start(&probe);
    struct json *one = parse_doc(doc);
    alloc_probe_report(st, &probe);
    json_destroy(one);

    while (gb_keep_running_batch(st, batch)) {
        for (int64_t i = 0; i < batch; i++) {
            trees[i] = parse_doc(doc);
        }
        gb_pause_timing(st);
        for (int64_t i = 0; i < batch; i++) {
            json_destroy(trees[i]);
        }
        gb_resume_timing(st);
    }
    report_rates(st, doc, doc->len, batch);
    free(trees);
}

/* Serializes 'json' as json_to_string() does in OVS: a fresh buffer each
 * time, so buffer growth is part of the cost. */
static void
bench_serialize_tree(struct gb_state *st, struct micro_doc *doc,
                     const struct json *json, int flags)
{
    struct alloc_probe probe;

    alloc_probe_start(&probe);
    char *s = json_to_string(json, flags);
    alloc_probe_report(st, &probe);
    size_t out_len = strlen(s);
    free(s);

    while (gb_keep_running(st)) {
        s = json_to_string(json, flags);
        sink += s[0];
        free(s);
    }
    report_rates(st, doc, out_len, 1);
    gb_set_counter(st, "out_bytes", (double) out_len, GB_COUNTER_PLAIN);
}

static void
bench_serialize(struct gb_state *st, struct micro_doc *doc)
{
    bench_serialize_tree(st, doc, tree, 0);
}

static void
bench_serialize_sorted(struct gb_state *st, struct micro_doc *doc)
{
    bench_serialize_tree(st, doc, tree, JSSF_SORT);
}

static void
bench_serialize_pretty(struct gb_state *st, struct micro_doc *doc)
{
    bench_serialize_tree(st, doc, tree, JSSF_PRETTY);
}

/* The document with every top-level member turned into a serialized object,
 * as OVSDB's monitor cache keeps rows: the serializer can paste them. */
static struct json *
make_cached_tree(const struct json *json)
{
    if (json_get_type(json) == JSON_ARRAY) {
        struct json *array = json_array_create_empty();
        for (size_t i = 0; i < json_array_size(json); i++) {
            json_array_add(array, json_serialized_object_create(
                               json_array_at(json, i)));
        }
        return array;
    } else {
        struct json *object = json_object_create();
        const struct shash_node **sorted = shash_sort(json_object(json));
        for (size_t i = 0; i < shash_count(json_object(json)); i++) {
            json_object_put(object, sorted[i]->name,
                            json_serialized_object_create(sorted[i]->data));
        }
        free(sorted);
        return object;
    }
}

static void
bench_serialize_cached(struct gb_state *st, struct micro_doc *doc)
{
    struct json *cached = make_cached_tree(tree);
    bench_serialize_tree(st, doc, cached, 0);
    json_destroy(cached);
}

/* Shared by clone and deep_clone: 'batch' copies per timer pause, destroyed
 * untimed. */
static void
bench_copy(struct gb_state *st, struct micro_doc *doc,
           struct json *(*copy)(const struct json *), int64_t batch)
{
    struct json **copies = xmalloc(batch * sizeof *copies);
    struct alloc_probe probe;

    alloc_probe_start(&probe);
    struct json *one = copy(tree);
    alloc_probe_report(st, &probe);
    json_destroy(one);

    while (gb_keep_running_batch(st, batch)) {
        for (int64_t i = 0; i < batch; i++) {
            copies[i] = copy(tree);
        }
        gb_pause_timing(st);
        for (int64_t i = 0; i < batch; i++) {
            json_destroy(copies[i]);
        }
        gb_resume_timing(st);
    }
    report_rates(st, doc, doc->len, batch);
    free(copies);
}

static void
bench_clone(struct gb_state *st, struct micro_doc *doc)
{
    /* A refcounted clone takes nanoseconds: batch more of them so the
     * timer pause does not dominate. */
    int64_t batch = doc->batch;
    if (json_impl_info()->refcount && batch < 1024) {
        batch = 1024;
    }
    bench_copy(st, doc, json_clone, batch);
}

static void
bench_deep_clone(struct gb_state *st, struct micro_doc *doc)
{
    bench_copy(st, doc, json_deep_clone, doc->batch);
}

/* Destroys trees freshly parsed (untimed), so the memory layout is the one a
 * server frees: the parser's. */
static void
bench_destroy(struct gb_state *st, struct micro_doc *doc)
{
    int64_t batch = doc->batch;
    struct json **trees = xmalloc(batch * sizeof *trees);
    struct alloc_probe probe;

    struct json *one = parse_doc(doc);
    alloc_probe_start(&probe);
    json_destroy(one);
    alloc_probe_report(st, &probe);

    while (gb_keep_running_batch(st, batch)) {
        gb_pause_timing(st);
        for (int64_t i = 0; i < batch; i++) {
            trees[i] = parse_doc(doc);
        }
        gb_resume_timing(st);
        for (int64_t i = 0; i < batch; i++) {
            json_destroy(trees[i]);
        }
    }
    report_rates(st, doc, doc->len, batch);
    free(trees);
}

static void
bench_equal(struct gb_state *st, struct micro_doc *doc)
{
    /* A separate copy: comparing a tree with itself could stop at the
     * pointer check. */
    struct json *copy = json_deep_clone(tree);
    struct alloc_probe probe;

    alloc_probe_start(&probe);
    bool equal = json_equal(tree, copy);
    alloc_probe_report(st, &probe);
    if (!equal) {
        gb_skip_with_error(st, "json_equal(tree, json_deep_clone(tree)) "
                           "is false");
        json_destroy(copy);
        return;
    }

    while (gb_keep_running(st)) {
        sink += json_equal(tree, copy);
    }
    report_rates(st, doc, doc->len, 1);
    json_destroy(copy);
}

static void
bench_hash(struct gb_state *st, struct micro_doc *doc)
{
    struct alloc_probe probe;

    alloc_probe_start(&probe);
    sink += json_hash(tree, 0);
    alloc_probe_report(st, &probe);

    while (gb_keep_running(st)) {
        sink += json_hash(tree, 0);
    }
    report_rates(st, doc, doc->len, 1);
}

struct micro_op {
    const char *name;
    void (*run)(struct gb_state *, struct micro_doc *);
};

static const struct micro_op ops[] = {
    { "parse", bench_parse },
    { "serialize", bench_serialize },
    { "serialize_sorted", bench_serialize_sorted },
    { "serialize_pretty", bench_serialize_pretty },
    { "serialize_cached", bench_serialize_cached },
    { "clone", bench_clone },
    { "deep_clone", bench_deep_clone },
    { "destroy", bench_destroy },
    { "equal", bench_equal },
    { "hash", bench_hash },
};

struct micro_case {
    const struct micro_op *op;
    struct micro_doc *doc;
};

static struct micro_case cases[ARRAY_SIZE(ops) * MICRO_N_DOC_KINDS
                               * MICRO_N_DOC_SIZES];

static void
run_case(struct gb_state *st, void *case_)
{
    struct micro_case *c = case_;

    if (doc_prepare(st, c->doc)) {
        c->op->run(st, c->doc);
    }
}

void
micro_register_all(void)
{
    size_t n = 0;

    /* Grouped by document, so the cached tree is reused. */
    for (int size = 0; size < MICRO_N_DOC_SIZES; size++) {
        for (int kind = 0; kind < MICRO_N_DOC_KINDS; kind++) {
            struct micro_doc *doc = &docs[kind][size];
            doc->kind = kind;
            doc->size = size;
            for (size_t i = 0; i < ARRAY_SIZE(ops); i++) {
                struct micro_case *c = &cases[n++];
                c->op = &ops[i];
                c->doc = doc;

                char *name = xasprintf("%s/%s/%s", ops[i].name,
                                       micro_doc_kind_name(kind),
                                       micro_doc_size_name(size));
                struct gb_benchmark *b = gb_register(name, run_case, c);
                gb_benchmark_unit(b, size == MICRO_DOC_LARGE ? GB_MS : GB_US);
                free(name);
            }
        }
    }
}

void
micro_cleanup(void)
{
    json_destroy(tree);
    tree = NULL;
    tree_doc = NULL;
    for (int kind = 0; kind < MICRO_N_DOC_KINDS; kind++) {
        for (int size = 0; size < MICRO_N_DOC_SIZES; size++) {
            free(docs[kind][size].text);
            docs[kind][size].text = NULL;
        }
    }
}
