"""Load for the realtime memory measurement, with nothing but the standard library.

    realtime-memory-clients.py PORT TOKEN hold COUNT   open COUNT sockets, join a channel on each,
                                                print OPEN, then keep them until killed
    realtime-memory-clients.py PORT TOKEN frames SIZE REPEAT
                                                send REPEAT text frames of SIZE bytes, each on
                                                its own socket, print DONE, exit

It runs outside the test process so the worker's resident size is not mixed with the
clients'. Frames use the all-zero mask key (legal, and the payload goes out unchanged).
"""
import socket
import sys
import time


def frame(payload, opcode=1):
    size = len(payload)
    if size < 126:
        header = bytes([0x80 | opcode, 0x80 | size])
    elif size < 65536:
        header = bytes([0x80 | opcode, 0x80 | 126]) + size.to_bytes(2, "big")
    else:
        header = bytes([0x80 | opcode, 0x80 | 127]) + size.to_bytes(8, "big")
    return header + b"\0\0\0\0" + payload


def connect(port, token):
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    request = (
        f"GET /realtime/v1/websocket?apikey={token}&vsn=1.0.0 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    sock.sendall(request.encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = sock.recv(4096)
        if not chunk:
            raise SystemExit("upgrade refused")
        answer += chunk
    if not answer.startswith(b"HTTP/1.1 101"):
        raise SystemExit("upgrade refused: " + answer.split(b"\r\n")[0].decode())
    return sock, answer.split(b"\r\n\r\n", 1)[1]


def hold(port, token, count):
    sockets = []
    for index in range(count):
        sock, pending = connect(port, token)
        join = (
            '{"topic":"realtime:memory-%d","event":"phx_join","ref":"1","payload":{"config":{"postgres_changes":'
            '[{"event":"*","schema":"public","table":"interactions"}]}}}' % index
        )
        sock.sendall(frame(join.encode()))
        sockets.append((sock, pending))
    for sock, pending in sockets:
        while b"phx_reply" not in pending:
            pending += sock.recv(65536)
    print("OPEN", flush=True)
    while True:
        time.sleep(60)


def frames(port, token, size, repeat):
    payload = b'{"topic":"phoenix","event":"heartbeat","payload":{"blob":"' + b"x" * size + b'"},"ref":"1"}'
    for _ in range(repeat):
        sock, _ = connect(port, token)
        try:
            sock.sendall(frame(payload))
            answer = b""
            while b"phx_reply" not in answer:  # an error reply, or the close frame and EOF
                chunk = sock.recv(65536)
                if not chunk:
                    break
                answer += chunk
        except OSError:
            pass  # the server may close while the frame is still being sent
        sock.close()
    print("DONE", flush=True)


if __name__ == "__main__":
    port, token, mode = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    if mode == "hold":
        hold(port, token, int(sys.argv[4]))
    else:
        frames(port, token, int(sys.argv[4]), int(sys.argv[5]))
