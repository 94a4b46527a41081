/* impls/ovs-half's server features (the string pool of ovsdb/datum.h and
 * the slim weak references of harness/server/db.h), on their own and on
 * real database files: equal string atoms share one node, the pool drops a
 * string with its last atom (or, held elsewhere, at a sweep once nobody
 * holds it), a load pools and finds strings and keeps weak references,
 * and freeing the database frees every block the load left, pool
 * included.
 *
 * usage: harness-test-half DB_FILE...  (linked with ovs-half) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovsdb/datum.h"
#include "server/db.h"
#include "server/db-file.h"
#include "workloads/workload.h"
#include "json.h"
#include "util.h"

static int failures;

#define CHECK(COND)                                                     \
    ((COND) ? (void) 0                                                  \
            : (void) (failures++,                                       \
                      fprintf(stderr, "%s:%d: CHECK failed: %s\n",      \
                              __FILE__, __LINE__, #COND)))

static void
test_pool(void)
{
    static const char *const texts[] = {
        "a string longer than twenty-three bytes", "tiny",
    };
    struct base_type b;
    base_type_init(&b, ATOMIC_STRING);

    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        struct json *j1 = json_string_create(texts[i]);
        struct json *j2 = json_string_create(texts[i]);
        union atom a1, a2;
        size_t n = string_pool_size();
        unsigned long long hits = string_pool_hits();

        CHECK(!atom_from_json(&a1, &b, j1));
        CHECK(!atom_from_json(&a2, &b, j2));
        CHECK(a1.s == a2.s);                /* One node for both. */
        CHECK(!strcmp(json_string(a1.s), texts[i]));
        CHECK(string_pool_size() == n + 1);
        CHECK(string_pool_hits() == hits + 1);
        json_destroy(j1);
        json_destroy(j2);
        CHECK(json_refcount(a1.s) == 3);    /* The pool and two atoms. */

        atom_destroy(&a1, ATOMIC_STRING);
        CHECK(string_pool_size() == n + 1);
        atom_destroy(&a2, ATOMIC_STRING);   /* The last atom: gone. */
        CHECK(string_pool_size() == n);

        /* Held by a JSON value when its last atom goes: the entry stays
         * (and serves a new atom) until a sweep finds nobody else. */
        j1 = json_string_create(texts[i]);
        CHECK(!atom_from_json(&a1, &b, j1));
        json_destroy(j1);
        struct json *held = json_clone(a1.s);
        atom_destroy(&a1, ATOMIC_STRING);
        CHECK(string_pool_size() == n + 1);
        struct json *j3 = json_string_create(texts[i]);
        CHECK(!atom_from_json(&a2, &b, j3));
        CHECK(a2.s == held);
        atom_destroy(&a2, ATOMIC_STRING);
        json_destroy(j3);
        string_pool_sweep();
        CHECK(string_pool_size() == n + 1);
        json_destroy(held);
        string_pool_sweep();
        CHECK(string_pool_size() == n);
    }
    base_type_destroy(&b);
}

static void
test_load(const char *file_name)
{
    struct xalloc_breakdown before, after;
    xalloc_breakdown_get(&before, NULL);
    unsigned long long hits = string_pool_hits();
    struct db *db;
    char *error = db_load_file(file_name, &db, NULL);
    if (error) {
        fprintf(stderr, "%s\n", error);
        exit(1);
    }
    CHECK(db_n_rows(db) > 0);
    CHECK(string_pool_size() > 0);
    CHECK(string_pool_hits() > hits);       /* Equal strings were shared. */
    db_destroy(db);
    CHECK(string_pool_size() == 0);
    CHECK(n_weak_refs == 0);
    xalloc_breakdown_get(&after, NULL);
    CHECK(after.total_blocks == before.total_blocks);
    CHECK(after.total_bytes == before.total_bytes);
}

int
main(int argc, char *argv[])
{
    if (strcmp(json_impl_info()->name, "ovs-half")) {
        fprintf(stderr, "%s: linked with %s, not ovs-half\n", argv[0],
                json_impl_info()->name);
        return 1;
    }
    /* As the harness's main() does. */
    string_pool = impl_has_feature("string-pool");
    weak_refs_slim = impl_has_feature("slim-weak-refs");
    CHECK(string_pool && weak_refs_slim);
    xalloc_breakdown_enable();
    test_pool();
    for (int i = 1; i < argc; i++) {
        test_load(argv[i]);
    }
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    return 0;
}
