/* Monitor clients at the far end of Unix stream sockets (client-sockets.h). */
#include "client-sockets.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

/* A client: reads and drops until the server closes its end.  Runs in a
 * forked child only. */
static void
reader_main(int fd)
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
client_sockets_open(struct client_sockets *cs, int n)
{
    size_t size = (n ? n : 1) * sizeof(int);
    int *theirs = xmalloc_as(XALLOC_MODEL, size);
    char *error = NULL;

    memset(cs, 0, sizeof *cs);
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
            reader_main(fd);
        }
        cs->readers[i] = pid;
        close(theirs[i]);
        theirs[i] = -1;
    }
    xfree(theirs);
    cs->n = n;
    return NULL;

fail:
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
client_sockets_close(struct client_sockets *cs)
{
    if (!cs->fds) {
        return NULL;
    }
    close_all(cs->fds, cs->n);
    int bad = wait_readers(cs->readers, cs->n);
    xfree(cs->fds);
    xfree(cs->readers);
    cs->fds = NULL;
    cs->readers = NULL;
    return (bad ? xasprintf("client sockets: a client process ended with "
                            "status %d", bad)
            : NULL);
}
