/* Unit tests of the ovsdb/ library: record header format, both record
 * readers, atomic output files, UUIDs, the RNG's fixed streams, schema
 * parsing, diff semantics and datum sorting.  Usage: test-ovsdb GROUP (see main()). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ds.h"
#include "json.h"
#include "ovsdb/aes128.h"
#include "ovsdb/datum.h"
#include "ovsdb/log-reader.h"
#include "ovsdb/mapped-reader.h"
#include "ovsdb/out-file.h"
#include "ovsdb/record.h"
#include "ovsdb/rng.h"
#include "ovsdb/schema.h"
#include "ovsdb/uuid.h"
#include "util.h"

static int failures;

#define CHECK(COND)                                                     \
    do {                                                                \
        if (!(COND)) {                                                  \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__,      \
                    __LINE__, #COND);                                   \
            failures++;                                                 \
        }                                                               \
    } while (0)

/* True if 'error' is non-NULL and contains 'needle'; frees 'error'. */
static bool
error_has(char *error, const char *needle)
{
    bool ok = error && strstr(error, needle);
    if (error && !ok) {
        fprintf(stderr, "unexpected error: %s\n", error);
    }
    free(error);
    return ok;
}

static void
test_record(void)
{
    uint8_t sha1[OVSDB_SHA1_LEN], back[OVSDB_SHA1_LEN];
    for (int i = 0; i < OVSDB_SHA1_LEN; i++) {
        sha1[i] = i * 13;
    }
    char header[OVSDB_RECORD_HEADER_MAX];
    size_t n = ovsdb_record_format_header(header, 123456, sha1);
    CHECK(n == strlen("OVSDB JSON 123456 ") + 41);
    CHECK(header[n - 1] == '\n');

    uint64_t length = 0;
    CHECK(!ovsdb_record_parse_header(header, n - 1, &length, back));
    CHECK(length == 123456 && !memcmp(sha1, back, sizeof sha1));

    static const char sha[] = "5f36b2ea290645ee34d943220a14b54ee5ea5be5";
    char line[128];
    snprintf(line, sizeof line, "OVSDB JSON 3 %s", sha);
    CHECK(!ovsdb_record_parse_header(line, strlen(line), &length, back));
    /* The length as OVS's strtoul() reads it: white space and '+' before
     * it are fine, 0 is not. */
    snprintf(line, sizeof line, "OVSDB JSON +3 %s", sha);
    CHECK(!ovsdb_record_parse_header(line, strlen(line), &length, back));
    CHECK(length == 3);
    snprintf(line, sizeof line, "OVSDB JSON  \t+7 %s", sha);
    CHECK(!ovsdb_record_parse_header(line, strlen(line), &length, back));
    CHECK(length == 7);
    snprintf(line, sizeof line, "OVSDB JSON 0 %s", sha);
    CHECK(error_has(ovsdb_record_parse_header(line, strlen(line), &length,
                                              back), "bad length"));
    snprintf(line, sizeof line, "OVSDB JSON -3 %s", sha);
    CHECK(error_has(ovsdb_record_parse_header(line, strlen(line), &length,
                                              back), "bad length"));
    snprintf(line, sizeof line, "OVSDB JSON x3 %s", sha);
    CHECK(error_has(ovsdb_record_parse_header(line, strlen(line), &length,
                                              back), "bad length"));
    snprintf(line, sizeof line, "OVSDB JSON 3 %.39sg", sha);
    CHECK(error_has(ovsdb_record_parse_header(line, strlen(line), &length,
                                              back), "bad SHA-1"));
    snprintf(line, sizeof line, "OVSDB JSON 3 %s0", sha);
    CHECK(error_has(ovsdb_record_parse_header(line, strlen(line), &length,
                                              back), "bad SHA-1"));
    strcpy(line, "OVSDB CLUSTER 3 abc");
    CHECK(error_has(ovsdb_record_parse_header(line, strlen(line), &length,
                                              back), "clustered"));
    strcpy(line, "hello");
    CHECK(error_has(ovsdb_record_parse_header(line, strlen(line), &length,
                                              back), "bad record header"));

    /* Clustered records: same framing, their own magic. */
    n = ovsdb_record_format_header_magic(header, OVSDB_CLUSTER_MAGIC, 42,
                                         sha1);
    CHECK(n == strlen("OVSDB CLUSTER 42 ") + 41);
    CHECK(!strcmp(ovsdb_record_magic(header, n), OVSDB_CLUSTER_MAGIC));
    CHECK(!ovsdb_record_parse_header_magic(header, n - 1, OVSDB_CLUSTER_MAGIC,
                                           &length, back));
    CHECK(length == 42 && !memcmp(sha1, back, sizeof sha1));
    CHECK(error_has(ovsdb_record_parse_header_magic(header, n - 1,
                                                    OVSDB_RECORD_MAGIC,
                                                    &length, back),
                    "expected \"OVSDB JSON"));
    snprintf(line, sizeof line, "OVSDB JSON 3 %s", sha);
    CHECK(!strcmp(ovsdb_record_magic(line, strlen(line)),
                  OVSDB_RECORD_MAGIC));
    CHECK(!ovsdb_record_magic("OVSDB", 5));

    /* The writer's record: length and SHA-1 cover the JSON and newline. */
    struct ds d = DS_EMPTY_INITIALIZER;
    ovsdb_record_to_ds("{}", 2, &d);
    CHECK(!strcmp(ds_cstr(&d), "OVSDB JSON 3 5f36b2ea290645ee34d943220a14b"
                               "54ee5ea5be5\n{}\n"));
    ds_destroy(&d);
}

