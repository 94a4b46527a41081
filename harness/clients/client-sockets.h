/* The monitor workload's clients at the far end of real sockets.
 *
 * ovsdb-server sends each JSON-RPC message by composing its text and
 * writing it to the client's stream socket (jsonrpc_send(), stream-unix):
 * per client and message, write(2) calls whose system time grows with the
 * bytes and the number of clients, and which the json cache does not
 * remove.  The model sends its messages the same way: one Unix stream
 * socket per client, written until the text is taken.  At the far end of
 * each, a reader process of its own stands for the client (forked before
 * the database is loaded, so each fork copies a small heap): it sleeps in
 * read(2), so a message to an idle client wakes a sleeping process, as it
 * wakes an ovsdb-client, and the reading costs the measured process
 * nothing, as the clients' reading costs the real server nothing.
 *
 * A reader either drops what arrives, or (print) does what a monitoring
 * ovsdb-client does with it: parses each message, prints its text to a
 * file and flushes it.  Printing clients share the machine's cores and
 * caches with the server as the real clients do, and they count what they
 * have printed, so that the server can wait between batches as the
 * real-OVS runner waits for every client's output. */
#ifndef HARNESS_CLIENT_SOCKETS_H
#define HARNESS_CLIENT_SOCKETS_H 1

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct print_sync;

struct client_sockets {
    int n;              /* Clients. */
    int *fds;           /* Server ends, one per client. */
    pid_t *readers;     /* One per client, 0 once waited for. */
    unsigned long long writes;   /* send(2) calls that took bytes. */
    unsigned long long stalls;   /* Waits for a full socket to drain. */
    unsigned long long messages; /* Messages sent in full. */
    /* Printing clients only (else NULL and -1): their count of messages
     * printed, shared with them, and the read end of their wake-up pipe. */
    struct print_sync *sync;
    int done_fd;
};

/* Opens 'n' client sockets and forks their readers, printing ones if
 * 'print'.  Returns NULL or a malloc'd error (then nothing is left open or
 * running). */
char *client_sockets_open(struct client_sockets *, int n, bool print);

/* Writes 'len' bytes of 'data' to client 'client', waiting (without CPU)
 * while its socket is full, as the server's poll loop would.  Returns NULL
 * or a malloc'd error. */
char *client_sockets_send(struct client_sockets *, int client,
                          const char *data, size_t len);

/* Printing clients: waits until they have printed every message sent so
 * far (a no-op for dropping ones).  Returns NULL or a malloc'd error if
 * they all ended or took over two minutes. */
char *client_sockets_wait_printed(struct client_sockets *);

/* The CPU time (user + sys, ms, 10 ms ticks per process) the clients
 * have used so far, or -1 if /proc cannot tell. */
double client_sockets_cpu_ms(const struct client_sockets *);

/* Closes the server ends, which ends the readers, and waits for them.
 * Returns 'error' (the caller's first error, NULL if none) when it is
 * set, else NULL or a malloc'd error if a reader failed: the first error
 * is the one reported. */
char *client_sockets_close(struct client_sockets *, char *error);

#endif
