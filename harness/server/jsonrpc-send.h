/* Sending one JSON-RPC message to a client the way ovsdb-server's
 * jsonrpc_send() does: the tree serialized into a buffer of its own and
 * freed, the text written to the client's socket, the buffer freed. */
#ifndef HARNESS_JSONRPC_SEND_H
#define HARNESS_JSONRPC_SEND_H 1

#include <stddef.h>

struct client_sockets;
struct json;

/* Serializes 'msg' (taken) and writes the text to client 'client' of
 * 'sockets', unless 'sockets' is NULL (no sockets: the text is only
 * counted) or '*errorp' holds an earlier write's error; a failed write
 * sets '*errorp' (malloc'd).  Returns the text's length. */
size_t jsonrpc_send_text(struct client_sockets *sockets, int client,
                         struct json *msg, char **errorp);

#endif
