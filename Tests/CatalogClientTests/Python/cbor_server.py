"""A foreign CBOR server for CatalogClient: the `h2` HTTP/2 library and `cbor2`, no gRPC library.

Listens on 127.0.0.1, a free port, prints that port as one line on stdout, then serves h2c
(prior knowledge, gRPC framing) until killed, one thread per connection. Every response is
`application/grpc+cbor`, each message encoded with cbor2.dumps(..., canonical=True):

- /catalog.v1.Catalog/GetItem {id}: item 17 below, which also carries a key the contract does
  not know (a client ignores it); any other id is NOT_FOUND, grpc-message
  "élément <id> introuvable" and `catalog-error-bin`, unpadded base64 of the JSON
  {"reason": "notFound", "details": {"id": <id>}}.
- /catalog.v1.Categories/List: three categories with non-ASCII names, the second without `icon`.
- /catalog.v1.Filters/Watch {filterId: "formations"}: a snapshot and synced at revision 41, a
  change to revision 42, then OK.

Before any of that it refuses a request whose content type is not application/grpc+cbor
(INVALID_ARGUMENT naming the type it got) and one whose message is not canonical CBOR, i.e.
cbor2.dumps(cbor2.loads(body), canonical=True) != body (INTERNAL): an answered call shows
that the client sent both right. A handler that fails answers INTERNAL and prints its
traceback on stderr.

Usage: python3 cbor_server.py
"""

import base64
import json
import socket
import struct
import threading
import traceback

import cbor2
import h2.config
import h2.connection
import h2.events

CBOR = "application/grpc+cbor"
INVALID_ARGUMENT, NOT_FOUND, UNIMPLEMENTED, INTERNAL = 3, 5, 12, 13

ITEMS = {
    17: {
        "id": 17, "title": "Prompt Engineering", "summary": "Écrire des consignes claires",
        "level": "Débutant", "duration": "2 jours", "price": {"amount": "990.00", "currency": "EUR"},
        "imageURL": "https://example.com/17.png", "categoryId": 3,
        "createdAt": "2026-01-23T10:00:00Z", "updatedAt": "2026-01-24T08:30:15Z", "revision": 7,
        "popularity": 0.75,
    },
}

CATEGORIES = [
    {"id": 1, "name": "Cuisine & Vins", "slug": "cuisine_&_vins", "color": "#E91E63", "icon": "fork.knife",
     "position": 0, "isDefault": True, "itemCount": 4, "revision": 2,
     "createdAt": "2026-01-20T09:00:00Z", "updatedAt": "2026-01-21T18:45:00Z"},
    {"id": 3, "name": "IA Générative", "slug": "ia_générative", "color": "#9C27B0",
     "position": 1, "isDefault": False, "itemCount": 12, "revision": 7,
     "createdAt": "2026-01-23T10:00:00Z", "updatedAt": "2026-01-24T08:00:00Z"},
    {"id": 8, "name": "Photos 📷 東京", "slug": "photos_📷_東京", "color": "#4CAF50", "icon": "camera",
     "position": 2, "isDefault": False, "itemCount": 0, "revision": 1,
     "createdAt": "2026-01-25T12:30:00Z", "updatedAt": "2026-01-25T12:30:00Z"},
]

OPTIONS = [{"id": 1, "title": "Cuisine & Vins", "icon": "fork.knife"}, {"id": 3, "title": "IA Générative"}]

WATCH_EVENTS = [
    {"kind": "snapshot", "revision": 41, "state": {
        "filterId": "formations", "title": "Catégories", "options": OPTIONS, "presentation": "expanded",
        "revision": 41, "updatedAt": "2026-01-24T08:00:00Z"}},
    {"kind": "synced", "revision": 41},
    {"kind": "change", "revision": 42, "previousRevision": 41, "state": {
        "filterId": "formations", "title": "Catégories", "options": OPTIONS, "selectedId": 3,
        "presentation": "collapsed", "revision": 42, "updatedAt": "2026-01-24T08:05:00Z"}},
]


class Failure(Exception):
    """Ends a call with a non-OK status, a message and an optional `catalog-error-bin` detail."""

    def __init__(self, code, message, detail=None):
        super().__init__(message)
        self.code, self.message, self.detail = code, message, detail


def get_item(request):
    item_id = request.get("id")
    if not isinstance(item_id, int) or isinstance(item_id, bool):
        raise Failure(INVALID_ARGUMENT, "id must be an integer", {"reason": "invalidMessage", "field": "id"})
    if item_id not in ITEMS:
        raise Failure(NOT_FOUND, f"élément {item_id} introuvable", {"reason": "notFound", "details": {"id": item_id}})
    return [ITEMS[item_id]]


