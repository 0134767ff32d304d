"""Calls an echo.v1.Echo server with the PyPI `connectrpc` client, a third-party Connect and
gRPC-Web client, through a codec that sends JSON dictionaries (no protobuf): unary, GET,
errors and a server stream, over Connect and gRPC-Web. Prints one JSON report."""
import argparse, json
from connectrpc.client import ConnectClientSync
from connectrpc.errors import ConnectError
from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType
from connectrpc.protocol import ProtocolType


class DictJSONCodec:
    def name(self):
        return "json"

    def encode(self, message):
        return json.dumps(message).encode()

    def decode(self, data, message_class):
        return json.loads(bytes(data)) if data else {}


def method(name, stream=False, read=False):
    return MethodInfo(name=name, service_name="echo.v1.Echo", input=dict, output=dict,
                      idempotency_level=IdempotencyLevel.NO_SIDE_EFFECTS if read else IdempotencyLevel.UNKNOWN,
                      stream_type=StreamType.SERVER_STREAM if stream else StreamType.UNARY)


parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
port = parser.parse_args().port
report = {}
for label, protocol in [("connect", ProtocolType.CONNECT), ("grpcWeb", ProtocolType.GRPC_WEB)]:
    with ConnectClientSync(f"http://127.0.0.1:{port}", codec=DictJSONCodec(), protocol=protocol) as client:
        entry = {}
        entry["unary"] = client.execute_unary(request={"text": "héllo"}, method=method("Get"))
        entry["large"] = len(client.execute_unary(request={"text": "x" * 5000}, method=method("Get"))["text"])
        if protocol == ProtocolType.CONNECT:
            entry["get"] = client.execute_unary(request={"text": "by get"}, method=method("Quick", read=True), use_get=True)
        try:
            client.execute_unary(request={"text": "x", "status": 5, "message": "no item 42", "reason": "notFound"}, method=method("Get"))
            entry["error"] = None
        except ConnectError as error:
            entry["error"] = {"code": error.code.value, "message": error.message}
        entry["stream"] = [m.get("index") for m in client.execute_server_stream(request={"text": "s", "count": 5}, method=method("Count", stream=True))]
        try:
            received = []
            for m in client.execute_server_stream(request={"text": "s", "count": 3, "status": 9, "message": "stop"}, method=method("Expand", stream=True)):
                received.append(m.get("index"))
            entry["streamError"] = {"received": received, "code": None}
        except ConnectError as error:
            entry["streamError"] = {"received": received, "code": error.code.value, "message": error.message}
        report[label] = entry
print(json.dumps(report))
