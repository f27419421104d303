#!/usr/bin/env python3
"""A stand-in for a local OpenAI-compatible model server (tests only; never the product).

    model_standin.py PORT_FILE LOG_FILE [--seconds 120]

Listens on 127.0.0.1 on a free port (written to PORT_FILE; its pid to PORT_FILE.pid), answers POST .../chat/completions
with a fixed assistant message and GET .../models with one model, appends one line per request
to LOG_FILE, and exits by itself after --seconds (a bounded lifetime: it never outlives a test).
"""

import http.server
import json
import os
import sys
import threading

ANSWER = "Stand-in model answer: the evidence was read as data."


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def _send(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self._record()
        if self.path.rstrip("/").endswith("/models"):
            self._send(200, {"object": "list", "data": [{"id": "local", "object": "model"}]})
        else:
            self._send(404, {"error": "not found"})

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        self._record(len(body))
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._send(404, {"error": "not found"})
            return
        self._send(200, {
            "id": "standin-1", "object": "chat.completion", "model": "local",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": ANSWER}}],
        })

    def _record(self, size=0):
        with open(sys.argv[2], "a") as log:
            log.write(f"{self.command} {self.path} {size}\n")


def main():
    seconds = 120.0
    if "--seconds" in sys.argv:
        seconds = float(sys.argv[sys.argv.index("--seconds") + 1])
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(sys.argv[1] + ".pid", "w") as f:
        f.write(str(os.getpid()))
    with open(sys.argv[1], "w") as f:
        f.write(str(server.server_address[1]))
    threading.Timer(seconds, server.shutdown).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
