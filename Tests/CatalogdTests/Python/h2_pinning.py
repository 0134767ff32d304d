"""An HTTP/2 client (the `h2` library) that tries to pin a server's memory on one connection.

Modes:
- ``partial-bodies``: STREAMS calls to Health/Check, each announcing a BYTES-byte message and
  sending all of it but its last byte, never ending the stream (flow control respected).
- ``zero-window``: SETTINGS_INITIAL_WINDOW_SIZE 0, then STREAMS Reflection/Describe calls whose
  answers it never lets through (no WINDOW_UPDATE, ever).

Once every stream was sent, prints one JSON line: the bytes sent and, by outcome, how many
streams ended so far (``grpc-status`` of a trailers-only answer, ``reset-<code>``), then
``open`` for the others. With ``--wait-ended`` it first waits, up to that many seconds, for
every stream to end. Then it holds the connection, reading and answering PINGs, until killed.

Usage: ``python3 h2_pinning.py --target 127.0.0.1:P --mode partial-bodies --streams 200 --bytes 1048576``
"""

import argparse
import json
import select
import socket
import sys
import time

import h2.config
import h2.connection
import h2.events
import h2.settings


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--target", required=True)
    parser.add_argument("--mode", choices=["partial-bodies", "zero-window"], required=True)
    parser.add_argument("--streams", type=int, default=100)
    parser.add_argument("--bytes", type=int, default=1 << 20)
    parser.add_argument("--wait-ended", type=float, default=0)
    args = parser.parse_args()

    host, port = args.target.rsplit(":", 1)
    sock = socket.create_connection((host, int(port)))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
    if args.mode == "zero-window":
        conn.local_settings = h2.settings.Settings(
            client=True, initial_values={h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 0})
    conn.initiate_connection()
    sock.sendall(conn.data_to_send())

    outcomes = {}  # stream id -> outcome
    state = {"sent": 0}

    def pump(timeout):
        """Reads what arrived within `timeout` seconds and handles it; False once the server closed."""
        ready, _, _ = select.select([sock], [], [], timeout)
        if not ready:
            return True
        data = sock.recv(1 << 20)
        if not data:
            return False
        for event in conn.receive_data(data):
            if isinstance(event, h2.events.ResponseReceived) or isinstance(event, h2.events.TrailersReceived):
                fields = dict(event.headers)
                if "grpc-status" in fields:
                    outcomes[event.stream_id] = "status-" + fields["grpc-status"]
            elif isinstance(event, h2.events.StreamReset):
                outcomes.setdefault(event.stream_id, "reset-%d" % event.error_code)
            elif isinstance(event, h2.events.ConnectionTerminated):
                outcomes.setdefault(0, "goaway-%d" % event.error_code)
        pending = conn.data_to_send()
        if pending:
            sock.sendall(pending)
        return True

    def headers(path):
        return [
            (":method", "POST"), (":scheme", "http"), (":path", path), (":authority", args.target),
            ("content-type", "application/grpc"), ("te", "trailers"),
        ]

    for index in range(args.streams):
        stream_id = conn.get_next_available_stream_id()
        if args.mode == "zero-window":
            conn.send_headers(stream_id, headers("/catalog.v1.Reflection/Describe"))
            conn.send_data(stream_id, b"\x00\x00\x00\x00\x02{}", end_stream=True)
            sock.sendall(conn.data_to_send())
            continue
        conn.send_headers(stream_id, headers("/grpc.health.v1.Health/Check"))
        body = bytearray(b"\x00" + args.bytes.to_bytes(4, "big") + b" " * (args.bytes - 1))
        offset = 0
        while offset < len(body) and stream_id not in outcomes and 0 not in outcomes:
            window = min(conn.local_flow_control_window(stream_id), conn.max_outbound_frame_size, len(body) - offset)
            if window <= 0:
                sock.sendall(conn.data_to_send())
                if not pump(5):
                    break
                continue
            conn.send_data(stream_id, bytes(body[offset:offset + window]))
            offset += window
            state["sent"] += window
            sock.sendall(conn.data_to_send())
        pump(0)

    deadline = time.monotonic() + args.wait_ended
    while time.monotonic() < deadline and len([s for s in outcomes if s != 0]) < args.streams:
        if not pump(0.05):
            break

    counts = {}
    for stream_id in range(1, 2 * args.streams, 2):
        outcome = outcomes.get(stream_id, "open")
        counts[outcome] = counts.get(outcome, 0) + 1
    if 0 in outcomes:
        counts[outcomes[0]] = 1
    print(json.dumps({"sent": state["sent"], "outcomes": counts}), flush=True)
    while pump(1):
        pass


if __name__ == "__main__":
    sys.exit(main())
