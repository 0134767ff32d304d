"""Categories/Create, one call at a time, each with a name of its own, against a running catalogd.

    category_writes.py --port PORT --count N [--prefix TEXT]

Calls through grpcio with JSON bodies and prints one JSON line: calls, ok, median, p99 and
mean milliseconds per call, and the total seconds. Exits 1 when a call fails.
"""
import argparse
import json
import statistics
import sys
import time

import grpc


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--prefix", default="Scale")
    args = parser.parse_args()
    channel = grpc.insecure_channel("127.0.0.1:%d" % args.port)
    create = channel.unary_unary(
        "/catalog.v1.Categories/Create",
        request_serializer=lambda m: json.dumps(m).encode(),
        response_deserializer=json.loads,
    )
    durations = []
    start = time.perf_counter()
    for index in range(args.count):
        began = time.perf_counter()
        try:
            create({"name": "%s %d" % (args.prefix, index)}, timeout=30)
        except grpc.RpcError as error:
            print("create %d: %s %s" % (index, error.code(), error.details()), file=sys.stderr)
            sys.exit(1)
        durations.append((time.perf_counter() - began) * 1000)
    total = time.perf_counter() - start
    durations.sort()
    print(json.dumps({
        "calls": args.count,
        "ok": len(durations),
        "p50_ms": round(statistics.median(durations), 3),
        "p99_ms": round(durations[min(len(durations) - 1, int(len(durations) * 0.99))], 3),
        "mean_ms": round(statistics.fmean(durations), 3),
        "total_s": round(total, 2),
    }))


if __name__ == "__main__":
    main()