def list_categories(request):
    return [{"categories": CATEGORIES}]


def watch(request):
    if request.get("filterId") != "formations":
        raise Failure(NOT_FOUND, f"no filter {request.get('filterId')!r}", {"reason": "notFound"})
    return WATCH_EVENTS


METHODS = {
    "/catalog.v1.Catalog/GetItem": get_item,
    "/catalog.v1.Categories/List": list_categories,
    "/catalog.v1.Filters/Watch": watch,
}


def request_message(body):
    """The one uncompressed message of a request body, as a dict; refuses non-canonical CBOR."""
    if len(body) < 5 or body[0] != 0 or struct.unpack(">I", body[1:5])[0] != len(body) - 5:
        raise Failure(INVALID_ARGUMENT, f"expected one uncompressed message, got {body.hex()}")
    message = body[5:]
    if not message:
        return {}
    try:
        request = cbor2.loads(message)
    except (cbor2.CBORDecodeError, ValueError) as error:
        raise Failure(INVALID_ARGUMENT, f"the message is not CBOR: {error}")
    if cbor2.dumps(request, canonical=True) != message:
        raise Failure(INTERNAL, f"the request message is not canonical CBOR: {message.hex()}")
    if not isinstance(request, dict):
        raise Failure(INVALID_ARGUMENT, "the message is not a CBOR map")
    return request


def answer(headers, body):
    """The response messages of a call whose request headers and body are complete."""
    content_type = headers.get("content-type")
    if content_type != CBOR:
        raise Failure(INVALID_ARGUMENT, f"this server reads only {CBOR}, not '{content_type}'")
    request = request_message(body)
    method = METHODS.get(headers.get(":path"))
    if method is None:
        raise Failure(UNIMPLEMENTED, f"unknown method {headers.get(':path')}")
    return method(request)


def percent_encoded(text):
    """grpc-message encoding: bytes outside printable ASCII, and '%', as %XX."""
    return "".join(chr(b) if 0x20 <= b <= 0x7E and b != 0x25 else f"%{b:02X}" for b in text.encode())


def respond(conn, stream, messages, failure=None):
    """Sends the messages then the trailers; a failure with no message is trailers-only."""
    headers = [(":status", "200"), ("content-type", CBOR)]
    trailers = [("grpc-status", str(failure.code if failure else 0))]
    if failure:
        trailers.append(("grpc-message", percent_encoded(failure.message)))
        if failure.detail:
            detail = json.dumps(failure.detail, ensure_ascii=False).encode()
            trailers.append(("catalog-error-bin", base64.b64encode(detail).decode().rstrip("=")))
    if not messages:
        conn.send_headers(stream, headers + trailers, end_stream=True)
        return
    conn.send_headers(stream, headers)
    for message in messages:
        data = cbor2.dumps(message, canonical=True)
        conn.send_data(stream, b"\x00" + struct.pack(">I", len(data)) + data)
    conn.send_headers(stream, trailers, end_stream=True)


def serve(sock):
    """Serves one connection until the client closes it."""
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
    conn.initiate_connection()
    sock.sendall(conn.data_to_send())
    calls = {}
    with sock:
        while True:
            try:
                data = sock.recv(65536)
            except ConnectionError:
                return
            if not data:
                return
            for event in conn.receive_data(data):
                if isinstance(event, h2.events.RequestReceived):
                    calls[event.stream_id] = (dict(event.headers), bytearray())
                elif isinstance(event, h2.events.DataReceived):
                    calls[event.stream_id][1].extend(event.data)
                    conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                elif isinstance(event, h2.events.StreamEnded):
                    headers, body = calls.pop(event.stream_id)
                    try:
                        respond(conn, event.stream_id, answer(headers, bytes(body)))
                    except Failure as failure:
                        respond(conn, event.stream_id, [], failure)
                    except Exception as error:
                        traceback.print_exc()
                        respond(conn, event.stream_id, [], Failure(INTERNAL, f"the server failed: {error!r}"))
                elif isinstance(event, h2.events.StreamReset):
                    calls.pop(event.stream_id, None)
            try:
                sock.sendall(conn.data_to_send())
            except ConnectionError:
                return


def main():
    listener = socket.create_server(("127.0.0.1", 0))
    print(listener.getsockname()[1], flush=True)
    while True:
        sock, _ = listener.accept()
        threading.Thread(target=serve, args=(sock,), daemon=True).start()


if __name__ == "__main__":
    main()
