/* Atomic output files: written under a temporary name beside the target
 * ("NAME.<pid>.tmp") and renamed into place only when complete, so a failed
 * or interrupted run leaves no partial output.  Errors are malloc'd
 * messages that name the file. */
#ifndef OVSDB_OUT_FILE_H
#define OVSDB_OUT_FILE_H 1

#include <stddef.h>
#include <stdio.h>

struct out_file {
    char *name;
    char *tmp_name;
    FILE *stream;
};

/* Checks, before a long run, that 'name' can be written the way
 * out_file_open() and out_file_commit() will write it: not empty, not an
 * existing directory or device (the rename would replace a device such as
 * /dev/full by a regular file), in a writable directory.  Returns NULL or
 * a malloc'd message naming the file, without the option. */
char *out_file_check_path(const char *name);
/* The directory 'name' is written in ("." or "/" where it names none), as
 * a malloc'd string. */
char *out_file_dir(const char *name);
/* Creates the temporary file (never an existing one). */
char *out_file_open(struct out_file *, const char *name);
/* The descriptor under 'stream', for writers that do their own I/O; mix
 * it with 'stream' only after fflush(). */
int out_file_fd(const struct out_file *);
char *out_file_write(struct out_file *, const void *, size_t);
/* Flushes the data to the disk (fsync) and the directory it is in, as
 * OVS does for a new database file. */
char *out_file_sync(struct out_file *);
/* Closes and renames into place; on error the temporary file is removed. */
char *out_file_commit(struct out_file *);
/* Closes and removes the temporary file. */
void out_file_abort(struct out_file *);
/* One call that writes 'n' bytes of 'data' as the whole of 'name'. */
char *out_file_write_all(const char *name, const void *data, size_t n);

#endif /* OVSDB_OUT_FILE_H */
