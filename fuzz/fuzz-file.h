/* fuzz/fuzz-file: fuzz input as a file, for parsers that read by name. */
#ifndef FUZZ_FUZZ_FILE_H
#define FUZZ_FUZZ_FILE_H 1

#include <stddef.h>

/* An anonymous in-memory file holding 'n' bytes of 'data', named
 * "/proc/self/fd/N" (nothing to clean up if the target crashes).  If the
 * environment variable FUZZ_SAVE_INPUT names a file, the bytes are also
 * written there, so that a reproducer can be kept as the exact file the
 * project's own programs read. */
struct fuzz_file {
    int fd;
    char name[32];
};
void fuzz_file_open(struct fuzz_file *, const void *data, size_t n);
void fuzz_file_close(struct fuzz_file *);

#endif
