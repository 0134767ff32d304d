"""A foreign CBOR client of catalogd: the `h2` HTTP/2 library and `cbor2`, no gRPC library.

Calls, with `content-type: application/grpc+cbor`: Categories/Create, Categories/List (also in
JSON, to compare), Catalog/GetItem of a missing item, a GetItem whose body is ill-formed CBOR
and one whose id has the wrong type, then Filters/Watch of `categories` while a Select is
made on another stream, then Catalog/CreateItem, and every read method in CBOR and in JSON
(their answers must be equal). Checks each answer and prints one JSON line: {"checks": {name:
bool}, "notes": {...}}. Every CBOR response must be canonical: cbor2.dumps(cbor2.loads(x),
canonical=True) == x.

Usage: python3 cbor_peer.py --target 127.0.0.1:PORT
"""

import argparse
import base64
import json
import socket
import struct
import time

import cbor2
import h2.config
import h2.connection
import h2.events

CBOR = "application/grpc+cbor"


class Client:
    def __init__(self, target):
        host, port = target.rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)))
        self.sock.settimeout(10)
        self.conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
        self.conn.initiate_connection()
        self.flush()
        self.streams = {}

    def flush(self):
        data = self.conn.data_to_send()
        if data:
            self.sock.sendall(data)

    def start(self, path, body, content_type=CBOR, end=True):
        stream = self.conn.get_next_available_stream_id()
        self.conn.send_headers(stream, [
            (":method", "POST"), (":scheme", "http"), (":path", path), (":authority", "catalog"),
            ("content-type", content_type), ("te", "trailers"),
        ])
        self.conn.send_data(stream, b"\x00" + struct.pack(">I", len(body)) + body, end_stream=end)
        self.flush()
        self.streams[stream] = {"data": b"", "headers": {}, "trailers": {}, "ended": False}
        return stream

    def pump(self, until, timeout=10):
        deadline = time.time() + timeout
        while not until():
            if time.time() > deadline:
                raise TimeoutError("no answer in time")
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("the server closed the connection")
            for event in self.conn.receive_data(data):
                state = self.streams.get(getattr(event, "stream_id", None))
                if isinstance(event, h2.events.ResponseReceived):
                    state["headers"] = dict(event.headers)
                elif isinstance(event, h2.events.TrailersReceived):
                    state["trailers"] = dict(event.headers)
                elif isinstance(event, h2.events.DataReceived):
                    state["data"] += event.data
                    self.conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                elif isinstance(event, (h2.events.StreamEnded, h2.events.StreamReset)):
                    state["ended"] = True
            self.flush()

    def call(self, path, body, content_type=CBOR):
        stream = self.start(path, body, content_type)
        self.pump(lambda: self.streams[stream]["ended"])
        return self.streams[stream]

    def messages(self, stream):
        """The complete messages received on `stream` so far."""
        data, found = self.streams[stream]["data"], []
        while len(data) >= 5:
            length = struct.unpack(">I", data[1:5])[0]
            if len(data) < 5 + length:
                break
            found.append(data[5:5 + length])
            data = data[5 + length:]
        return found


def status(answer):
    """grpc-status of an answer: its trailers', or its headers' for a trailers-only one."""
    return int(answer["trailers"].get("grpc-status", answer["headers"].get("grpc-status", "-1")))


