"""grpcio client driver for the JSON-bodied ``echo.v1.Echo`` interop service.

Usage: ``python3 echo_client.py --target 127.0.0.1:P``

Makes a fixed set of calls and prints ONE JSON object on stdout describing
what was observed (status codes by name, e.g. "OK", "NOT_FOUND"). A result
whose code is not the expected one also gets a "details" key, for debugging.
Exits 0 even when calls fail -- the caller asserts on the values -- and exits
2 only if the channel cannot connect within 10 seconds.
"""

import argparse
import json
import sys

import grpc

GET = "/echo.v1.Echo/Get"
EXPAND = "/echo.v1.Echo/Expand"


def serialize(obj):
    return json.dumps(obj).encode()


def deserialize(raw):
    return json.loads(raw or b"{}")


def metadata_dict(metadata):
    """Metadata as a dict; -bin values are decoded as UTF-8."""
    result = {}
    for key, value in metadata or ():
        result[key] = value.decode("utf-8", "replace") if isinstance(value, bytes) else value
    return result


def error_detail(metadata):
    """Parsed JSON of the error-detail-bin trailer, or None."""
    for key, value in metadata or ():
        if key == "error-detail-bin":
            try:
                return json.loads(value)
            except ValueError:
                return None
    return None


def unary(channel, method, request, request_serializer=serialize, **kwargs):
    """Run a unary call; return (code name, response or None, call/error)."""
    stub = channel.unary_unary(
        method, request_serializer=request_serializer, response_deserializer=deserialize
    )
    try:
        response, call = stub.with_call(request, **kwargs)
        return call.code().name, response, call
    except grpc.RpcError as error:
        return error.code().name, None, error


def stream(channel, request):
    """Run Expand; return (code name, list of responses, call)."""
    stub = channel.unary_stream(
        EXPAND, request_serializer=serialize, response_deserializer=deserialize
    )
    call = stub(request, timeout=30)
    responses = []
    try:
        for response in call:
            responses.append(response)
    except grpc.RpcError:
        pass
    return call.code().name, responses, call


def with_details(result, expected, call):
    """Add the status details (for debugging) when the code is not the expected one."""
    if result["code"] != expected and "details" not in result:
        result["details"] = call.details()
    return result


def run(channel):
    results = {}

    code, response, call = unary(
        channel, GET, {"text": "héllo"}, metadata=[("x-echo", "abc")], timeout=10
    )
    results["unary"] = with_details({
        "code": code,
        "text": response and response.get("text"),
        "initial": metadata_dict(call.initial_metadata()),
    }, "OK", call)

    code, _, call = unary(channel, GET, {
        "text": "x", "status": 5, "message": "no item 42 ✓", "reason": "notFound",
        "trailers": {"x-trace": "t1", "x-blob-bin": "raw"},
    }, timeout=10)
    results["unary_error"] = {
        "code": code,
        "details": call.details(),
        "trailers": metadata_dict(call.trailing_metadata()),
        "error_detail": error_detail(call.trailing_metadata()),
    }

    code, responses, call = stream(channel, {"text": "w", "count": 1000})
    results["stream"] = with_details({
        "code": code,
        "count": len(responses),
        "indexes_in_order": [r.get("index") for r in responses] == list(range(len(responses))),
        "trailers": metadata_dict(call.trailing_metadata()),
    }, "OK", call)

    # 20 MB in 20 000 messages: grpcio's flow control (WINDOW_UPDATE frames) all along.
    code, responses, call = stream(channel, {"text": "l" * 1000, "count": 20000})
    results["long_stream"] = with_details({
        "code": code,
        "count": len(responses),
        "indexes_in_order": [r.get("index") for r in responses] == list(range(len(responses))),
    }, "OK", call)

    code, responses, call = stream(channel, {
        "text": "w", "count": 3, "status": 9, "message": "stop", "reason": "tooFar",
    })
    results["stream_error"] = {
        "code": code,
        "received": len(responses),
        "details": call.details(),
        "error_detail": error_detail(call.trailing_metadata()),
    }

    code, _, call = unary(channel, "/echo.v1.Echo/Nope", {"text": "x"}, timeout=10)
    results["unknown_method"] = with_details({"code": code}, "UNIMPLEMENTED", call)

    code, _, call = unary(channel, GET, {"text": "slow", "sleepMs": 2000}, timeout=0.2)
    results["deadline"] = with_details({"code": code}, "DEADLINE_EXCEEDED", call)

    code, response, call = unary(
        channel, GET, {"text": "z" * 10000}, compression=grpc.Compression.Gzip, timeout=10
    )
    results["compressed"] = with_details({
        "code": code,
        "length": len(response.get("text") or "") if response else None,
    }, "OK", call)

    code, _, call = unary(
        channel, GET, None, request_serializer=lambda _: b"{not json", timeout=10
    )
    results["bad_json"] = {"code": code, "details": call.details()}

    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", required=True)
    target = parser.parse_args().target

    with grpc.insecure_channel(target, options=[("grpc.primary_user_agent", "interop")]) as channel:
        try:
            grpc.channel_ready_future(channel).result(timeout=10)
        except grpc.FutureTimeoutError:
            print(f"cannot connect to {target}", file=sys.stderr)
            return 2
        print(json.dumps(run(channel)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