/* Writes 'text' to 'name'. */
static void
write_file(const char *name, const char *text, size_t n)
{
    char *error = out_file_write_all(name, text, n);
    CHECK(!error);
    free(error);
}

static void
test_readers(void)
{
    char name[] = "/tmp/test-ovsdb-XXXXXX";
    int fd = mkstemp(name);
    CHECK(fd >= 0);
    close(fd);

    struct ds d = DS_EMPTY_INITIALIZER;
    ovsdb_record_to_ds("{\"name\":\"x\"}", 12, &d);
    ovsdb_record_to_ds("{\"T\":{}}", 8, &d);
    write_file(name, d.string, d.length);

    /* Both readers see the same two records. */
    char *error;
    struct log_reader *lr = log_reader_open(name, &error);
    CHECK(lr);
    struct json *json;
    CHECK(log_reader_next(lr, &json, &error) == 1);
    CHECK(json && !strcmp(json_string(json_object_get(json, "name")), "x"));
    json_destroy(json);
    CHECK(log_reader_next(lr, &json, &error) == 1);
    json_destroy(json);
    CHECK(log_reader_next(lr, &json, &error) == 0);
    log_reader_close(lr);

    struct mapped_reader mr;
    CHECK(!mapped_reader_open(&mr, name));
    struct mapped_record rec;
    CHECK(mapped_reader_next(&mr, &rec, &error) == 1 && rec.index == 0);
    CHECK(mapped_reader_next(&mr, &rec, &error) == 1 && rec.index == 1);
    size_t rec1 = rec.offset;
    CHECK(rec.length == 9 && !memcmp(rec.body, "{\"T\":{}}\n", 9));
    CHECK(mapped_reader_next(&mr, &rec, &error) == 0);
    mapped_reader_close(&mr);

    /* One flipped data byte: both name record 1 and its offset. */
    d.string[d.length - 3] ^= 1;
    write_file(name, d.string, d.length);
    char where[64];
    snprintf(where, sizeof where, "record 1 at byte offset %zu", rec1);

    lr = log_reader_open(name, &error);
    CHECK(log_reader_next(lr, &json, &error) == 1);
    json_destroy(json);
    CHECK(log_reader_next(lr, &json, &error) == -1);
    CHECK(error_has(error, where));
    log_reader_close(lr);

    CHECK(!mapped_reader_open(&mr, name));
    CHECK(mapped_reader_next(&mr, &rec, &error) == 1);
    CHECK(mapped_reader_next(&mr, &rec, &error) == -1);
    CHECK(error_has(error, where));
    mapped_reader_close(&mr);

    ds_destroy(&d);
    unlink(name);
}

