"""Writes the fuzzer's seed inputs and dictionary from the contract's schema (Schema/catalog.v1.json).

usage: seeds.py SCHEMA CORPUS_DIR DICT_FILE

A request seed is the byte 2*i+1 (method i of the schema, in its order, which is
CatalogContract.methods') then an example of its request in JSON, or the byte 129+2*i then
the same example in CBOR (deterministic, as cbor2 writes it canonically); a deframer seed is
an even byte (bit 1: gzip) then framed messages.
"""
import gzip, json, os, struct, sys

import cbor2

schema_path, corpus, dict_path = sys.argv[1:4]
schema = json.load(open(schema_path))
methods = [m for service in schema["services"] for m in service["methods"]]
names = set()


def example(s, depth=0):
    if "enum" in s:
        return s["enum"][0]
    kinds = s.get("type", "object")
    kind = kinds[0] if isinstance(kinds, list) else kinds
    if kind == "object":
        props = s.get("properties", {})
        names.update(props)
        return {k: example(v, depth + 1) for k, v in props.items()} if depth < 6 else {}
    if kind == "array":
        return [example(s.get("items", {}), depth + 1)]
    if kind == "string":
        return "2026-01-02T03:04:05Z" if s.get("format") == "date-time" else "Été"
    if kind == "integer":
        return 7
    if kind == "number":
        return 1.5
    if kind == "boolean":
        return True
    return None


def frame(payload, compressed=False):
    return struct.pack(">BI", 1 if compressed else 0, len(payload)) + payload


os.makedirs(corpus, exist_ok=True)
for i, method in enumerate(methods):
    body = json.dumps(example(method["request"]), ensure_ascii=False).encode()
    open(os.path.join(corpus, f"request-{i:02d}"), "wb").write(bytes([2 * i + 1]) + body)
    open(os.path.join(corpus, f"request-{i:02d}-empty"), "wb").write(bytes([2 * i + 1]))
    cbor = cbor2.dumps(example(method["request"]), canonical=True)
    open(os.path.join(corpus, f"request-{i:02d}-cbor"), "wb").write(bytes([129 + 2 * i]) + cbor)
    if i == 0:
        plain = frame(body) + frame(b"") + frame(b"{}")
        open(os.path.join(corpus, "frames-plain"), "wb").write(bytes([0]) + plain)
        zipped = frame(gzip.compress(body), True) + frame(b"{}")
        open(os.path.join(corpus, "frames-gzip"), "wb").write(bytes([2]) + zipped)

with open(dict_path, "w") as out:
    for token in sorted(names) + ["{", "}", "[", "]", ":", ",", "null", "true", "false", "-0.0e+1", "\\u00e9"]:
        out.write(json.dumps(token) + "\n")
    for name in sorted(names):
        out.write(json.dumps('"' + name + '":') + "\n")

# The connection fuzzer's seeds (FUZZ_TARGET=connection): with CONNECTION_DIR and
# CONNECTION_DICT, one input per method (an even first byte: the client preface is prepended),
# each a SETTINGS frame, then HEADERS and DATA of a call with the method's example request;
# then every call in one connection, and a few variants (a deadline, gzip, a Watch).
if len(sys.argv) > 5:
    connection_corpus, connection_dict = sys.argv[4:6]
    os.makedirs(connection_corpus, exist_ok=True)

    def h2_frame(kind, flags, stream, payload):
        return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload

    def literal(name, value):
        name, value = name.encode(), value.encode()
        assert len(name) < 127 and len(value) < 127
        return bytes([0, len(name)]) + name + bytes([len(value)]) + value

    def call(stream, path, body, extra=(), compressed=False):
        fields = [(":method", "POST"), (":scheme", "http"), (":path", path), (":authority", "localhost"),
                  ("content-type", "application/grpc"), ("te", "trailers")] + list(extra)
        block = b"".join(literal(n, v) for n, v in fields)
        payload = gzip.compress(body) if compressed else body
        return h2_frame(1, 4, stream, block) + h2_frame(0, 1, stream, frame(payload, compressed))

    settings = h2_frame(4, 0, 0, b"")
    everything = settings
    for i, method in enumerate(methods):
        body = json.dumps(example(method["request"]), ensure_ascii=False).encode()
        open(os.path.join(connection_corpus, f"call-{i:02d}"), "wb").write(bytes([2 * i]) + settings + call(1, method["path"], body))
        everything += call(2 * i + 1, method["path"], body)
    open(os.path.join(connection_corpus, "every-call"), "wb").write(bytes([0]) + everything)
    watch = '{"filterId":"categories"}'.encode()
    variants = {
        "watch": call(1, "/catalog.v1.Filters/Watch", watch),
        "deadline": call(1, "/grpc.health.v1.Health/Check", b"{}", [("grpc-timeout", "5m")]),
        "gzip": call(1, "/grpc.health.v1.Health/Check", b"{}", [("grpc-encoding", "gzip"), ("grpc-accept-encoding", "gzip")], True),
    }
    for name, calls in variants.items():
        open(os.path.join(connection_corpus, name), "wb").write(bytes([4]) + settings + calls)
    with open(connection_dict, "w") as out:
        tokens = [":method", "POST", ":path", ":scheme", ":authority", "content-type", "application/grpc",
                  "application/grpc+json", "te", "trailers", "grpc-timeout", "grpc-encoding", "gzip",
                  "authorization", "Bearer "] + [m["path"] for m in methods]
        for token in tokens:
            out.write(json.dumps(token) + "\n")
        for kind in range(10):
            out.write('"\\x%02x\\x00\\x00\\x00\\x01"\n' % kind)
