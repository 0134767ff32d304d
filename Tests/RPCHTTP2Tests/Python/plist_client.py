"""Calls an echo.v1.Echo server whose router registered a property-list codec (`plist`), over
HTTP/1.1 with Python's http.client and plistlib: Connect unary and streaming in binary property
lists, and a content type of no codec. Prints one JSON report."""
import argparse, http.client, json, plistlib, struct

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
port = parser.parse_args().port
conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)


def call(path, body, content_type):
    conn.request("POST", path, body=body, headers={"content-type": content_type})
    response = conn.getresponse()
    return response.status, dict(response.getheaders()), response.read()


report = {}
request = plistlib.dumps({"text": "héllo"}, fmt=plistlib.FMT_BINARY)
status, headers, body = call("/echo.v1.Echo/Get", request, "application/plist")
report["unary"] = {"status": status, "contentType": headers.get("content-type"), "isBinaryPlist": body.startswith(b"bplist00"),
                   "body": plistlib.loads(body) if status == 200 else None}

request = plistlib.dumps({"text": "s", "count": 3}, fmt=plistlib.FMT_BINARY)
status, headers, body = call("/echo.v1.Echo/Count", b"\x00" + struct.pack(">I", len(request)) + request, "application/connect+plist")
messages, end, offset = [], None, 0
while offset + 5 <= len(body):
    flag, length = body[offset], struct.unpack(">I", body[offset + 1:offset + 5])[0]
    payload = body[offset + 5:offset + 5 + length]
    if flag == 0:
        messages.append(plistlib.loads(payload))
    elif flag == 2:
        end = json.loads(payload)
    offset += 5 + length
report["stream"] = {"status": status, "contentType": headers.get("content-type"), "messages": messages, "end": end}

status, headers, body = call("/echo.v1.Echo/Get", b"{}", "application/msgpack")
report["unknown"] = {"status": status, "acceptPost": headers.get("accept-post", "")}
print(json.dumps(report))