def canonical(message):
    return cbor2.dumps(cbor2.loads(message), canonical=True) == message


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--target", required=True)
    args = parser.parse_args()
    client = Client(args.target)
    checks, notes, responses = {}, {}, []

    created = client.call("/catalog.v1.Categories/Create", cbor2.dumps({"name": "Livres", "icon": "book"}))
    category = cbor2.loads(client.messages(next(iter(client.streams)))[0]) if status(created) == 0 else {}
    checks["create answers OK with the content type echoed"] = status(created) == 0 and created["headers"].get("content-type") == CBOR
    checks["create answers the category as a CBOR map of JSON field names"] = (
        category.get("name") == "Livres" and category.get("icon") == "book" and isinstance(category.get("id"), int)
        and isinstance(category.get("createdAt"), str))
    responses += [cbor2.dumps(category, canonical=True)]

    listed = client.start("/catalog.v1.Categories/List", b"")
    client.pump(lambda: client.streams[listed]["ended"])
    cbor_list = client.messages(listed)[0]
    responses.append(cbor_list)
    json_stream = client.start("/catalog.v1.Categories/List", b"", content_type="application/grpc+json")
    client.pump(lambda: client.streams[json_stream]["ended"])
    json_list = json.loads(client.messages(json_stream)[0])
    checks["List in CBOR equals List in JSON"] = cbor2.loads(cbor_list) == json_list
    notes["categories"] = len(json_list.get("categories", []))

    missing = client.call("/catalog.v1.Catalog/GetItem", cbor2.dumps({"id": 987654}))
    detail = missing["trailers"].get("catalog-error-bin") or missing["headers"].get("catalog-error-bin") or ""
    detail_json = json.loads(base64.b64decode(detail + "=" * (-len(detail) % 4))) if detail else {}
    checks["a missing item is NOT_FOUND with its JSON error detail"] = status(missing) == 5 and detail_json.get("reason") == "notFound"

    ill_formed = client.call("/catalog.v1.Catalog/GetItem", b"\xa1\x62\x69")
    checks["ill-formed CBOR is INVALID_ARGUMENT"] = status(ill_formed) == 3
    wrong_type = client.call("/catalog.v1.Catalog/GetItem", cbor2.dumps({"id": "five"}))
    checks["a wrong type is INVALID_ARGUMENT"] = status(wrong_type) == 3
    notes["wrongTypeMessage"] = wrong_type["trailers"].get("grpc-message", wrong_type["headers"].get("grpc-message"))
    indefinite = client.call("/catalog.v1.Categories/Get", b"\xbf\x62id" + cbor2.dumps(category.get("id", 0)) + b"\xff")
    checks["an indefinite-length map is read"] = status(indefinite) == 0

    watch = client.start("/catalog.v1.Filters/Watch", cbor2.dumps({"filterId": "categories"}), end=True)
    client.pump(lambda: len(client.messages(watch)) >= 2)
    first = [cbor2.loads(m) for m in client.messages(watch)]
    checks["Watch starts with a snapshot and synced"] = [e.get("kind") for e in first[:2]] == ["snapshot", "synced"]
    selected = client.call("/catalog.v1.Filters/Select", cbor2.dumps({"filterId": "categories", "optionId": category.get("id", 0)}))
    checks["Select answers OK"] = status(selected) == 0
    client.pump(lambda: len(client.messages(watch)) >= 3)
    events = client.messages(watch)
    change = cbor2.loads(events[2])
    checks["the Watch sees the change with the selection"] = (
        change.get("kind") == "change" and change.get("state", {}).get("selectedId") == category.get("id"))
    responses += events

    item_request = {"title": "Cuisine à la française", "level": "Débutant", "price": {"amount": "990.00", "currency": "EUR"},
                    "categoryId": category.get("id", 0)}
    created_item = client.call("/catalog.v1.Catalog/CreateItem", cbor2.dumps(item_request))
    item = cbor2.loads(created_item["data"][5:]) if status(created_item) == 0 else {}
    checks["an item with non-ASCII text and a price is created"] = item.get("title") == item_request["title"] and item.get("price") == item_request["price"]

    # Every read method: the same answer in CBOR as in JSON (Export's time aside), canonical.
    reads = [
        ("/catalog.v1.Catalog/GetItem", {"id": item.get("id", 0)}), ("/catalog.v1.Catalog/ListItems", {"pageSize": 5}),
        ("/catalog.v1.Categories/Get", {"id": category.get("id", 0)}), ("/catalog.v1.Categories/List", {"sort": "name"}),
        ("/catalog.v1.Categories/Stats", {}), ("/catalog.v1.Categories/Palette", {}), ("/catalog.v1.Categories/Export", {}),
        ("/catalog.v1.Filters/Get", {"filterId": "categories"}), ("/catalog.v1.Filters/List", {}),
        ("/catalog.v1.Reflection/Describe", {}), ("/grpc.health.v1.Health/Check", {}),
    ]
    differing = []
    for path, request in reads:
        in_cbor = client.call(path, cbor2.dumps(request))
        in_json = client.call(path, json.dumps(request).encode(), content_type="application/grpc+json")
        if status(in_cbor) != 0 or status(in_json) != 0:
            differing.append(f"{path}: status {status(in_cbor)} / {status(in_json)}")
            continue
        cbor_answer, json_answer = cbor2.loads(in_cbor["data"][5:]), json.loads(in_json["data"][5:])
        for answer in (cbor_answer, json_answer):
            answer.pop("exportedAt", None)
        if cbor_answer != json_answer:
            differing.append(path)
        responses.append(in_cbor["data"][5:])
    checks["every read method answers in CBOR what it answers in JSON"] = not differing
    notes["differing"] = differing

    checks["every CBOR response is canonical"] = all(canonical(r) for r in responses)
    print(json.dumps({"checks": checks, "notes": notes}))


if __name__ == "__main__":
    main()
