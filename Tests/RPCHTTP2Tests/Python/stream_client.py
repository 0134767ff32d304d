"""Client streaming (echo.v1.Echo/Collect) and bidirectional streaming (Chat) against an echo
server, from foreign clients: grpcio's stream_unary and stream_stream, raw h2 (Connect and gRPC
over HTTP/2, a half-close with no message, a reset mid-stream, a window the server keeps shut
while its handler does not read), Python's http.client with a chunked body over HTTP/1.1
(Connect and gRPC-Web, and the 505 of a bidirectional call), and the PyPI connectrpc client.

Usage: ``python3 stream_client.py --port P``. Prints one JSON report."""
import argparse, http.client, json, queue, socket, struct

import grpc
import h2.config
import h2.connection
import h2.events
import h2.settings
from connectrpc.client import ConnectClientSync
from connectrpc.errors import ConnectError
from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
port = parser.parse_args().port
report = {}


def envelope(message, flag=0):
    data = json.dumps(message).encode()
    return bytes([flag]) + struct.pack(">I", len(data)) + data


def envelopes(data):
    out, offset = [], 0
    while offset + 5 <= len(data):
        flag, length = data[offset], struct.unpack(">I", data[offset + 1:offset + 5])[0]
        out.append((flag, json.loads(data[offset + 5:offset + 5 + length] or b"{}") if flag in (0, 2) else data[offset + 5:offset + 5 + length].decode()))
        offset += 5 + length
    return out


def collect_requests():
    """The requests every protocol sends to Collect: 1 000 messages, ten of them marked."""
    return [{"text": "k" if index % 100 == 0 else ""} for index in range(1000)]


# MARK: grpcio

serialize = lambda message: json.dumps(message).encode()
deserialize = lambda raw: json.loads(raw or b"{}")
with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
    collect = channel.stream_unary("/echo.v1.Echo/Collect", request_serializer=serialize, response_deserializer=deserialize)
    report["grpcioCollect"] = collect(iter(collect_requests()), timeout=30)
    try:
        failing = [{"text": "a"}, {"text": "b", "status": 5, "message": "no b", "reason": "notFound"}] + [{"text": "x" * 1000}] * 10000
        collect(iter(failing), timeout=30)
        report["grpcioCollectError"] = {"code": "OK"}
    except grpc.RpcError as error:
        report["grpcioCollectError"] = {"code": error.code().name, "message": error.details()}

    chat = channel.stream_stream("/echo.v1.Echo/Chat", request_serializer=serialize, response_deserializer=deserialize)
    pending = queue.Queue()

    def requests():
        while (request := pending.get()) is not None:
            yield request

    # Lockstep: each request is sent only once the answer to the one before arrived.
    pending.put({"text": "ping 0"})
    answers = []
    for answer in chat(requests(), timeout=30):
        answers.append(answer)
        pending.put({"text": f"ping {len(answers)}"} if len(answers) < 100 else None)
    report["grpcioChat"] = answers
    try:
        received = []
        for answer in chat(iter([{"text": "a"}, {"text": "b"}, {"text": "c", "status": 9, "message": "stop"}]), timeout=30):
            received.append(answer)
        report["grpcioChatError"] = {"code": "OK", "received": len(received)}
    except grpc.RpcError as error:
        report["grpcioChatError"] = {"code": error.code().name, "message": error.details(), "received": len(received)}


# MARK: raw h2

class H2:
    """One HTTP/2 cleartext connection with prior knowledge."""

    def __init__(self):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
        self.conn.initiate_connection()
        self.flush()

    def flush(self):
        self.sock.sendall(self.conn.data_to_send())

    def open(self, path, content_type):
        stream = self.conn.get_next_available_stream_id()
        headers = [(":method", "POST"), (":scheme", "http"), (":authority", "127.0.0.1"), (":path", path), ("content-type", content_type)]
        if content_type.startswith("application/grpc"):
            headers.append(("te", "trailers"))
        self.conn.send_headers(stream, headers)
        self.flush()
        return stream

    def pump(self):
        """Reads once from the socket; returns the events."""
        data = self.sock.recv(65536)
        if not data:
            raise ConnectionError("closed")
        events = self.conn.receive_data(data)
        for event in events:
            if isinstance(event, h2.events.DataReceived):
                self.conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
        self.flush()
        return events

    def response(self, stream):
        """The response of `stream`: status, body and trailers, once it ended."""
        status, body, trailers = None, b"", {}
        while True:
            for event in self.pump():
                if getattr(event, "stream_id", None) != stream:
                    continue
                if isinstance(event, h2.events.ResponseReceived):
                    status = dict(event.headers).get(":status")
                elif isinstance(event, h2.events.DataReceived):
                    body += event.data
                elif isinstance(event, h2.events.TrailersReceived):
                    trailers = dict(event.headers)
                elif isinstance(event, (h2.events.StreamEnded, h2.events.StreamReset)):
                    return {"status": status, "body": envelopes(body), "trailers": trailers, "reset": isinstance(event, h2.events.StreamReset)}

    def close(self):
        self.sock.close()


h = H2()
stream = h.open("/echo.v1.Echo/Collect", "application/connect+json")
for request in collect_requests():
    h.conn.send_data(stream, envelope(request))
h.conn.end_stream(stream)
h.flush()
report["h2ConnectCollect"] = h.response(stream)

