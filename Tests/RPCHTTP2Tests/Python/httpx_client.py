"""Calls an echo.v1.Echo server with httpx over HTTP/1.1 and over HTTP/2 (prior knowledge):
Connect unary, GET and an error, and a Connect stream read as it arrives. Prints one JSON report."""
import argparse, json, struct
import httpx

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
port = parser.parse_args().port
base = f"http://127.0.0.1:{port}"
report = {}
for label, options in [("http1", {}), ("http2", {"http1": False, "http2": True})]:
    with httpx.Client(timeout=10, **options) as client:
        entry = {}
        response = client.post(base + "/echo.v1.Echo/Get", json={"text": "x"})
        entry["version"] = response.http_version
        entry["unary"] = response.json()
        response = client.get(base + "/echo.v1.Echo/Quick", params={"encoding": "json", "message": json.dumps({"text": "g"})})
        entry["get"] = response.json()
        response = client.post(base + "/echo.v1.Echo/Get", json={"text": "x", "status": 7, "message": "no"})
        entry["error"] = {"status": response.status_code, "code": response.json().get("code")}
        request = json.dumps({"text": "s", "count": 4}).encode()
        indexes, end = [], None
        with client.stream("POST", base + "/echo.v1.Echo/Count", content=b"\x00" + struct.pack(">I", len(request)) + request,
                           headers={"content-type": "application/connect+json"}) as stream:
            buffer = b""
            for chunk in stream.iter_bytes():
                buffer += chunk
                while len(buffer) >= 5 and len(buffer) >= 5 + struct.unpack(">I", buffer[1:5])[0]:
                    length = struct.unpack(">I", buffer[1:5])[0]
                    flag, payload, buffer = buffer[0], buffer[5:5 + length], buffer[5 + length:]
                    if flag == 2:
                        end = json.loads(payload)
                    else:
                        indexes.append(json.loads(payload).get("index"))
        entry["stream"] = {"indexes": indexes, "end": end}
        report[label] = entry
print(json.dumps(report))
