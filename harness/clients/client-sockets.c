/* Monitor clients at the far end of Unix stream sockets (client-sockets.h). */
#include "clients/client-sockets.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clients/client-print.h"
#include "json.h"
#include "util.h"

/* How long the server waits for its clients to print what it sent. */
#define PRINT_TIMEOUT_MS 120000

/* Shared by the server and its printing clients (an anonymous shared
 * mapping made before the fork): the messages the clients have printed,
 * and how many the server is waiting for.  The client whose message brings
 * 'printed' to 'target' writes one byte to the server's pipe, so a wait
 * wakes the server once, not once per message: its waiting stays out of
 * the CPU the updates phase measures. */
struct print_sync {
    atomic_ullong printed;
    atomic_ullong target;
};

/* A client that drops what it reads until the server closes its end.
 * Runs in a forked child only. */
static void
reader_drop(int fd)
{
    static char buf[65536];

    for (;;) {
        ssize_t r = read(fd, buf, sizeof buf);
        if (r == 0) {
            _exit(0);
        } else if (r < 0 && errno != EINTR) {
            _exit(3);
        }
    }
}

/* A client that parses each JSON-RPC message it reads, prints it as
 * `ovsdb-client monitor-cond` does (client-print.h) to a file of its own
 * and counts it in 'sync' (waking the server through 'done_fd' when it
 * completes the count the server waits for), until the server closes its
 * end.  Runs in a forked child only. */
static void
reader_print(int fd, struct print_sync *sync, int done_fd)
{
    static char buf[65536];
    struct json_parser *parser = json_parser_create(0);
    struct client_printer *printer = client_printer_create();
    FILE *out = tmpfile();

    if (!out) {
        _exit(6);
    }
    for (;;) {
        ssize_t r = read(fd, buf, sizeof buf);
        if (r == 0) {
            _exit(0);
        } else if (r < 0) {
            if (errno != EINTR) {
                _exit(3);
            }
            continue;
        }
        for (size_t used = 0; used < (size_t) r; ) {
            used += json_parser_feed(parser, buf + used, r - used);
            if (!json_parser_is_done(parser)) {
                continue;
            }
            struct json *msg = json_parser_finish(parser);
            if (json_get_type(msg) == JSON_STRING) {
                _exit(4);       /* A parse error. */
            }
            if (client_printer_print(printer, msg, out)) {
                _exit(5);
            }
            json_destroy(msg);
            unsigned long long n = atomic_fetch_add(&sync->printed, 1) + 1;
            if (n == atomic_load(&sync->target)
                && write(done_fd, "", 1) != 1) {
                _exit(8);
            }
            parser = json_parser_create(0);
        }
    }
}

static void
close_all(int *fds, int n)
{
    for (int i = 0; i < n; i++) {
        if (fds[i] >= 0) {
            close(fds[i]);
            fds[i] = -1;
        }
    }
}

/* Waits for every reader started; returns the first bad status or 0. */
static int
wait_readers(pid_t *readers, int n)
{
    int bad = 0;

    for (int i = 0; i < n; i++) {
        int status;
        if (readers[i] <= 0) {
            continue;
        }
        while (waitpid(readers[i], &status, 0) < 0) {
            if (errno != EINTR) {
                status = -1;
                break;
            }
        }
        if (!bad && (status == -1 || !WIFEXITED(status)
                     || WEXITSTATUS(status))) {
            bad = status ? status : -1;
        }
        readers[i] = 0;
    }
    return bad;
}

char *
client_sockets_open(struct client_sockets *cs, int n, bool print)
{
    size_t size = (n ? n : 1) * sizeof(int);
    int *theirs = xmalloc_as(XALLOC_MODEL, size);
    char *error = NULL;

    memset(cs, 0, sizeof *cs);
    cs->done_fd = -1;
    int done[2] = { -1, -1 };
    if (print) {
        void *shared = mmap(NULL, sizeof *cs->sync, PROT_READ | PROT_WRITE,
                            MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (shared == MAP_FAILED || pipe2(done, O_CLOEXEC)) {
            error = xasprintf("client sockets: %s: %s",
                              shared == MAP_FAILED ? "mmap" : "pipe",
                              strerror(errno));
            if (shared != MAP_FAILED) {
                munmap(shared, sizeof *cs->sync);
            }
            xfree(theirs);
            return error;
        }
        cs->sync = shared;
        atomic_init(&cs->sync->printed, 0);
        atomic_init(&cs->sync->target, 0);
    }
    cs->fds = xmalloc_as(XALLOC_MODEL, size);
    cs->readers = xcalloc_as(XALLOC_MODEL, n ? n : 1, sizeof *cs->readers);
    for (int i = 0; i < n; i++) {
        cs->fds[i] = theirs[i] = -1;
    }
    for (int i = 0; i < n; i++) {
        int pair[2];
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair)) {
            error = xasprintf("client sockets: socketpair for client %d of "
                              "%d: %s", i, n, strerror(errno));
            goto fail;
        }
        cs->fds[i] = pair[0];
        theirs[i] = pair[1];
    }

    /* Flush stdio so that no child can write a copy of it. */
    fflush(NULL);
    for (int i = 0; i < n; i++) {
        pid_t pid = fork();
        if (pid < 0) {
            error = xasprintf("client sockets: fork of client %d of %d: %s",
                              i, n, strerror(errno));
            goto fail;
        }
        if (!pid) {
            /* Every server end must close here, or no reader would see
             * the end of its stream. */
            int fd = theirs[i];
            theirs[i] = -1;
            close_all(cs->fds, n);
            close_all(theirs, n);
            if (print) {
                close(done[0]);
                reader_print(fd, cs->sync, done[1]);
            }
            reader_drop(fd);
        }
        cs->readers[i] = pid;
        close(theirs[i]);
        theirs[i] = -1;
    }
    xfree(theirs);
    cs->n = n;
    if (print) {
        /* Only the readers hold the write end now: if all of them end,
         * the server reads end-of-file instead of waiting forever. */
        close(done[1]);
        cs->done_fd = done[0];
    }
    return NULL;

