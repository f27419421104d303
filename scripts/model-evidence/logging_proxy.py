#!/usr/bin/env python3
"""A tiny logging reverse proxy for scripts/model-evidence.sh (Python standard library only).

It listens on 127.0.0.1 only, forwards every request to a server on 127.0.0.1 only, and
appends each exchange to a JSON-lines file: method, path, request headers and body exactly
as received, response status and body, and the upstream time in milliseconds. That file is
the record of the raw prompt the model server received.

Usage: logging_proxy.py LISTEN_PORT UPSTREAM_PORT LOG_FILE
"""
import http.client
import http.server
import json
import sys
import threading
import time

LOOPBACK = "127.0.0.1"  # both ends; never configurable


def main() -> None:
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    listen_port, upstream_port, log_path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        # One exchange per connection, closed after the response (what Dolphin's client expects).
        protocol_version = "HTTP/1.0"

        def log_message(self, format, *args):  # noqa: A002 - the base class's name
            sys.stderr.write("proxy: %s %s\n" % (self.address_string(), format % args))

        def forward(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            headers = {k: v for k, v in self.headers.items() if k.lower() in ("content-type", "accept")}
            started = time.monotonic()
            # http.client never consults proxy variables: this goes to 127.0.0.1 and nowhere else.
            upstream = http.client.HTTPConnection(LOOPBACK, upstream_port, timeout=900)
            try:
                upstream.request(self.command, self.path, body=body or None, headers=headers)
                response = upstream.getresponse()
                status, content_type, data = response.status, response.getheader("Content-Type", "application/json"), response.read()
            except OSError as error:
                status, content_type, data = 502, "text/plain", ("proxy: upstream failed: %s" % error).encode()
            finally:
                upstream.close()
            record = {
                "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "client": self.client_address[0],
                "method": self.command,
                "path": self.path,
                "request_headers": dict(self.headers.items()),
                "request_body": body.decode("utf-8", "replace"),
                "status": status,
                "response_body": data.decode("utf-8", "replace"),
                "upstream_ms": round((time.monotonic() - started) * 1000),
            }
            with lock, open(log_path, "a", encoding="utf-8") as log:
                log.write(json.dumps(record, ensure_ascii=False) + "\n")
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(data)

        do_GET = forward
        do_POST = forward

    server = http.server.ThreadingHTTPServer((LOOPBACK, listen_port), Handler)
    sys.stderr.write("proxy: %s:%d -> %s:%d, log %s\n" % (LOOPBACK, listen_port, LOOPBACK, upstream_port, log_path))
    server.serve_forever()


if __name__ == "__main__":
    main()
