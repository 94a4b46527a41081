/* Atomic output files; see out-file.h. */
#include "ovsdb/out-file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

static void
out_file_clear(struct out_file *f)
{
    xfree(f->name);
    xfree(f->tmp_name);
    f->name = f->tmp_name = NULL;
    f->stream = NULL;
}

char *
out_file_dir(const char *name)
{
    const char *slash = strrchr(name, '/');
    return (!slash ? xstrdup(".")
            : slash == name ? xstrdup("/")
            : xmemdup0(name, slash - name));
}

char *
out_file_check_path(const char *name)
{
    struct stat st;

    if (!name[0]) {
        return xstrdup("empty file name");
    }
    if (!stat(name, &st) && !S_ISREG(st.st_mode)) {
        return xasprintf("\"%s\" is %s, not a regular file", name,
                         S_ISDIR(st.st_mode) ? "a directory"
                                             : "a special file");
    }

    char *dir = out_file_dir(name);
    char *error = NULL;
    if (stat(dir, &st)) {
        error = xasprintf("\"%s\": directory \"%s\": %s", name, dir,
                          strerror(errno));
    } else if (!S_ISDIR(st.st_mode)) {
        error = xasprintf("\"%s\": \"%s\" is not a directory", name, dir);
    } else if (access(dir, W_OK | X_OK)) {
        error = xasprintf("\"%s\": cannot write in directory \"%s\": %s",
                          name, dir, strerror(errno));
    }
    xfree(dir);
    return error;
}

char *
out_file_open(struct out_file *f, const char *name)
{
    f->name = xstrdup(name);
    /* The pid is padded to PID_MAX_LIMIT's 7 digits: the name's length,
     * allocated inside measured phases, must not vary from run to run. */
    f->tmp_name = xasprintf("%s.%07ld.tmp", name, (long) getpid());
    f->stream = NULL;

    int fd = open(f->tmp_name, O_RDWR | O_CREAT | O_EXCL | O_TRUNC, 0644);
    if (fd >= 0) {
        f->stream = fdopen(fd, "w+b");
        if (!f->stream) {
            close(fd);
            unlink(f->tmp_name);
        }
    }
    if (!f->stream) {
        char *error = xasprintf("%s: cannot create %s: %s", f->name,
                                f->tmp_name, strerror(errno));
        out_file_clear(f);
        return error;
    }
    return NULL;
}

int
out_file_fd(const struct out_file *f)
{
    return fileno(f->stream);
}

char *
out_file_write(struct out_file *f, const void *data, size_t n)
{
    if (n && fwrite(data, 1, n, f->stream) != n) {
        return xasprintf("%s: write error: %s", f->name, strerror(errno));
    }
    return NULL;
}

char *
out_file_sync(struct out_file *f)
{
    char *error = NULL;

    if (fflush(f->stream) || fsync(fileno(f->stream))) {
        return xasprintf("%s: write error: %s", f->name, strerror(errno));
    }
    /* A new file's directory entry is made durable too. */
    char *dir = out_file_dir(f->name);
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd < 0 || fsync(fd)) {
        error = xasprintf("%s: cannot sync directory %s: %s", f->name, dir,
                          strerror(errno));
    }
    if (fd >= 0) {
        close(fd);
    }
    xfree(dir);
    return error;
}

char *
out_file_commit(struct out_file *f)
{
    char *error = NULL;

    if (fclose(f->stream)) {
        error = xasprintf("%s: write error: %s", f->name, strerror(errno));
        unlink(f->tmp_name);
    } else if (rename(f->tmp_name, f->name)) {
        error = xasprintf("%s: cannot rename %s to it: %s", f->name,
                          f->tmp_name, strerror(errno));
        unlink(f->tmp_name);
    }
    out_file_clear(f);
    return error;
}

void
out_file_abort(struct out_file *f)
{
    if (f->stream) {
        fclose(f->stream);
        unlink(f->tmp_name);
    }
    out_file_clear(f);
}

char *
out_file_write_all(const char *name, const void *data, size_t n)
{
    struct out_file f;
    char *error = out_file_open(&f, name);

    if (!error) {
        error = out_file_write(&f, data, n);
        if (error) {
            out_file_abort(&f);
        } else {
            error = out_file_commit(&f);
        }
    }
    return error;
}
