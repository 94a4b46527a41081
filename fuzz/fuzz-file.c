/* fuzz/fuzz-file: fuzz input as a file (see fuzz-file.h). */
#include "fuzz-file.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static void
write_all(int fd, const char *p, size_t n, const char *what)
{
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k <= 0) {
            perror(what);
            abort();
        }
        p += k;
        n -= k;
    }
}

void
fuzz_file_open(struct fuzz_file *f, const void *data, size_t n)
{
    f->fd = memfd_create("fuzz-input", 0);
    if (f->fd < 0) {
        perror("memfd_create");
        abort();
    }
    write_all(f->fd, data, n, "memfd write");
    snprintf(f->name, sizeof f->name, "/proc/self/fd/%d", f->fd);

    const char *save = getenv("FUZZ_SAVE_INPUT");
    if (save && *save) {
        FILE *s = fopen(save, "wb");
        if (!s || fwrite(data, 1, n, s) != n || fclose(s)) {
            perror(save);
            abort();
        }
    }
}

void
fuzz_file_close(struct fuzz_file *f)
{
    close(f->fd);
}
