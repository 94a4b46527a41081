"""A minimal OVSDB JSON-RPC client over a unix socket, for the few
requests the runner itself sends (raft transactions): one request at a
time, replies matched by id, the server's echo requests answered."""

import json
import socket


class JsonRpcError(Exception):
    pass


class Client:
    def __init__(self, path, timeout=600):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.buf = ""
        self.next_id = 0
        self.decoder = json.JSONDecoder()

    def _recv_message(self):
        while True:
            text = self.buf.lstrip()
            if text:
                try:
                    msg, end = self.decoder.raw_decode(text)
                except json.JSONDecodeError:
                    pass
                else:
                    self.buf = text[end:]
                    return msg
            data = self.sock.recv(1 << 16)
            if not data:
                raise JsonRpcError("connection closed by the server")
            self.buf += data.decode()

    def request(self, method, params):
        rid = self.next_id
        self.next_id += 1
        self.sock.sendall(json.dumps({"method": method, "params": params,
                                      "id": rid}).encode())
        while True:
            msg = self._recv_message()
            if msg.get("method") == "echo":
                self.sock.sendall(json.dumps({"result": msg["params"],
                                              "id": msg["id"],
                                              "error": None}).encode())
            elif msg.get("id") == rid:
                if msg.get("error"):
                    raise JsonRpcError("%s: %s" % (method, msg["error"]))
                return msg["result"]

    def transact(self, db, *ops):
        result = self.request("transact", [db] + list(ops))
        for r in result:
            if isinstance(r, dict) and "error" in r:
                raise JsonRpcError("transaction failed: %s" % r)
        return result

    def close(self):
        self.sock.close()
