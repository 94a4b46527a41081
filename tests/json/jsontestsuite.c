/* Runs one impl over JSONTestSuite.
 *
 * usage: jsontestsuite [--database] [--byte-strings] [--dump FILE] SUITE_DIR
 *
 * For every file of SUITE_DIR/test_parsing the outcome (accept or reject)
 * and, for a rejected file, the error message byte for byte must be what
 * SUITE_DIR/ovs-expected.tsv says OVS gives.  For every document
 * (test_transform too):
 *   - parsing it one byte at a time and in random-size chunks gives the same
 *     result (the same serialization, or the same error message);
 *   - an accepted document serializes, re-parses and re-serializes to
 *     identical bytes, compact, sorted and pretty;
 *   - clone and deep clone are equal to the original and hash alike.
 * --database parses with JSPF_DATABASE (the database read path, which an
 * impl may build differently, e.g. in an arena); the expectations are the
 * same.
 * --byte-strings adds JSPF_BYTE_STRINGS (strings lexed a byte at a time, as
 * OVS before 3.0): the same outcomes and messages.
 * --dump writes every outcome and serialization to FILE, so that a separate
 * test can check that all impls produce byte-identical output. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>

#include "ds.h"
#include "json.h"
#include "test-util.h"
#include "util.h"

/* Result of parsing: the tree's serialization with 'flags', or the error. */
static char *
outcome_text(struct json *json, bool *accepted)
{
    *accepted = json_get_type(json) != JSON_STRING;
    return *accepted ? json_to_string(json, JSSF_SORT)
                     : xstrdup(json_string(json));
}

/* Flags of the chunked parses (--database adds JSPF_DATABASE,
 * --byte-strings JSPF_BYTE_STRINGS). */
static int parser_flags = JSPF_TRAILER;

/* Parses 'doc' feeding chunks of sizes from 'next_chunk'. */
static struct json *
parse_chunked(const char *doc, size_t len, size_t (*next_chunk)(void))
{
    struct json_parser *p = json_parser_create(parser_flags);
    size_t pos = 0;
    while (pos < len) {
        size_t n = next_chunk();
        if (n > len - pos) {
            n = len - pos;
        }
        size_t used = json_parser_feed(p, doc + pos, n);
        if (used < n) {
            /* Only an error stops a JSPF_TRAILER parser early. */
            CHECK(json_parser_is_done(p));
            break;
        }
        pos += n;
    }
    return json_parser_finish(p);
}