static void
test_out_file(void)
{
    char dir[] = "/tmp/test-ovsdb-dir-XXXXXX";
    CHECK(mkdtemp(dir));
    char *name = xasprintf("%s/out", dir);

    /* Aborted: neither the file nor its temporary remains. */
    struct out_file f;
    CHECK(!out_file_open(&f, name));
    char *tmp = xstrdup(f.tmp_name);
    CHECK(!access(tmp, F_OK));
    /* Same length whatever the pid: measured phases allocate it. */
    CHECK(strlen(tmp) == strlen(name) + strlen(".1234567.tmp"));
    CHECK(!out_file_write(&f, "abc", 3));
    out_file_abort(&f);
    CHECK(access(tmp, F_OK) && access(name, F_OK));

    /* Committed: the file holds what was written. */
    write_file(name, "hello\n", 6);
    FILE *stream = fopen(name, "r");
    char buf[16] = "";
    CHECK(stream && fgets(buf, sizeof buf, stream));
    CHECK(!strcmp(buf, "hello\n"));
    if (stream) {
        fclose(stream);
    }
    CHECK(access(tmp, F_OK));

    /* A missing directory: an error naming the file. */
    char *bad = xasprintf("%s/no/such/file", dir);
    CHECK(error_has(out_file_write_all(bad, "x", 1), "no/such/file"));

    unlink(name);
    rmdir(dir);
    free(bad);
    free(tmp);
    free(name);
}

static void
test_uuid(void)
{
    static const char text[] = "0123abcd-4567-89ef-0123-456789abcdef";
    struct uuid u;
    char out[UUID_LEN + 1];

    CHECK(uuid_from_string(&u, text));
    uuid_format(&u, out);
    CHECK(!strcmp(out, text));
    CHECK(u.parts[0] == 0x0123abcd && u.parts[3] == 0x89abcdef);
    CHECK(uuid_from_string(&u, "0123ABCD-4567-89EF-0123-456789ABCDEF"));
    CHECK(!uuid_from_string(&u, "0123abcd-4567-89ef-0123-456789abcde"));
    CHECK(!uuid_from_string(&u, "0123abcd4-567-89ef-0123-456789abcdef"));
    CHECK(!uuid_from_string(&u, "0123abcd-4567-89ef-0123-456789abcdeg"));
    CHECK(!uuid_from_buffer(&u, text, UUID_LEN - 1));

    /* Version 4, RFC 4122 variant. */
    struct rng rng;
    rng_init(&rng, 1);
    uuid_generate(&u, &rng);
    uuid_format(&u, out);
    CHECK(out[14] == '4' && strchr("89ab", out[19]));
    struct uuid v = uuid_from_u64(0xffffffffffffffffULL, 0);
    uuid_set_v4(&v);
    uuid_format(&v, out);
    CHECK(!strcmp(out, "ffffffff-ffff-4fff-8000-000000000000"));

    /* The snprintf() form is the same text, every digit in place. */
    char out2[UUID_LEN + 1];
    uuid_format_printf(&v, out2);
    CHECK(!strcmp(out2, "ffffffff-ffff-4fff-8000-000000000000"));
    CHECK(uuid_from_string(&u, text));
    uuid_format_printf(&u, out2);
    CHECK(!strcmp(out2, text));
    u = uuid_from_u64(0x0000000100020003ULL, 0x000400000005000aULL);
    uuid_format(&u, out);
    uuid_format_printf(&u, out2);
    CHECK(!strcmp(out, out2));
}

static void
test_rng(void)
{
    /* Generated datasets and workloads depend on these exact streams. */
    struct rng r = rng_derive(1, 2, 3, 4);
    CHECK(rng_next(&r) == 0x60f9a4d90958329eULL);
    struct rng s;
    rng_init(&s, 7);
    CHECK(rng_next(&s) == 0x85e7bb0f12278575ULL);
    for (int i = 0; i < 1000; i++) {
        CHECK(rng_below(&s, 10) < 10);
        CHECK(rng_range(&s, 3) < 3);
    }
    CHECK(rng_range(&s, 0) == 0);
}

static const char schema_text[] =
    "{\"name\": \"S\", \"version\": \"1.0.0\", \"tables\": {"
    " \"B\": {\"columns\": {\"s\": {\"type\": {\"key\": \"string\","
    "         \"min\": 0, \"max\": \"unlimited\"}},"
    "   \"m\": {\"type\": {\"key\": \"string\", \"value\": \"integer\","
    "         \"min\": 0, \"max\": \"unlimited\"}},"
    "   \"e\": {\"type\": {\"key\": {\"type\": \"string\","
    "         \"enum\": [\"set\", [\"z\", \"a\"]]}}}}, \"maxRows\": 5},"
    " \"A\": {\"columns\": {\"r\": {\"type\": {\"key\": {\"type\": \"uuid\","
    "         \"refTable\": \"B\", \"refType\": \"weak\"}}}}, "
    "         \"isRoot\": true}}}";

