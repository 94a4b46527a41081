/* Helpers shared by the tests/json programs: reading files and counting
 * failed checks. */
#include "test-util.h"

#include <errno.h>
#include <string.h>

#include "util.h"

int test_failures;

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
