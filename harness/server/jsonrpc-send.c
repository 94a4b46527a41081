/* Sending one JSON-RPC message to a client as ovsdb-server does. */
#include "server/jsonrpc-send.h"

#include "clients/client-sockets.h"
#include "ds.h"
#include "json.h"
#include "util.h"

size_t
jsonrpc_send_text(struct client_sockets *sockets, int client,
                  struct json *msg, char **errorp)
{
    struct ds out = DS_EMPTY_INITIALIZER;

    json_to_ds(msg, 0, &out);
    json_destroy(msg);
    size_t n = out.length;
    if (sockets && !*errorp) {
        *errorp = client_sockets_send(sockets, client, out.string,
                                      out.length);
    }
    ds_destroy(&out);
    return n;
}
