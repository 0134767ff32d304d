"""grpcio client driver for an ``echo.v1.Echo`` server that serves TLS.

Usage: ``python3 tls_client.py --target 127.0.0.1:P --ca ca.pem [--server-name NAME]``

Opens a channel with ``grpc.ssl_channel_credentials(root_certificates=<ca.pem>)``
(certificate checked for NAME when given), makes a unary call and a server
stream, and prints ONE JSON object on stdout with what was observed. Exits 0
even when calls fail -- the caller asserts on the values.
"""

import argparse
import json
import sys

import grpc

from echo_client import GET, stream, unary


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", required=True)
    parser.add_argument("--ca", required=True)
    parser.add_argument("--server-name")
    args = parser.parse_args()

    with open(args.ca, "rb") as file:
        credentials = grpc.ssl_channel_credentials(root_certificates=file.read())
    options = [("grpc.ssl_target_name_override", args.server_name)] if args.server_name else []
    with grpc.secure_channel(args.target, credentials, options=options) as channel:
        code, response, call = unary(channel, GET, {"text": "over TLS"}, timeout=10)
        result = {"unary": {"code": code, "details": call.details(), "text": response and response.get("text")}}
        code, responses, call = stream(channel, {"text": "s", "count": 5})
        result["stream"] = {"code": code, "details": call.details(), "received": len(responses)}
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