fail:
    if (print) {
        close(done[0]);
        close(done[1]);
        munmap(cs->sync, sizeof *cs->sync);
        cs->sync = NULL;
    }
    close_all(cs->fds, n);
    close_all(theirs, n);
    wait_readers(cs->readers, n);
    xfree(cs->fds);
    xfree(cs->readers);
    xfree(theirs);
    cs->fds = NULL;
    cs->readers = NULL;
    return error;
}

char *
client_sockets_send(struct client_sockets *cs, int client, const char *data,
                    size_t len)
{
    int fd = cs->fds[client];

    while (len) {
        /* MSG_NOSIGNAL: a reader that died gives EPIPE, not SIGPIPE. */
        ssize_t w = send(fd, data, len, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (w > 0) {
            if ((size_t) w == len) {
                cs->messages++;
            }
            data += w;
            len -= w;
            cs->writes++;
        } else if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            struct pollfd pfd = { .fd = fd, .events = POLLOUT };
            cs->stalls++;
            if (poll(&pfd, 1, -1) < 0 && errno != EINTR) {
                return xasprintf("client sockets: poll: %s",
                                 strerror(errno));
            }
        } else if (w < 0 && errno == EINTR) {
            continue;
        } else {
            return xasprintf("client sockets: send to client %d: %s",
                             client, w < 0 ? strerror(errno) : "no progress");
        }
    }
    return NULL;
}

char *
client_sockets_wait_printed(struct client_sockets *cs)
{
    char buf[4096];

    if (cs->done_fd < 0) {
        return NULL;
    }
    atomic_store(&cs->sync->target, cs->messages);
    unsigned long long printed;
    while ((printed = atomic_load(&cs->sync->printed)) < cs->messages) {
        struct pollfd pfd = { .fd = cs->done_fd, .events = POLLIN };
        int n = poll(&pfd, 1, PRINT_TIMEOUT_MS);
        if (n == 0) {
            return xasprintf("client sockets: the clients printed %llu of "
                             "%llu messages in %d s", printed, cs->messages,
                             PRINT_TIMEOUT_MS / 1000);
        } else if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return xasprintf("client sockets: poll: %s", strerror(errno));
        }
        /* The wake-up byte, and any left by a client that completed an
         * earlier count just after the server saw it complete. */
        ssize_t r = read(cs->done_fd, buf, sizeof buf);
        if (r == 0) {
            return xasprintf("client sockets: every client ended after "
                             "printing %llu of %llu messages", printed,
                             cs->messages);
        } else if (r < 0 && errno != EINTR) {
            return xasprintf("client sockets: read: %s", strerror(errno));
        }
    }
    return NULL;
}

/* CPU time (user + sys) of process 'pid' in ms, from /proc (ticks), or -1
 * if it cannot be read. */
static double
process_cpu_ms(pid_t pid)
{
    char name[64], buf[1024];
    snprintf(name, sizeof name, "/proc/%ld/stat", (long) pid);
    FILE *f = fopen(name, "r");
    if (!f) {
        return -1;
    }
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';

    /* Fields 14 and 15 (utime, stime) come 11 and 12 fields after the
     * state, which follows the last ')' (the name may hold any byte). */
    char *p = strrchr(buf, ')');
    unsigned long long utime, stime;
    if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u "
                     "%llu %llu", &utime, &stime) != 2) {
        return -1;
    }
    return (utime + stime) * 1000.0 / sysconf(_SC_CLK_TCK);
}

double
client_sockets_cpu_ms(const struct client_sockets *cs)
{
    double sum = 0;
    for (int i = 0; i < cs->n; i++) {
        if (cs->readers[i] > 0) {
            double ms = process_cpu_ms(cs->readers[i]);
            if (ms < 0) {
                return -1;
            }
            sum += ms;
        }
    }
    return sum;
}

char *
client_sockets_close(struct client_sockets *cs, char *error)
{
    if (!cs->fds) {
        return error;
    }
    close_all(cs->fds, cs->n);
    if (cs->done_fd >= 0) {
        close(cs->done_fd);
        cs->done_fd = -1;
        munmap(cs->sync, sizeof *cs->sync);
        cs->sync = NULL;
    }
    int bad = wait_readers(cs->readers, cs->n);
    xfree(cs->fds);
    xfree(cs->readers);
    cs->fds = NULL;
    cs->readers = NULL;
    if (error || !bad) {
        return error;
    }
    return xasprintf("client sockets: a client process ended with status %d",
                     bad);
}
