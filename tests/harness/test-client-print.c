/* Unit tests of the monitoring clients' table output (client-print.h):
 * the text a known reply and update2 print, column by column. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clients/client-print.h"
#include "json.h"
#include "util.h"

static int failures;

/* Prints 'text' (a JSON-RPC message) with 'cp' and checks the output. */
static void
check(struct client_printer *cp, const char *text, const char *want)
{
    char *got = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&got, &len);
    struct json *msg = json_from_string(text);

    if (!out || json_get_type(msg) == JSON_STRING) {
        fprintf(stderr, "setup failed for %s\n", text);
        exit(1);
    }
    int error = client_printer_print(cp, msg, out);
    fclose(out);
    if (error || strcmp(got, want)) {
        fprintf(stderr, "FAIL: %s\n  error %d\n  got:\n%s  want:\n%s",
                text, error, got, want);
        failures++;
    }
    free(got);
    json_destroy(msg);
}

int
main(void)
{
    struct client_printer *cp = client_printer_create();

    /* The initial reply: every column, "_" columns last, values in OVSDB's
     * text form (sets, maps, UUIDs bare, strings quoted when they must
     * be), cells padded to the widest in their column. */
    check(cp,
          "{\"id\":1,\"error\":null,\"result\":{\"T\":{"
          "\"u1\":{\"initial\":{\"name\":\"a\",\"_version\":[\"uuid\",\"v1\"],"
          "\"tags\":[\"set\",[1,2]],\"ids\":[\"map\",[[\"k\",\"x y\"]]]}},"
          "\"u2\":{\"initial\":{\"name\":\"b-c.d\"}}}}}",
          "row action  ids       name  tags   _version\n"
          "--- ------- --------- ----- ------ --------\n"
          "u1  initial {k=\"x y\"} a     [1, 2] v1\n"
          "u2  initial           b-c.d        \n");

    /* An update2 names only the changed column; the others stay empty. */
    check(cp,
          "{\"id\":null,\"method\":\"update2\",\"params\":[null,{\"T\":{"
          "\"u2\":{\"modify\":{\"name\":\"true\"}}}}]}",
          "row action ids name   tags _version\n"
          "--- ------ --- ------ ---- --------\n"
          "u2  modify     \"true\"      \n");

    /* Other messages print nothing. */
    check(cp, "{\"id\":7,\"error\":null,\"result\":[{}]}", "");

    client_printer_destroy(cp);
    return failures ? 1 : 0;
}
