#!/usr/bin/env python3
"""A real SMTP server (aiosmtpd) for the tests: takes mail and writes each message it accepts as
a JSON file (envelope, the authenticated user, the raw message, and its subject and text
as Python's email package reads them) into a directory.

    smtp_sink.py --dir DIR [--tls implicit|starttls] [--cert PEM --key PEM] [--auth USER:PASSWORD]
                 [--refuse N] [--refuse-code CODE] [--hang-after-data]

Prints "READY <port>" once it listens on 127.0.0.1. --refuse answers the first N messages'
DATA with CODE (451 by default) instead of taking them. --hang-after-data never answers the
final dot, as a server that died mid-message would seem to.
"""
import argparse
import asyncio
import email
import email.policy
import json
import os
import socket
import ssl
import sys
import time
import uuid
import warnings

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Sink:
    def __init__(self, directory, refuse, refuse_code, hang):
        self.directory = directory
        self.refuse = refuse
        self.refuse_code = refuse_code
        self.hang = hang

    async def handle_DATA(self, server, session, envelope):
        if self.refuse > 0:
            self.refuse -= 1
            return "%d 4.3.0 not now, try again later" % self.refuse_code if self.refuse_code < 500 \
                else "%d 5.7.1 refused" % self.refuse_code
        if self.hang:
            await asyncio.sleep(3600)
        # Python's own parser reads the message, so the test sees what a mail program would show.
        parsed = email.message_from_bytes(envelope.original_content, policy=email.policy.default)
        record = {
            "subject": parsed["subject"],
            "from": parsed["from"],
            "to": parsed["to"],
            "message_id": parsed["message-id"],
            "body": parsed.get_body(preferencelist=("plain",)).get_content(),
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "user": getattr(session, "momentary_user", None),
            "tls": server.transport.get_extra_info("ssl_object") is not None,
            "data": envelope.original_content.decode("utf-8", "replace"),
        }
        name = "%.6f-%s.json" % (time.time(), uuid.uuid4().hex)
        temporary = os.path.join(self.directory, "." + name)
        with open(temporary, "w") as file:
            json.dump(record, file)
        os.rename(temporary, os.path.join(self.directory, name))
        return "250 2.0.0 taken"


def main():
    # Plain-text AUTH is what the test of starttls=never asks for; the warning would only be noise.
    warnings.filterwarnings("ignore", category=UserWarning)
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--tls", choices=["implicit", "starttls"])
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--auth")
    parser.add_argument("--refuse", type=int, default=0)
    parser.add_argument("--refuse-code", type=int, default=451)
    parser.add_argument("--hang-after-data", action="store_true")
    arguments = parser.parse_args()

    context = None
    if arguments.tls:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(arguments.cert, arguments.key)
    options = {}
    if arguments.auth:
        user, password = arguments.auth.split(":", 1)

        def authenticator(server, session, envelope, mechanism, data):
            ok = isinstance(data, LoginPassword) and data.login == user.encode() and data.password == password.encode()
            if ok:
                session.momentary_user = user
            return AuthResult(success=ok, handled=False)
        options.update(authenticator=authenticator, auth_required=True, auth_require_tls=arguments.tls is not None)
    if arguments.tls == "starttls":
        options.update(tls_context=context, require_starttls=True)
    port = free_port()
    controller = Controller(
        Sink(arguments.dir, arguments.refuse, arguments.refuse_code, arguments.hang_after_data),
        hostname="127.0.0.1", port=port, ssl_context=context if arguments.tls == "implicit" else None,
        server_hostname="localhost", ready_timeout=30, **options)
    controller.start()
    print("READY %d" % port, flush=True)
    try:
        sys.stdin.read()  # until the test closes our stdin or ends us
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
