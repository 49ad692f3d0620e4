#!/usr/bin/env python3
"""A webhook receiver for the tests, checking each delivery's Momentary-Signature with Python's own
hmac (an implementation independent of the server's) and writing every request it gets as a JSON
file (headers, body, whether the signature held, the status it answered) into a directory.

    webhook_receiver.py --dir DIR --secret SECRET [--fail N]

Prints "READY <port>" once it listens on 127.0.0.1. --fail answers the first N requests 503.
A request whose signature does not hold is answered 400.
"""
import argparse
import hashlib
import hmac
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def signature_holds(header, body, secret):
    """`t=<unix>,v1=<hex>`: HMAC-SHA256 of "<t>.<body>" keyed by the secret."""
    parts = dict(part.split("=", 1) for part in header.split(",") if "=" in part)
    if "t" not in parts or "v1" not in parts:
        return False
    expected = hmac.new(secret.encode(), parts["t"].encode() + b"." + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, parts["v1"])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--secret", required=True)
    parser.add_argument("--fail", type=int, default=0)
    options = parser.parse_args()
    lock = threading.Lock()
    state = {"count": 0}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            with lock:
                state["count"] += 1
                number = state["count"]
            verified = signature_holds(self.headers.get("Momentary-Signature", ""), body, options.secret)
            status = 503 if number <= options.fail else (204 if verified else 400)
            record = {
                "number": number, "path": self.path, "status": status, "verified": verified,
                "event": self.headers.get("Momentary-Event"), "delivery": self.headers.get("Momentary-Delivery"),
                "signature": self.headers.get("Momentary-Signature"),
                "body": body.decode("utf-8", "replace"),
            }
            name = os.path.join(options.dir, "%06d.json" % number)
            with open(name + ".part", "w") as file:
                json.dump(record, file)
            os.replace(name + ".part", name)
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *arguments):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print("READY %d" % server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    # Ends when the test closes standard input (or is killed).
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