static void
test_schema(void)
{
    struct json *json = json_from_string(schema_text);
    struct db_schema *s;
    char *error = db_schema_from_json(json, &s);
    CHECK(!error);
    json_destroy(json);
    if (error) {
        free(error);
        return;
    }
    CHECK(s->n_tables == 2 && !strcmp(s->tables[0]->name, "A"));
    CHECK(db_schema_table_index(s, "B") == 1);
    CHECK(db_schema_table_index(s, "C") == -1);
    const struct table_schema *a = s->tables[0], *b = s->tables[1];
    CHECK(a->is_root && !b->is_root);
    CHECK(a->max_rows == 0 && b->max_rows == 5);
    CHECK(table_schema_column_index(b, "e") == 0);
    CHECK(table_schema_column_index(b, "s") == 2);

    const struct base_type *r = &a->columns[0]->type.key;
    CHECK(r->u.uuid.ref_table == b && r->u.uuid.ref_type == REF_WEAK);
    const struct base_type *e = &b->columns[0]->type.key;
    CHECK(e->enum_ && e->enum_->n == 2);
    CHECK(!strcmp(json_string(e->enum_->keys[0].s), "a"));
    CHECK(b->columns[2]->type.n_max == TYPE_UNLIMITED);

    /* Diffs toggle set elements; a map pair with another value updates. */
    const struct ovsdb_type *st = &b->columns[2]->type;
    const struct ovsdb_type *mt = &b->columns[1]->type;
    struct datum d, diff;
    json = json_from_string("[\"set\", [\"x\", \"y\"]]");
    CHECK(!datum_from_json(&d, st, json, false));
    json_destroy(json);
    json = json_from_string("[\"set\", [\"y\", \"z\"]]");
    CHECK(!datum_from_json(&diff, st, json, true));
    json_destroy(json);
    datum_apply_diff(&d, &diff, st);
    struct ds text = DS_EMPTY_INITIALIZER;
    datum_to_ds(&d, st, &text);
    CHECK(!strcmp(ds_cstr(&text), "[\"set\",[\"x\",\"z\"]]"));
    datum_destroy(&d, st);

    json = json_from_string("[\"map\", [[\"a\", 1], [\"b\", 2]]]");
    CHECK(!datum_from_json(&d, mt, json, false));
    json_destroy(json);
    json = json_from_string("[\"map\", [[\"a\", 1], [\"b\", 3]]]");
    CHECK(!datum_from_json(&diff, mt, json, true));
    json_destroy(json);
    datum_apply_diff(&d, &diff, mt);
    ds_clear(&text);
    datum_to_ds(&d, mt, &text);
    CHECK(!strcmp(ds_cstr(&text), "[\"map\",[[\"b\",3]]]"));
    datum_destroy(&d, mt);
    ds_destroy(&text);

    /* No table with "isRoot" (OVS writes none when all are roots): every
     * table is a root, as in OVS. */
    json = json_from_string("{\"name\": \"S\", \"tables\": {"
                            "\"T\": {\"columns\": {\"c\": {\"type\": "
                            "\"string\"}}}, \"U\": {\"columns\": {}, "
                            "\"isRoot\": false}}}");
    struct db_schema *all;
    CHECK(!db_schema_from_json(json, &all));
    json_destroy(json);
    if (all) {
        CHECK(all->tables[0]->is_root && all->tables[1]->is_root);
        db_schema_destroy(all);
    }

    /* Errors name the table and column. */
    json = json_from_string("{\"name\": \"S\", \"tables\": {\"T\": "
                            "{\"columns\": {\"c\": {\"type\": \"strin\"}}}}}");
    struct db_schema *bad;
    CHECK(error_has(db_schema_from_json(json, &bad), "table T: column c"));
    json_destroy(json);
    db_schema_destroy(s);
}

/* Datums read from JSON are sorted in place, values kept with their keys,
 * whatever the input order; a duplicate is an error, also in a large set
 * of equal elements (the sort stops at the first equal pair). */
