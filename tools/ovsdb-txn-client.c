/* ovsdb-txn-client: C concurrent JSON-RPC clients, each sending M insert
 * transactions to a real ovsdb-server over its unix socket, one request in
 * flight per client, all clients multiplexed with poll() in one process (so
 * the server, not process start-up, is what is measured).  Rows follow the
 * model's txn workload (harness/wl_txn.c): table Bench with two strings, a
 * boolean and an integer.  Prints one JSON object: transactions, wall,
 * inserts/s and per-transaction latency (min/median/p95/max, ms). */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

struct buf {
    char *data;
    size_t len, alloc;
};

struct client {
    int fd;
    int id;                     /* Client number. */
    int sent;                   /* Requests sent so far. */
    double t_sent;              /* When the outstanding request went out. */
    struct buf in;              /* Received, not yet consumed. */
};

static void
die(const char *fmt, ...)
{
    va_list args;

    fputs("ovsdb-txn-client: ", stderr);
    va_start(args, fmt);
    vfprintf(stderr, fmt, args);
    va_end(args);
    fputc('\n', stderr);
    exit(1);
}

static void *
xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) {
        die("out of memory");
    }
    return p;
}

static void
buf_reserve(struct buf *b, size_t n)
{
    if (b->len + n > b->alloc) {
        b->alloc = (b->len + n) * 2;
        b->data = xrealloc(b->data, b->alloc);
    }
}

static double
now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void
write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            die("write: %s", strerror(errno));
        }
        p += w;
        n -= w;
    }
}

/* A pseudo-random generator, so that runs are repeatable. */
static unsigned long long rng_state = 0x9e3779b97f4a7c15ULL;

static unsigned int
rng_next(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state >> 32;
}

static void
send_insert(struct client *c, const char *db)
{
    static const char *words[] = {
        "switch", "router", "port", "chassis", "gateway", "tenant", "uplink",
        "bridge", "segment", "policy",
    };
    char req[1024];
    int n = snprintf(req, sizeof req,
        "{\"method\":\"transact\",\"params\":[\"%s\",{\"op\":\"insert\","
        "\"table\":\"Bench\",\"row\":{\"name\":\"client%d-txn%d-%08x\","
        "\"description\":\"%s %s for %s %d, created by the insert "
        "benchmark\",\"enabled\":%s,\"count\":%d}}],\"id\":%d}",
        db, c->id, c->sent, rng_next(), words[rng_next() % 10],
        words[rng_next() % 10], words[rng_next() % 10], c->sent,
        rng_next() & 1 ? "true" : "false", c->sent, c->sent);

    if (n < 0 || (size_t) n >= sizeof req) {
        die("request too long");
    }
    c->t_sent = now_ms();
    write_all(c->fd, req, n);
    c->sent++;
}

/* Length of the first complete JSON object in 'b', or 0 if there is none
 * yet.  Tracks strings and escapes so braces inside strings do not count. */
static size_t
message_length(const struct buf *b)
{
    int depth = 0;
    bool in_string = false, escaped = false;

    for (size_t i = 0; i < b->len; i++) {
        char ch = b->data[i];
        if (in_string) {
            if (escaped) {
                escaped = false;
            } else if (ch == '\\') {
                escaped = true;
            } else if (ch == '"') {
                in_string = false;
            }
        } else if (ch == '"') {
            in_string = true;
        } else if (ch == '{' || ch == '[') {
            depth++;
        } else if (ch == '}' || ch == ']') {
            if (--depth == 0) {
                return i + 1;
            }
        }
    }
    return 0;
}

static int
compare_doubles(const void *a_, const void *b_)
{
    double a = *(const double *) a_, b = *(const double *) b_;
    return (a > b) - (a < b);
}

static int
connect_unix(const char *path)
{
    struct sockaddr_un sun;
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);

    if (fd < 0) {
        die("socket: %s", strerror(errno));
    }
    memset(&sun, 0, sizeof sun);
    sun.sun_family = AF_UNIX;
    if (strlen(path) >= sizeof sun.sun_path) {
        die("%s: socket path too long", path);
    }
    strcpy(sun.sun_path, path);
    if (connect(fd, (struct sockaddr *) &sun, sizeof sun) < 0) {
        die("%s: connect: %s", path, strerror(errno));
    }
    return fd;
}