static size_t
one_byte(void)
{
    return 1;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static size_t
random_chunk(void)
{
    /* xorshift64*: deterministic, so a failure reproduces. */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    uint64_t r = rng_state * 2685821657736338717ull;
    return 1 + (r >> 33) % ((r & 1) ? 7 : 300);
}

static char *
reserialize(const char *text, int flags)
{
    struct json *json = json_from_string(text);
    if (json_get_type(json) == JSON_STRING) {
        char *s = xasprintf("reparse failed: %s", json_string(json));
        json_destroy(json);
        return s;
    }
    char *s = json_to_string(json, flags);
    json_destroy(json);
    return s;
}

/* Checks that serializing with 'flags' is stable under a parse round trip. */
static void
check_round_trip(const char *name, const struct json *json, int flags,
                 FILE *dump)
{
    char *s1 = json_to_string(json, flags);
    char *s2 = reserialize(s1, flags);
    if (strcmp(s1, s2)) {
        test_failures++;
        fprintf(stderr, "%s: flags %d: round trip differs:\n  %.200s\n  "
                "%.200s\n", name, flags, s1, s2);
    }
    if (dump) {
        fprintf(dump, "%s\n", s1);
    }
    xfree(s1);
    xfree(s2);
}

static void
check_copies(const char *name, struct json *json)
{
    struct json *clone = json_clone(json);
    struct json *deep = json_deep_clone(json);
    if (!json_equal(json, clone) || !json_equal(json, deep)
        || json_hash(json, 7) != json_hash(deep, 7)) {
        test_failures++;
        fprintf(stderr, "%s: copies differ from the original\n", name);
    }
    /* Unsorted output is the same for copies too (deterministic order). */
    char *a = json_to_string(json, 0), *b = json_to_string(deep, 0);
    if (strcmp(a, b)) {
        test_failures++;
        fprintf(stderr, "%s: deep copy serializes differently\n", name);
    }
    xfree(a);
    xfree(b);
    json_destroy(clone);
    json_destroy(deep);
}

/* Runs every check on one document.  Returns whether it was accepted; if
 * not, stores the error message in '*errorp' (the caller frees it). */
static bool
check_document(const char *name, const char *path, FILE *dump,
               char **errorp)
{
    size_t len;
    char *doc = read_file(path, &len);
    char *error;
    bool accepted;

    struct json *json = json_parse_buffer(doc, len, &error);
    accepted = json != NULL;
    char *whole = accepted ? json_to_string(json, JSSF_SORT) : xstrdup(error);

    static const struct {
        const char *what;
        size_t (*next_chunk)(void);
    } splits[] = {
        { "one byte at a time", one_byte },
        { "random chunks #1", random_chunk },
        { "random chunks #2", random_chunk },
    };
    /* json_from_file() reads through a stdio stream: same result. */
    {
        bool ok;
        struct json *from_file = json_from_file(path);
        char *text = outcome_text(from_file, &ok);
        if (ok != accepted || strcmp(text, whole)) {
            test_failures++;
            fprintf(stderr, "%s: json_from_file() gives a different result:"
                    "\n  %.200s\n  %.200s\n", name, text, whole);
        }
        xfree(text);
        json_destroy(from_file);
    }

    for (size_t i = 0; i < ARRAY_SIZE(splits); i++) {
        bool ok;
        struct json *chunked = parse_chunked(doc, len, splits[i].next_chunk);
        char *text = outcome_text(chunked, &ok);
        if (ok != accepted || strcmp(text, whole)) {
            test_failures++;
            fprintf(stderr, "%s: parsed %s gives a different result:\n"
                    "  %.200s\n  %.200s\n", name, splits[i].what, text,
                    whole);
        }
        xfree(text);
        json_destroy(chunked);
    }

    if (dump) {
        fprintf(dump, "== %s\t%s\n", name, accepted ? "accept" : "reject");
        if (!accepted) {
            fprintf(dump, "%s\n", error);
        }
    }
    if (accepted) {
        check_round_trip(name, json, 0, dump);
        check_round_trip(name, json, JSSF_SORT, dump);
        check_round_trip(name, json, JSSF_SORT | JSSF_PRETTY, dump);
        check_copies(name, json);
    }

    json_destroy(json);
    *errorp = error;
    xfree(whole);
    xfree(doc);
    return accepted;
}

/* Decodes the escapes of ovs-expected.tsv's message column in place:
 * "\\", "\t", "\n", "\r" and "\xHH".  Returns false if 's' holds a
 * malformed escape. */
static bool
unescape_tsv(char *s)
{
    char *out = s;
    while (*s) {
        if (*s != '\\') {
            *out++ = *s++;
            continue;
        }
        s++;
        switch (*s++) {
        case '\\':
            *out++ = '\\';
            break;
        case 't':
            *out++ = '\t';
            break;
        case 'n':
            *out++ = '\n';
            break;
        case 'r':
            *out++ = '\r';
            break;
        case 'x': {
            int hi = hexit_value(s[0]);
            int lo = hi < 0 ? -1 : hexit_value(s[1]);
            if (lo < 0 || (hi == 0 && lo == 0)) {
                return false;
            }
            *out++ = hi * 16 + lo;
            s += 2;
            break;
        }
        default:
            return false;
        }
    }
    *out = '\0';
    return true;
}

static int
compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *) a, *(char *const *) b);
}

/* Returns the sorted names of the regular files in 'dir'. */
static char **
list_dir(const char *dir, size_t *np)
{
    DIR *d = opendir(dir);
    if (!d) {
        ovs_fatal(0, "%s: cannot open directory", dir);
    }
    char **names = NULL;
    size_t n = 0, allocated = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.') {
            continue;
        }
        if (n >= allocated) {
            allocated = allocated ? 2 * allocated : 64;
            names = xrealloc(names, allocated * sizeof *names);
        }
        names[n++] = xstrdup(de->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, compare_strings);
    *np = n;
    return names;
}