stream = h.open("/echo.v1.Echo/Collect", "application/grpc+json")
h.conn.end_stream(stream)  # half-close with no message at all
h.flush()
report["h2HalfCloseEmpty"] = h.response(stream)

stream = h.open("/echo.v1.Echo/Collect", "application/grpc-web+json")
for request in collect_requests():
    h.conn.send_data(stream, envelope(request))
h.conn.end_stream(stream)
h.flush()
report["h2GrpcWebCollect"] = h.response(stream)

# A reset mid-stream, once the handler answered a first message: the handler is cancelled
# (the Swift side waits for the probe's event).
stream = h.open("/echo.v1.Echo/Chat", "application/grpc+json")
h.conn.send_data(stream, envelope({"text": "h2 reset"}))
h.flush()
while not any(isinstance(event, h2.events.DataReceived) and event.stream_id == stream for event in h.pump()):
    pass
h.conn.reset_stream(stream, error_code=8)
h.flush()

# Window exhaustion: the handler sleeps after the first message; the server gives no credit
# for what it cannot hand to it, so the stream's window closes until the handler reads on.
stream = h.open("/echo.v1.Echo/Collect", "application/grpc+json")
h.conn.send_data(stream, envelope({"text": "slow", "sleepMs": 1500}))
chunk = envelope({"text": "w" * 16000})
total, sent, sent_before_stall = 256, 1, None
while sent < total:
    if h.conn.local_flow_control_window(stream) >= len(chunk) and h.conn.max_outbound_frame_size >= len(chunk):
        h.conn.send_data(stream, chunk)
        sent += 1
        continue
    h.flush()
    if sent_before_stall is None:
        sent_before_stall = sent * len(chunk)
    h.pump()  # blocks until the server sends something: its WINDOW_UPDATE once the handler read
h.conn.end_stream(stream)
h.flush()
report["h2Window"] = {"sentBeforeStall": sent_before_stall, "response": h.response(stream)}
h.close()


# MARK: http.client over HTTP/1.1, chunked

def chunked_post(connection, path, content_type, bodies):
    connection.putrequest("POST", path)
    connection.putheader("content-type", content_type)
    connection.putheader("transfer-encoding", "chunked")
    connection.endheaders()
    for body in bodies:
        connection.send(b"%x\r\n" % len(body) + body + b"\r\n")
    connection.send(b"0\r\n\r\n")
    response = connection.getresponse()
    return response.status, dict((name.lower(), value) for name, value in response.getheaders()), response.read()


http1 = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
status, headers, body = chunked_post(http1, "/echo.v1.Echo/Collect", "application/connect+json", [envelope(r) for r in collect_requests()])
report["http1ConnectCollect"] = {"status": status, "body": envelopes(body)}
status, headers, body = chunked_post(http1, "/echo.v1.Echo/Collect", "application/grpc-web+json", [envelope(r) for r in collect_requests()])
report["http1GrpcWebCollect"] = {"status": status, "body": envelopes(body)}
status, headers, body = chunked_post(http1, "/echo.v1.Echo/Chat", "application/connect+json", [envelope({"text": "over 1.1"})])
report["http1Chat"] = {"status": status, "connection": headers.get("connection"), "error": json.loads(body)}
http1.close()

# A handler that reads slowly holds the client back over HTTP/1.1 too: the server stops reading
# the socket, so the client's sends block once the kernel's buffers are full.
slow = socket.create_connection(("127.0.0.1", port), timeout=10)
slow.sendall(b"POST /echo.v1.Echo/Collect HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/connect+json\r\n"
             b"transfer-encoding: chunked\r\n\r\n")
first = envelope({"text": "slow", "sleepMs": 3000})
slow.sendall(b"%x\r\n" % len(first) + first + b"\r\n")
piece = envelope({"text": "w" * 16000})
piece = b"%x\r\n" % len(piece) + piece + b"\r\n"
total, sent, stalled_after = 4096, 1, None
slow.settimeout(1)
while sent < total:
    try:
        slow.sendall(piece)
        sent += 1
    except socket.timeout:
        # sendall may have sent part of the piece: the connection cannot go on.
        stalled_after = sent * len(piece)
        break
report["http1Window"] = {"stalledAfter": stalled_after, "total": total * len(piece)}
slow.close()


# MARK: connectrpc (HTTP/1.1)

class DictJSONCodec:
    def name(self):
        return "json"

    def encode(self, message):
        return json.dumps(message).encode()

    def decode(self, data, message_class):
        return json.loads(bytes(data)) if data else {}


def method(name, stream_type):
    return MethodInfo(name=name, service_name="echo.v1.Echo", input=dict, output=dict,
                      idempotency_level=IdempotencyLevel.UNKNOWN, stream_type=stream_type)


with ConnectClientSync(f"http://127.0.0.1:{port}", codec=DictJSONCodec()) as client:
    report["connectrpcCollect"] = client.execute_client_stream(request=iter(collect_requests()), method=method("Collect", StreamType.CLIENT_STREAM))
    try:
        report["connectrpcChat"] = {"answers": list(client.execute_bidi_stream(request=iter([{"text": "x"}]), method=method("Chat", StreamType.BIDI_STREAM)))}
    except ConnectError as error:
        report["connectrpcChat"] = {"code": error.code.value, "message": error.message}
print(json.dumps(report))
