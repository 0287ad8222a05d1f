"""A real SMTP server for the mail tests (aiosmtpd): keeps every message it receives as a file.

usage: smtp_sink.py DIRECTORY USER PASSWORD [CERT KEY]
Requires AUTH with USER/PASSWORD; with CERT and KEY it offers STARTTLS and requires it.
Prints "listening PORT" when ready, then serves until killed. Message N is DIRECTORY/N.eml.
"""
import os
import signal
import socket
import ssl
import sys
import time

# A test process that dies leaves this server running: hold none of its descriptors (such as a
# build lock taken around `swift test`), stop when SIGTERM comes even if the parent ignored it,
# and stop when the parent is gone.
os.closerange(3, 4096)
signal.signal(signal.SIGTERM, signal.SIG_DFL)
parent = os.getppid()

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

directory, user, password = sys.argv[1:4]
cert = sys.argv[4:6]


class Sink:
    count = 0

    async def handle_DATA(self, server, session, envelope):
        Sink.count += 1
        path = os.path.join(directory, f"{Sink.count:04d}.eml")
        with open(path + ".part", "wb") as file:
            file.write(envelope.original_content)
        os.rename(path + ".part", path)
        return "250 Message accepted"


def authenticate(server, session, envelope, mechanism, data):
    ok = isinstance(data, LoginPassword) and data.login.decode() == user and data.password.decode() == password
    return AuthResult(success=ok)


with socket.socket() as probe:
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]

options = dict(authenticator=authenticate, auth_required=True, auth_require_tls=bool(cert))
if cert:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert[0], cert[1])
    options.update(tls_context=context, require_starttls=True)
controller = Controller(Sink(), hostname="127.0.0.1", port=port, server_hostname="localhost", **options)
controller.start()
print(f"listening {port}", flush=True)
while os.getppid() == parent:
    time.sleep(0.5)
os._exit(0)
