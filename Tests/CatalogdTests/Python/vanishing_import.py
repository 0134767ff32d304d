"""A grpcio client that is meant to be killed mid-import: it streams CreateItem requests to
Catalog/ImportItems without end, prints "importing" once 2 000 went out, and keeps sending until
it is killed, so the server sees the peer vanish in the middle of the request stream.

Usage: ``python3 vanishing_import.py --target 127.0.0.1:P``
"""

import argparse
import json
import sys

import grpc


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--target", required=True)
    target = parser.parse_args().target

    def requests():
        index = 0
        while True:
            if index == 2000:
                print("importing", flush=True)
            yield {"title": f"Vanishing {index}", "categoryId": 1}
            index += 1

    with grpc.insecure_channel(target) as channel:
        call = channel.stream_unary(
            "/catalog.v1.Catalog/ImportItems",
            request_serializer=lambda message: json.dumps(message).encode(),
            response_deserializer=lambda raw: json.loads(raw or b"{}"),
        )
        call(requests(), timeout=600)  # never returns: killed first
    return 0


if __name__ == "__main__":
    sys.exit(main())
