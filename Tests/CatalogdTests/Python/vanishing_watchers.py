"""A grpcio client that is meant to be killed: it opens CHANNELS channels, each with a
Filters/Watch stream on the built-in "categories" filter and a unary Categories/List in flight
in a loop, prints "watching" once every stream delivered its snapshot, then keeps going until it
is killed, so the server sees the peer vanish mid-stream.

Usage: ``python3 vanishing_watchers.py --target 127.0.0.1:P --channels N``
"""

import argparse
import json
import sys
import threading

import grpc


def serialize(obj):
    return json.dumps(obj).encode()


def deserialize(raw):
    return json.loads(raw or b"{}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--target", required=True)
    parser.add_argument("--channels", type=int, default=20)
    args = parser.parse_args()

    channels = [grpc.insecure_channel(args.target) for _ in range(args.channels)]
    streams = []
    for channel in channels:
        watch = channel.unary_stream(
            "/catalog.v1.Filters/Watch", request_serializer=serialize, response_deserializer=deserialize
        )
        stream = watch({"filterId": "categories"}, timeout=600)
        first = next(stream)
        if first.get("kind") != "snapshot":
            print(f"expected a snapshot, got {first}", flush=True)
            return 1
        streams.append(stream)

    def list_forever(channel):
        call = channel.unary_unary(
            "/catalog.v1.Categories/List", request_serializer=serialize, response_deserializer=deserialize
        )
        while True:
            try:
                call({}, timeout=30)
            except grpc.RpcError:
                pass

    for channel in channels:
        threading.Thread(target=list_forever, args=(channel,), daemon=True).start()
    print("watching", flush=True)
    for event in streams[0]:  # until killed
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