static void
test_sort(void)
{
    struct json *json = json_from_string(schema_text);
    struct db_schema *s;
    char *error = db_schema_from_json(json, &s);
    json_destroy(json);
    CHECK(!error);
    if (error) {
        free(error);
        return;
    }
    const struct table_schema *b = s->tables[1];
    const struct ovsdb_type *st = &b->columns[2]->type;
    const struct ovsdb_type *mt = &b->columns[1]->type;
    struct ds text = DS_EMPTY_INITIALIZER;
    struct datum d;

    json = json_from_string("[\"map\", [[\"d\", 4], [\"c\", 3], [\"a\", 1], "
                            "[\"e\", 5], [\"b\", 2]]]");
    CHECK(!datum_from_json(&d, mt, json, false));
    json_destroy(json);
    datum_to_ds(&d, mt, &text);
    CHECK(!strcmp(ds_cstr(&text), "[\"map\",[[\"a\",1],[\"b\",2],[\"c\",3],"
                                  "[\"d\",4],[\"e\",5]]]"));
    datum_destroy(&d, mt);

    /* 2,000 elements in descending order come out ascending. */
    ds_clear(&text);
    ds_put_cstr(&text, "[\"set\", [");
    for (int i = 1999; i >= 0; i--) {
        ds_put_format(&text, "\"k%04d\"%s", i, i ? "," : "");
    }
    ds_put_cstr(&text, "]]");
    json = json_from_string(ds_cstr(&text));
    CHECK(!datum_from_json(&d, st, json, false));
    json_destroy(json);
    CHECK(d.n == 2000);
    for (unsigned int i = 1; i < d.n; i++) {
        CHECK(strcmp(json_string(d.keys[i - 1].s),
                     json_string(d.keys[i].s)) < 0);
    }
    datum_destroy(&d, st);

    /* 200,000 equal elements: an error, not a quadratic sort or a deep
     * recursion. */
    ds_clear(&text);
    ds_put_cstr(&text, "[\"set\", [");
    for (int i = 0; i < 200000; i++) {
        ds_put_cstr(&text, i ? ",\"x\"" : "\"x\"");
    }
    ds_put_cstr(&text, "]]");
    json = json_from_string(ds_cstr(&text));
    CHECK(error_has(datum_from_json(&d, st, json, false),
                    "set has duplicate element"));
    json_destroy(json);
    json = json_from_string("[\"map\", [[\"a\", 1], [\"b\", 2], [\"a\", 3]]]");
    CHECK(error_has(datum_from_json(&d, mt, json, false),
                    "map has duplicate key"));
    json_destroy(json);

    ds_destroy(&text);
    db_schema_destroy(s);
}

static void
hex_bytes(const char *hex, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int hi = hexit_value(hex[2 * i]);
        int lo = hexit_value(hex[2 * i + 1]);
        CHECK(hi >= 0 && lo >= 0);
        out[i] = hi * 16 + lo;
    }
}

/* FIPS-197's known answers (appendix B, appendix C.1), in place too. */
static void
test_aes128(void)
{
    static const char *const vectors[][3] = {  /* key, plain, cipher */
        { "2b7e151628aed2a6abf7158809cf4f3c",
          "3243f6a8885a308d313198a2e0370734",
          "3925841d02dc09fbdc118597196a0b32" },
        { "000102030405060708090a0b0c0d0e0f",
          "00112233445566778899aabbccddeeff",
          "69c4e0d86a7b0430d8cdb78070b4c55a" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(vectors); i++) {
        uint8_t key[16], plain[16], want[16], got[16];
        struct aes128 aes;

        hex_bytes(vectors[i][0], key, 16);
        hex_bytes(vectors[i][1], plain, 16);
        hex_bytes(vectors[i][2], want, 16);
        aes128_schedule(&aes, key);
        aes128_encrypt(&aes, plain, got);
        CHECK(!memcmp(got, want, 16));
        aes128_encrypt(&aes, plain, plain);
        CHECK(!memcmp(plain, want, 16));
    }
    /* Appendix A.1: the last round key of 2b7e1516... */
    struct aes128 aes;
    uint8_t key[16];
    hex_bytes(vectors[0][0], key, 16);
    aes128_schedule(&aes, key);
    CHECK(aes.rk[40] == 0xd014f9a8 && aes.rk[43] == 0xb6630ca6);
}

int
main(int argc, char *argv[])
{
    static const struct {
        const char *name;
        void (*run)(void);
    } groups[] = {
        { "record", test_record }, { "readers", test_readers },
        { "out-file", test_out_file }, { "uuid", test_uuid },
        { "rng", test_rng }, { "schema", test_schema },
        { "sort", test_sort }, { "aes128", test_aes128 },
    };
    for (size_t i = 0; i < ARRAY_SIZE(groups); i++) {
        if (argc < 2 || !strcmp(argv[1], groups[i].name)) {
            groups[i].run();
        }
    }
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
    }
    return failures != 0;
}