int
main(int argc, char *argv[])
{
    if (argc != 5) {
        fprintf(stderr, "usage: ovsdb-txn-client SOCKET DATABASE CLIENTS "
                "TXNS\n(inserts into table Bench; see "
                "python/jsonbench/realovs)\n");
        return 2;
    }
    const char *path = argv[1], *db = argv[2];
    int n_clients = atoi(argv[3]), n_txns = atoi(argv[4]);
    if (n_clients <= 0 || n_txns <= 0) {
        die("CLIENTS and TXNS must be positive");
    }

    size_t total = (size_t) n_clients * n_txns, n_done = 0;
    double *latency = xrealloc(NULL, total * sizeof *latency);
    struct client *clients = xrealloc(NULL, n_clients * sizeof *clients);
    struct pollfd *pfds = xrealloc(NULL, n_clients * sizeof *pfds);

    memset(clients, 0, n_clients * sizeof *clients);
    for (int i = 0; i < n_clients; i++) {
        clients[i].fd = connect_unix(path);
        clients[i].id = i;
    }

    double start = now_ms();
    for (int i = 0; i < n_clients; i++) {
        send_insert(&clients[i], db);
    }
    while (n_done < total) {
        for (int i = 0; i < n_clients; i++) {
            pfds[i].fd = clients[i].fd;
            pfds[i].events = POLLIN;
        }
        if (poll(pfds, n_clients, 60000) <= 0) {
            die("no reply from the server within 60 s");
        }
        for (int i = 0; i < n_clients; i++) {
            struct client *c = &clients[i];
            if (!(pfds[i].revents & (POLLIN | POLLHUP | POLLERR))) {
                continue;
            }
            buf_reserve(&c->in, 65536);
            ssize_t r = read(c->fd, c->in.data + c->in.len, 65536);
            if (r <= 0) {
                die("client %d: connection closed by the server", i);
            }
            c->in.len += r;

            size_t n;
            while ((n = message_length(&c->in)) != 0) {
                /* Replies carry "error":null; an operation that failed
                 * says "error":"<what>" inside its result.  The message is
                 * looked at as a string with its closing brace cut off. */
                char *msg = c->in.data;
                char saved = msg[n - 1];
                msg[n - 1] = '\0';
                if (strstr(msg, "\"error\":\"")) {
                    die("client %d: transaction failed: %s}", i, msg);
                }
                bool is_echo = strstr(msg, "\"method\":\"echo\"") != NULL;
                bool is_reply = !is_echo && strstr(msg, "\"result\"");
                msg[n - 1] = saved;
                if (is_echo) {
                    static const char echo[] =
                        "{\"id\":\"echo\",\"result\":[],\"error\":null}";
                    write_all(c->fd, echo, sizeof echo - 1);
                } else if (is_reply) {
                    latency[n_done++] = now_ms() - c->t_sent;
                    if (c->sent < n_txns) {
                        send_insert(c, db);
                    }
                }
                memmove(c->in.data, c->in.data + n, c->in.len - n);
                c->in.len -= n;
            }
        }
    }
    double wall = now_ms() - start;

    qsort(latency, total, sizeof *latency, compare_doubles);
    printf("{\"clients\": %d, \"txns_per_client\": %d, \"txns\": %zu, "
           "\"wall_ms\": %.3f, \"inserts_per_s\": %.1f, "
           "\"latency_min_ms\": %.3f, \"latency_median_ms\": %.3f, "
           "\"latency_p95_ms\": %.3f, \"latency_max_ms\": %.3f}\n",
           n_clients, n_txns, total, wall, total / (wall / 1e3),
           latency[0], latency[total / 2],
           latency[(size_t) ((total - 1) * 0.95)], latency[total - 1]);

    for (int i = 0; i < n_clients; i++) {
        close(clients[i].fd);
        free(clients[i].in.data);
    }
    free(clients);
    free(pfds);
    free(latency);
    return 0;
}
