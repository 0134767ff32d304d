"""Writes the fuzzer's seed inputs and dictionary from the contract's schema (Schema/catalog.v1.json).

usage: seeds.py SCHEMA CORPUS_DIR DICT_FILE

A request seed is the byte 2*i+1 (method i of the schema, in its order, which is
CatalogContract.methods') then an example of its request; a deframer seed is an even byte
(bit 1: gzip) then framed messages.
"""
import gzip, json, os, struct, sys

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
