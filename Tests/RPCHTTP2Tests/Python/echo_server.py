"""Reference grpcio server for the JSON-bodied ``echo.v1.Echo`` interop service.

Usage: ``python3 echo_server.py --port P`` (``0`` picks a free port).

Binds 127.0.0.1 (insecure), prints exactly one line ``LISTENING <port>`` to
stdout once serving, and runs until SIGTERM/SIGINT, then exits 0.

Methods (request/response bodies are UTF-8 JSON):
  Get    (unary)            {"text", "status"?, "message"?, "reason"?,
                             "trailers"?, "sleepMs"?} -> {"text"}
  Expand (server streaming) {"text", "count", ...same optional fields}
                             -> {"text", "index"} x count
  Collect (client streaming) {"text", "status"?, ...} x n
                             -> {"text": first characters joined, "index": n}
  Chat   (bidirectional)     {"text", "status"?, ...} x n -> {"text", "index"} each
A non-zero ``status`` fails the call with that code and ``message`` after any
responses; ``trailers`` are always sent as trailing metadata and ``reason``
adds an ``error-detail-bin`` trailer holding ``{"reason": reason}`` as JSON.
The ``x-echo`` request header is echoed back in the initial metadata.
Unparseable request JSON fails with INVALID_ARGUMENT.
"""

import argparse
import json
import signal
import sys
import threading
import time
from concurrent import futures

import grpc

CODES = {code.value[0]: code for code in grpc.StatusCode}


def serialize(obj):
    return json.dumps(obj).encode()


def parse(raw, context):
    """Decode the raw request bytes; abort with INVALID_ARGUMENT if not a JSON object."""
    try:
        request = json.loads(raw or b"{}")
    except ValueError as error:
        context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"invalid JSON: {error}")
    if not isinstance(request, dict):
        context.abort(grpc.StatusCode.INVALID_ARGUMENT, "request must be a JSON object")
    return request


def begin(request, context):
    """Echo x-echo in initial metadata and stage the requested trailers."""
    echo = [(k, v) for k, v in context.invocation_metadata() if k == "x-echo"]
    if echo:
        context.send_initial_metadata(echo[:1])
    trailers = [
        (k, v.encode() if k.endswith("-bin") else v)
        for k, v in (request.get("trailers") or {}).items()
    ]
    if request.get("reason"):
        trailers.append(("error-detail-bin", serialize({"reason": request["reason"]})))
    context.set_trailing_metadata(trailers)


def finish(request, context):
    """Fail the call if the request asked for a non-zero status."""
    status = request.get("status") or 0
    if status:
        code = CODES.get(status, grpc.StatusCode.UNKNOWN)
        context.abort(code, request.get("message") or "")


def get(raw, context):
    request = parse(raw, context)
    begin(request, context)
    if request.get("sleepMs"):
        time.sleep(request["sleepMs"] / 1000)
    finish(request, context)
    return {"text": request.get("text", "")}


def expand(raw, context):
    request = parse(raw, context)
    begin(request, context)
    for index in range(int(request.get("count") or 0)):
        yield {"text": request.get("text", ""), "index": index}
    finish(request, context)


def collect(raw_requests, context):
    """Client streaming: the first character of each request's text, joined, and the count."""
    text, count = "", 0
    for raw in raw_requests:
        request = parse(raw, context)
        finish(request, context)
        text += request.get("text", "")[:1]
        count += 1
    return {"text": text, "index": count}


def chat(raw_requests, context):
    """Bidirectional: each request answered at once with its text and index."""
    for index, raw in enumerate(raw_requests):
        request = parse(raw, context)
        finish(request, context)
        yield {"text": request.get("text", ""), "index": index}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    port_arg = parser.parse_args().port

    handler = grpc.method_handlers_generic_handler(
        "echo.v1.Echo",
        {
            # Identity deserializer: JSON is parsed in the handler so bad input
            # can be reported as INVALID_ARGUMENT.
            "Get": grpc.unary_unary_rpc_method_handler(
                get, request_deserializer=None, response_serializer=serialize
            ),
            "Expand": grpc.unary_stream_rpc_method_handler(
                expand, request_deserializer=None, response_serializer=serialize
            ),
            "Collect": grpc.stream_unary_rpc_method_handler(
                collect, request_deserializer=None, response_serializer=serialize
            ),
            "Chat": grpc.stream_stream_rpc_method_handler(
                chat, request_deserializer=None, response_serializer=serialize
            ),
        },
    )
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=16))
    server.add_generic_rpc_handlers((handler,))
    port = server.add_insecure_port(f"127.0.0.1:{port_arg}")
    server.start()

    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    print(f"LISTENING {port}", flush=True)
    stop.wait()
    server.stop(grace=1).wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
