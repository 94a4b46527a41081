/* What a monitoring client does with each message it receives.
 *
 * `ovsdb-client monitor-cond` prints every reply and update2 it gets as a
 * table: one row per changed database row (its UUID, the action, then one
 * cell per column of the monitored table, empty where the message has no
 * value), the columns padded to their widest cell, with a header and a
 * rule, then flushes its output.  The model's printing clients
 * (client-sockets.h) do the same work on the same messages: walk the
 * parsed message, format each value as OVSDB's text form ("[a, b]" for a
 * set, "{k=v}" for a map, a UUID bare, a string quoted only when it has to
 * be), lay out the table and write it.  The columns are those seen so far
 * in the client's messages (the initial reply names every column that has
 * a non-default value). */
#ifndef HARNESS_CLIENT_PRINT_H
#define HARNESS_CLIENT_PRINT_H 1

#include <stdio.h>

struct json;
struct client_printer;

struct client_printer *client_printer_create(void);
void client_printer_destroy(struct client_printer *);

/* Prints the table updates in 'msg' (a JSON-RPC reply or an update2
 * notification; other messages print nothing) to 'out' and flushes it.
 * Returns 0, or an errno value if writing failed. */
int client_printer_print(struct client_printer *, const struct json *msg,
                         FILE *out);

#endif
