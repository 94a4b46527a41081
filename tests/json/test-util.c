/* Helpers shared by the tests/json programs: reading files, counting
 * failed checks and running groups of them. */
#include "test-util.h"

#include <errno.h>
#include <string.h>

#include "util.h"

int test_failures;
const char *test_group_name;

char *
read_file(const char *name, size_t *lenp)
{
    FILE *f = fopen(name, "rb");
    if (!f) {
        ovs_fatal(errno, "%s: cannot open", name);
    }
    size_t len = 0, allocated = 4096;
    char *buf = xmalloc(allocated + 1);
    size_t n;
    while ((n = fread(buf + len, 1, allocated - len, f)) > 0) {
        len += n;
        if (len == allocated) {
            allocated *= 2;
            buf = xrealloc(buf, allocated + 1);
        }
    }
    if (ferror(f)) {
        ovs_fatal(errno, "%s: read error", name);
    }
    fclose(f);
    buf[len] = '\0';
    *lenp = len;
    return buf;
}

int
run_test_groups(int argc, char *argv[], const struct test_group *groups,
                size_t n, const char *who)
{
    int ran = 0;
    for (size_t i = 0; i < n; i++) {
        if (argc < 2 || !strcmp(argv[1], groups[i].name)) {
            test_group_name = groups[i].name;
            groups[i].run();
            ran++;
        }
    }
    if (!ran) {
        fprintf(stderr, "%s: unknown test group %s\n", argv[0], argv[1]);
        return 2;
    }
    if (test_failures) {
        fprintf(stderr, "%s: %d check(s) failed\n", who, test_failures);
        return 1;
    }
    return 0;
}
