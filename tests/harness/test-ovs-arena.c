/* impls/ovs-arena's promise, on real database files: the database read
 * path parses into arenas (at least one made per file), and none is alive
 * once the file is loaded, although the database keeps its string atoms
 * (copied out of the arenas); freeing the database then frees every block
 * the load left.  A parse outside the read path makes no arena, and a
 * string cloned out of a read path tree outlives it as a heap node of its
 * own.
 *
 * usage: harness-test-ovs-arena DB_FILE...  (linked with ovs-arena) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena/arena.h"
#include "server/db.h"
#include "server/db-file.h"
#include "json.h"
#include "util.h"

static int failures;

#define CHECK(COND)                                                     \
    ((COND) ? (void) 0                                                  \
            : (void) (failures++,                                       \
                      fprintf(stderr, "%s:%d: CHECK failed: %s\n",      \
                              __FILE__, __LINE__, #COND)))

static struct json *
parse(const char *text, int flags)
{
    struct json_parser *p = json_parser_create(flags);
    size_t len = strlen(text);
    /* In two feeds, so that the arena is current twice. */
    json_parser_feed(p, text, len / 2);
    json_parser_feed(p, text + len / 2, len - len / 2);
    return json_parser_finish(p);
}

static void
test_parse(void)
{
    static const char doc[] =
        "{\"name\":\"a string longer than twenty-three bytes\","
        "\"short\":\"tiny\",\"v\":[1,2,3,4,5,6,7],\"o\":{\"k\":[true]}}";

    uint64_t arenas = arena_stats.arenas;
    struct json *plain = parse(doc, JSPF_TRAILER);
    CHECK(json_get_type(plain) == JSON_OBJECT);
    CHECK(arena_stats.arenas == arenas);
    CHECK(arena_n_chunks == 0);
    const struct json *s = json_object_get(plain, "name");
    struct json *shared = json_clone(s);
    CHECK(shared == s);                 /* ovs's count++. */
    json_destroy(shared);

    struct json *tree = parse(doc, JSPF_TRAILER | JSPF_DATABASE);
    CHECK(json_get_type(tree) == JSON_OBJECT);
    CHECK(arena_stats.arenas == arenas + 1);
    CHECK(arena_n_chunks > 0);
    CHECK(json_equal(tree, plain));
    struct json *kept = json_clone(json_object_get(tree, "name"));
    struct json *kept_short = json_clone(json_object_get(tree, "short"));
    CHECK(kept != json_object_get(tree, "name"));
    CHECK(json_refcount(kept) == 1);
    json_destroy(tree);
    CHECK(arena_n_chunks == 0);
    CHECK(!strcmp(json_string(kept), "a string longer than twenty-three "
                  "bytes"));
    CHECK(!strcmp(json_string(kept_short), "tiny"));
    json_destroy(kept);
    json_destroy(kept_short);

    /* A failed parse gives its arena back too. */
    struct json *error = parse("{\"a\":[1,2,{\"b\":", JSPF_TRAILER
                                                     | JSPF_DATABASE);
    CHECK(json_get_type(error) == JSON_STRING);
    CHECK(arena_n_chunks == 0);
    json_destroy(error);
    json_destroy(plain);
}

static void
test_load(const char *file_name)
{
    uint64_t arenas = arena_stats.arenas;
    struct xalloc_breakdown before, after;
    xalloc_breakdown_get(&before, NULL);
    struct db *db;
    char *error = db_load_file(file_name, &db, NULL);
    if (error) {
        fprintf(stderr, "%s\n", error);
        exit(1);
    }
    CHECK(db_n_rows(db) > 0);
    CHECK(arena_stats.arenas > arenas);     /* The read path used arenas, */
    CHECK(arena_n_chunks == 0);             /* and none is alive. */
    db_destroy(db);
    /* Everything the load allocated (arena chunks, string atoms copied out
     * of them) is freed with the database. */
    xalloc_breakdown_get(&after, NULL);
    CHECK(after.total_blocks == before.total_blocks);
    CHECK(after.total_bytes == before.total_bytes);
}

int
main(int argc, char *argv[])
{
    if (strcmp(json_impl_info()->name, "ovs-arena")) {
        fprintf(stderr, "%s: linked with %s, not ovs-arena\n", argv[0],
                json_impl_info()->name);
        return 1;
    }
    xalloc_breakdown_enable();
    test_parse();
    for (int i = 1; i < argc; i++) {
        test_load(argv[i]);
    }
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    return 0;
}
