"""grpcio client driver for a server whose authorizer wants ``Bearer sesame``.

Usage: ``python3 auth_client.py --target 127.0.0.1:P``

Calls ``echo.v1.Echo`` with no token, a wrong token and the right one, as
``authorization`` metadata, and prints ONE JSON object on stdout with what was
observed (status codes by name, the error-detail-bin detail). Exits 0 even
when calls fail -- the caller asserts on the values -- and 2 only if the channel
cannot connect within 10 seconds.
"""

import argparse
import json
import sys

import grpc

from echo_client import GET, error_detail, stream, unary

TOKEN = [("authorization", "Bearer sesame")]
WRONG = [("authorization", "Bearer wrong")]


def outcome(code, call, **extra):
    return {"code": code, "details": call.details(), "error_detail": error_detail(call.trailing_metadata()), **extra}


def run(channel):
    results = {}
    code, _, call = unary(channel, GET, {"text": "no token"}, timeout=10)
    results["no_token"] = outcome(code, call)

    code, _, call = unary(channel, GET, {"text": "wrong"}, metadata=WRONG, timeout=10)
    results["wrong_token"] = outcome(code, call)

    code, response, call = unary(channel, GET, {"text": "with token"}, metadata=TOKEN, timeout=10)
    results["token"] = outcome(code, call, text=response and response.get("text"))

    code, responses, call = stream(channel, {"text": "s", "count": 3})
    results["stream_no_token"] = outcome(code, call, received=len(responses))
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", required=True)
    target = parser.parse_args().target

    with grpc.insecure_channel(target) as channel:
        try:
            grpc.channel_ready_future(channel).result(timeout=10)
        except grpc.FutureTimeoutError:
            print(f"cannot connect to {target}", file=sys.stderr)
            return 2
        print(json.dumps(run(channel)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