int
main(int argc, char *argv[])
{
    const char *dump_name = NULL;
    FILE *dump = NULL;
    int i = 1;

    if (argc > i + 1 && !strcmp(argv[i], "--database")) {
        parser_flags |= JSPF_DATABASE;
        i++;
    }
    if (argc > i + 1 && !strcmp(argv[i], "--byte-strings")) {
        parser_flags |= JSPF_BYTE_STRINGS;
        i++;
    }
    if (argc > i + 2 && !strcmp(argv[i], "--dump")) {
        dump_name = argv[i + 1];
        i += 2;
    }
    if (argc != i + 1) {
        fprintf(stderr, "usage: %s [--database] [--dump FILE] SUITE_DIR\n",
                argv[0]);
        return 2;
    }
    const char *suite = argv[i];
    if (dump_name) {
        dump = fopen(dump_name, "w");
        if (!dump) {
            ovs_fatal(0, "%s: cannot create", dump_name);
        }
    }

    /* test_parsing against OVS's measured outcomes. */
    char *tsv_name = xasprintf("%s/ovs-expected.tsv", suite);
    size_t tsv_len;
    char *tsv = read_file(tsv_name, &tsv_len);
    size_t n_docs = 0, n_accepted = 0, n_mismatch = 0, n_msg_mismatch = 0;
    int line_number = 0;
    for (char *line = strtok(tsv, "\n"); line; line = strtok(NULL, "\n")) {
        /* name<TAB>accept|reject<TAB>message (empty when accepted). */
        char *tab1 = strchr(line, '\t');
        char *tab2 = tab1 ? strchr(tab1 + 1, '\t') : NULL;
        line_number++;
        if (!tab2) {
            ovs_fatal(0, "%s:%d: expected 3 tab-separated columns",
                      tsv_name, line_number);
        }
        *tab1 = *tab2 = '\0';
        const char *name = line;
        char *expect_msg = tab2 + 1;
        bool expect_accept = !strcmp(tab1 + 1, "accept");
        if ((!expect_accept && strcmp(tab1 + 1, "reject"))
            || expect_accept != !*expect_msg || !unescape_tsv(expect_msg)) {
            ovs_fatal(0, "%s:%d: bad outcome or message for \"%s\"",
                      tsv_name, line_number, name);
        }

        char *path = xasprintf("%s/test_parsing/%s", suite, name);
        char *error;
        bool accepted = check_document(name, path, dump, &error);
        if (accepted != expect_accept) {
            n_mismatch++;
            test_failures++;
            fprintf(stderr, "%s: %s, but OVS %ss it\n", name,
                    accepted ? "accepted" : "rejected",
                    expect_accept ? "accept" : "reject");
        } else if (!accepted && strcmp(error, expect_msg)) {
            n_msg_mismatch++;
            test_failures++;
            fprintf(stderr, "%s: error message differs from OVS's:\n"
                    "  got:      %s\n  expected: %s\n", name, error,
                    expect_msg);
        }
        n_docs++;
        n_accepted += accepted;
        xfree(error);
        xfree(path);
    }
    xfree(tsv);
    xfree(tsv_name);

    /* Every file of test_parsing must be listed. */
    char *parsing_dir = xasprintf("%s/test_parsing", suite);
    size_t n_files;
    char **files = list_dir(parsing_dir, &n_files);
    if (n_files != n_docs) {
        test_failures++;
        fprintf(stderr, "%zu files in %s but %zu expectations\n", n_files,
                parsing_dir, n_docs);
    }
    for (size_t k = 0; k < n_files; k++) {
        xfree(files[k]);
    }
    xfree(files);
    xfree(parsing_dir);

    /* test_transform: no expected outcome, but the same checks. */
    char *transform_dir = xasprintf("%s/test_transform", suite);
    files = list_dir(transform_dir, &n_files);
    for (size_t k = 0; k < n_files; k++) {
        char *path = xasprintf("%s/%s", transform_dir, files[k]);
        char *name = xasprintf("test_transform/%s", files[k]);
        char *error;
        check_document(name, path, dump, &error);
        xfree(error);
        xfree(path);
        xfree(name);
        xfree(files[k]);
    }
    xfree(files);
    xfree(transform_dir);

    if (dump && fclose(dump)) {
        ovs_fatal(0, "%s: write error", dump_name);
    }
    printf("%s: %zu test_parsing documents, %zu accepted, %zu outcome "
           "mismatches, %zu message mismatches; %zu transform documents; "
           "%d failures\n",
           json_impl_info()->name, n_docs, n_accepted, n_mismatch,
           n_msg_mismatch, n_files, test_failures);
    return test_failures ? 1 : 0;
}
