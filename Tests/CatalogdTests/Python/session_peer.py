"""Foreign clients of Filters/Session: grpcio's stream_stream (JSON bytes), and Python's
http.client asking for the same call over HTTP/1.1 with Connect, which must be 505.

Prints one JSON object: the events grpcio read (each with kind, tag, revision, selectedId and
the error code of a refused action), the call's status, and the HTTP/1.1 answer.

Usage: ``python3 session_peer.py --target 127.0.0.1:P``
"""

import argparse
import http.client
import json
import queue
import sys

import grpc


def grpc_session(target):
    requests = queue.Queue()
    requests.put({"filterId": "categories"})

    def request_iterator():
        while True:
            message = requests.get()
            if message is None:
                return
            yield message

    events = []
    with grpc.insecure_channel(target) as channel:
        session = channel.stream_stream(
            "/catalog.v1.Filters/Session",
            request_serializer=lambda message: json.dumps(message).encode(),
            response_deserializer=lambda raw: json.loads(raw),
        )
        call = session(request_iterator(), timeout=60)
        actions = None
        for event in call:
            if event["kind"] == "heartbeat":
                continue
            events.append({
                "kind": event["kind"],
                "tag": event.get("tag"),
                "revision": event["revision"],
                "selectedId": (event.get("state") or {}).get("selectedId"),
                "error": (event.get("error") or {}).get("code"),
            })
            if event["kind"] == "snapshot":
                option = event["state"]["options"][0]["id"]
                actions = [
                    {"tag": "pick", "select": {"optionId": option}},
                    {"tag": "again", "select": {"optionId": option}},
                    {"tag": "missing", "select": {"optionId": 999999}},
                    {"tag": "clear", "select": {"optionId": option, "toggle": True}},
                ]
            if event["kind"] == "synced":
                for action in actions:
                    requests.put(action)
                requests.put(None)  # the half-close, right after the actions
        return events, call.code().name


def http1_session(target):
    host, port = target.rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    body = json.dumps({"filterId": "categories"}).encode()
    envelope = bytes([0]) + len(body).to_bytes(4, "big") + body
    connection.request(
        "POST", "/catalog.v1.Filters/Session", body=envelope,
        headers={"Content-Type": "application/connect+json", "Connect-Protocol-Version": "1"},
    )
    response = connection.getresponse()
    answer = response.read()
    closes = response.getheader("Connection", "").lower() == "close"
    connection.close()
    return {"status": response.status, "body": json.loads(answer), "closes": closes}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--target", required=True)
    target = parser.parse_args().target
    events, code = grpc_session(target)
    print(json.dumps({"events": events, "code": code, "http1": http1_session(target)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
