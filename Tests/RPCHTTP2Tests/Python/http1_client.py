"""Calls an echo.v1.Echo server over HTTP/1.1 with Python's own http.client (no gRPC library):
Connect unary, GET, errors and streaming, and gRPC-Web. Prints one JSON report."""
import argparse, base64, http.client, json, struct, urllib.parse

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
port = parser.parse_args().port
conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)  # one keep-alive connection for all


def call(method, path, body=None, headers=None):
    conn.request(method, path, body=body, headers=headers or {})
    response = conn.getresponse()
    return response.status, dict(response.getheaders()), response.read()


def envelopes(data):
    out, offset = [], 0
    while offset + 5 <= len(data):
        flag, length = data[offset], struct.unpack(">I", data[offset + 1:offset + 5])[0]
        out.append((flag, data[offset + 5:offset + 5 + length]))
        offset += 5 + length
    return out


report = {}
status, headers, body = call("POST", "/echo.v1.Echo/Get", json.dumps({"text": "héllo"}).encode(), {"content-type": "application/json", "x-echo": "abc"})
report["unary"] = {"status": status, "body": json.loads(body), "xEcho": headers.get("x-echo"), "length": headers.get("content-length")}

status, headers, body = call("POST", "/echo.v1.Echo/Get", json.dumps({"text": "x", "status": 5, "message": "no item 42", "reason": "notFound"}).encode(), {"content-type": "application/json"})
error = json.loads(body)
detail = error.get("details", [{}])[0]
padded = detail.get("value", "") + "=" * (-len(detail.get("value", "")) % 4)
report["error"] = {"status": status, "code": error.get("code"), "message": error.get("message"), "type": detail.get("type"),
                   "reason": detail.get("debug", {}).get("reason"), "valueReason": json.loads(base64.b64decode(padded)).get("reason") if padded else None}

query = urllib.parse.urlencode({"encoding": "json", "message": json.dumps({"text": "by get"})})
status, headers, body = call("GET", "/echo.v1.Echo/Quick?" + query)
report["get"] = {"status": status, "body": json.loads(body)}

status, headers, body = call("GET", "/echo.v1.Echo/Nope?encoding=json&message=%7B%7D")
report["unknown"] = {"status": status, "code": json.loads(body).get("code")}

request = json.dumps({"text": "s", "count": 3}).encode()
status, headers, body = call("POST", "/echo.v1.Echo/Count", b"\x00" + struct.pack(">I", len(request)) + request, {"content-type": "application/connect+json"})
frames = envelopes(body)
report["stream"] = {"status": status, "messages": [json.loads(m) for f, m in frames if f == 0],
                    "end": json.loads(frames[-1][1]) if frames and frames[-1][0] == 2 else None}

status, headers, body = call("POST", "/echo.v1.Echo/Get", b"\x00" + struct.pack(">I", len(request)) + request, {"content-type": "application/grpc-web+json"})
frames = envelopes(body)
report["grpcWeb"] = {"status": status, "contentType": headers.get("content-type"), "message": json.loads(frames[0][1]) if frames else None,
                     "trailer": frames[-1][1].decode() if frames and frames[-1][0] == 0x80 else None}

text = base64.b64encode(b"\x00" + struct.pack(">I", len(request)) + request)
status, headers, body = call("POST", "/echo.v1.Echo/Get", text, {"content-type": "application/grpc-web-text"})
decoded = b"".join(base64.b64decode(body[i:i + 4]) for i in range(0, len(body), 4))
frames = envelopes(decoded)
report["grpcWebText"] = {"status": status, "message": json.loads(frames[0][1]) if frames else None,
                         "trailer": frames[-1][1].decode() if frames and frames[-1][0] == 0x80 else None}
print(json.dumps(report))
