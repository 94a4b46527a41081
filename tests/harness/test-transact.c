/* Unit tests of the full model's "transact" path (transact.h): the "where"
 * run as a query (through the hash map for a _uuid clause, the whole
 * condition tested; by testing every row otherwise), the "row" copied from
 * the scratch row into each selected row, the counts in the reply, and
 * the checks that reject a request before anything changes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/condition.h"
#include "server/db.h"
#include "json.h"
#include "ovsdb/schema.h"
#include "ovsdb/uuid.h"
#include "server/transact.h"
#include "util.h"

static int failures;

#define U1 "00000000-0000-0000-0000-000000000001"
#define U2 "00000000-0000-0000-0000-000000000002"

static void
fail(const char *what, const char *detail)
{
    fprintf(stderr, "FAIL: %s: %s\n", what, detail ? detail : "");
    failures++;
}

static void
count_changes(void *aux, struct table *t, struct row *old, struct row *new)
{
    (void) t;
    (void) old;
    (void) new;
    ++*(int *) aux;
}

/* Runs 'ops' (the text of the operations) on 'db'; returns the reply's
 * text or the error, and the number of rows the commit reported. */
static char *
run(struct db *db, const char *ops, int *changed, bool *ok)
{
    char *text = xasprintf("{\"method\":\"transact\",\"id\":7,"
                           "\"params\":[\"S\",%s]}", ops);
    struct json *reply = NULL;

    *changed = 0;
    char *error = transact_run(db, text, strlen(text), count_changes,
                               changed, &reply);
    xfree(text);
    *ok = !error;
    if (error) {
        return error;
    }
    char *s = json_to_string(reply, 0);
    json_destroy(reply);
    return s;
}

static void
expect(struct db *db, const char *ops, const char *want, int want_changed)
{
    int changed;
    bool ok;
    char *got = run(db, ops, &changed, &ok);
    if (!ok || strcmp(got, want) || changed != want_changed) {
        char *d = xasprintf("%s\n  got %s (%d changed)\n  want %s (%d)",
                            ops, got, changed, want, want_changed);
        fail("reply", d);
        xfree(d);
    }
    xfree(got);
}

static void
expect_error(struct db *db, const char *ops, const char *needle)
{
    int changed;
    bool ok;
    char *got = run(db, ops, &changed, &ok);
    if (ok || !strstr(got, needle)) {
        char *d = xasprintf("%s\n  got %s, want an error with \"%s\"", ops,
                            got, needle);
        fail("rejection", d);
        xfree(d);
    }
    xfree(got);
}

/* The integer in column 'n' of row 'id'. */
static long long
n_of(struct db *db, const char *id)
{
    struct table *t = db_find_table(db, "A");
    struct uuid u;
    uuid_from_string(&u, id);
    const struct row *r = table_find_row(t, &u);
    const struct column_schema *c = table_schema_find_column(t->schema, "n");
    return r && r->fields[c->index].n ? r->fields[c->index].keys[0].integer
                                      : -1;
}

int
main(void)
{
    struct json *sj = json_from_string(
        "{\"name\":\"S\",\"version\":\"1.0.0\",\"tables\":{\"A\":{"
        "\"isRoot\":true,\"columns\":{\"n\":{\"type\":\"integer\"},"
        "\"name\":{\"type\":\"string\"}}}}}");
    struct db_schema *schema;
    char *error = db_schema_from_json(sj, &schema);
    json_destroy(sj);
    if (error) {
        fprintf(stderr, "schema: %s\n", error);
        return 1;
    }
    struct db *db = db_create(schema);
    struct table *t = db_find_table(db, "A");
    struct uuid u;
    uuid_from_string(&u, U1);
    table_insert_row(t, &u);
    uuid_from_string(&u, U2);
    table_insert_row(t, &u);

    /* Through the hash map. */
    expect(db, "{\"op\":\"update\",\"table\":\"A\",\"where\":[[\"_uuid\","
           "\"==\",[\"uuid\",\"" U1 "\"]]],\"row\":{\"n\":5}}",
           "{\"result\":[{\"count\":1}],\"error\":null,\"id\":7}", 1);
    if (n_of(db, U1) != 5 || n_of(db, U2) != 0) {
        fail("update by _uuid", "n not 5 in U1 and 0 in U2");
    }
    /* The row found by its UUID still has to meet the other clauses. */
    expect(db, "{\"op\":\"update\",\"table\":\"A\",\"where\":[[\"_uuid\","
           "\"==\",[\"uuid\",\"" U1 "\"]],[\"n\",\"==\",6]],"
           "\"row\":{\"n\":9}}",
           "{\"result\":[{\"count\":0}],\"error\":null,\"id\":7}", 0);
    /* By testing every row; two operations on one transaction, the second
     * seeing the first's change. */
    expect(db, "{\"op\":\"update\",\"table\":\"A\",\"where\":[[\"n\",\"<\","
           "5]],\"row\":{\"n\":4}},{\"op\":\"update\",\"table\":\"A\","
           "\"where\":[],\"row\":{\"name\":\"x\"}}",
           "{\"result\":[{\"count\":1},{\"count\":2}],\"error\":null,"
           "\"id\":7}", 2);
    if (n_of(db, U1) != 5 || n_of(db, U2) != 4) {
        fail("update by scan", "n not 5 in U1 and 4 in U2");
    }
    expect(db, "{\"op\":\"update\",\"table\":\"A\",\"where\":[[\"_uuid\","
           "\"!=\",[\"uuid\",\"" U1 "\"]]],\"row\":{\"n\":3}}",
           "{\"result\":[{\"count\":1}],\"error\":null,\"id\":7}", 1);
    if (n_of(db, U2) != 3) {
        fail("_uuid !=", "n not 3 in U2");
    }

    /* Rejected before anything changes. */
    expect_error(db, "{\"op\":\"update\",\"table\":\"A\",\"where\":[],"
                 "\"row\":{},\"bogus\":1}", "bogus");
    expect_error(db, "{\"op\":\"update\",\"table\":\"A\",\"where\":[[\"_uuid\","
                 "\"<\",[\"uuid\",\"" U1 "\"]]],\"row\":{}}", "_uuid");
    expect_error(db, "{\"op\":\"update\",\"table\":\"A\",\"row\":{}}",
                 "where");
    expect_error(db, "{\"op\":\"update\",\"table\":\"A\",\"where\":[],"
                 "\"row\":{\"n\":1}},{\"op\":\"update\",\"table\":\"A\","
                 "\"where\":[],\"row\":{\"nope\":1}}", "nope");
    if (n_of(db, U1) != 5 || n_of(db, U2) != 3) {
        fail("rejected requests", "changed the rows");
    }

    db_destroy(db);
    return failures ? 1 : 0;
}
