"""A change's latency from one catalogd to a Watch subscriber on another (or the same).

    replica_latency.py --select HOST:PORT --watch HOST:PORT [--changes 2000] [--interval-ms 1]

Watches filter `latency` (defined with 4 options if missing) on --watch, then makes --changes
Selects on --select, one at a time, --interval-ms apart. The latency of change r is the arrival
of the Watch event of revision r minus the start of the Select that made it. Prints one JSON
line: p50_ms, p99_ms, max_ms, changes, received. grpcio with JSON bodies (the contract's
`application/grpc`).
"""
import argparse
import json
import threading
import time

import grpc


def codec():
    return dict(request_serializer=lambda m: json.dumps(m).encode(), response_deserializer=json.loads)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--select", required=True)
    parser.add_argument("--watch", required=True)
    parser.add_argument("--changes", type=int, default=2000)
    parser.add_argument("--interval-ms", type=float, default=1.0)
    args = parser.parse_args()

    writer = grpc.insecure_channel(args.select)
    watcher = grpc.insecure_channel(args.watch)
    select = writer.unary_unary("/catalog.v1.Filters/Select", **codec())
    define = writer.unary_unary("/catalog.v1.Filters/Define", **codec())
    watch = watcher.unary_stream("/catalog.v1.Filters/Watch", **codec())
    options = [{"id": i, "title": "Option %d" % i} for i in range(1, 5)]
    start = define({"filterId": "latency", "title": "Latency", "options": options}, timeout=10)

    arrivals = {}
    done = threading.Event()
    synced = threading.Event()
    last_revision = [None]

    def follow():
        try:
            for event in watch({"filterId": "latency", "sinceRevision": start["revision"], "delivery": "everyChange"}):
                now = time.perf_counter()
                if event.get("kind") == "change":
                    arrivals[event["revision"]] = now
                    synced.set()
                    if last_revision[0] is not None and event["revision"] >= last_revision[0]:
                        done.set()
                        return
        except grpc.RpcError:
            pass  # the channel closed at the end

    thread = threading.Thread(target=follow, daemon=True)
    thread.start()
    # A first change, to know the stream is open before measuring.
    option = (start.get("selectedId") or 0) % 4 + 1
    first = select({"filterId": "latency", "optionId": option}, timeout=10)
    if not synced.wait(10):
        raise SystemExit("the Watch on %s received nothing" % args.watch)
    started = {}
    for _ in range(args.changes):
        option = option % 4 + 1
        t0 = time.perf_counter()
        state = select({"filterId": "latency", "optionId": option}, timeout=10)
        started[state["revision"]] = t0
        time.sleep(args.interval_ms / 1000)
    last_revision[0] = max(started)
    if max(arrivals, default=0) < last_revision[0]:
        done.wait(30)
    latencies = sorted((arrivals[r] - t0) * 1000 for r, t0 in started.items() if r in arrivals)
    n = len(latencies)

    def pick(q):
        return round(latencies[min(n - 1, int(n * q))], 3) if n else None

    print(json.dumps({"select": args.select, "watch": args.watch, "changes": len(started), "received": n,
                      "p50_ms": pick(0.50), "p99_ms": pick(0.99), "max_ms": round(latencies[-1], 3) if n else None,
                      "first_revision": first["revision"]}))
    writer.close()
    watcher.close()


if __name__ == "__main__":
    main()
