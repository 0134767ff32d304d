"""Every read of the contract over gRPC (h2), Connect over HTTP/2 on the same connection (h2),
Connect POST and GET over HTTP/1.1 (http.client), and gRPC-Web over HTTP/1.1; then tokens and
roles over Connect, and a Watch over Connect streaming. Prints one JSON report: each read's
answers, which must all be equal, and the status of each auth case."""
import argparse, base64, http.client, json, socket, struct, time, urllib.parse

import h2.config
import h2.connection
import h2.events

READS = [
    ("/catalog.v1.Catalog/ListItems", {"pageSize": 3}),
    ("/catalog.v1.Catalog/GetItem", {"id": 1}),
    ("/catalog.v1.Categories/List", {}),
    ("/catalog.v1.Categories/Get", {"id": 1}),
    ("/catalog.v1.Categories/Get", {"id": 99999}),
    ("/catalog.v1.Categories/Stats", {}),
    ("/catalog.v1.Categories/Palette", {}),
    ("/catalog.v1.Categories/Export", {}),
    ("/catalog.v1.Filters/List", {}),
    ("/catalog.v1.Filters/Get", {"filterId": "categories"}),
    ("/catalog.v1.Reflection/Describe", {}),
    ("/grpc.health.v1.Health/Check", {}),
]


def envelope(payload, flag=0):
    return bytes([flag]) + struct.pack(">I", len(payload)) + payload


def envelopes(data):
    out, offset = [], 0
    while offset + 5 <= len(data):
        flag, length = data[offset], struct.unpack(">I", data[offset + 1:offset + 5])[0]
        out.append((flag, data[offset + 5:offset + 5 + length]))
        offset += 5 + length
    return out


def stable(value):
    """The answer without what changes from call to call (an export's time)."""
    if isinstance(value, dict):
        return {k: stable(v) for k, v in value.items() if k != "exportedAt"}
    if isinstance(value, list):
        return [stable(v) for v in value]
    return value


class H2Client:
    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.settimeout(10)
        self.conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
        self.conn.initiate_connection()
        self.sock.sendall(self.conn.data_to_send())

    def call(self, path, body, content_type, headers=()):
        stream = self.conn.get_next_available_stream_id()
        self.conn.send_headers(stream, [(":method", "POST"), (":scheme", "http"), (":path", path), (":authority", "catalog"),
                                        ("content-type", content_type), ("te", "trailers")] + list(headers))
        self.conn.send_data(stream, body, end_stream=True)
        self.sock.sendall(self.conn.data_to_send())
        state = {"headers": {}, "trailers": {}, "data": b"", "ended": False}
        deadline = time.time() + 10
        while not state["ended"] and time.time() < deadline:
            for event in self.conn.receive_data(self.sock.recv(65536)):
                if getattr(event, "stream_id", None) != stream:
                    continue
                if isinstance(event, h2.events.ResponseReceived):
                    state["headers"] = dict(event.headers)
                elif isinstance(event, h2.events.TrailersReceived):
                    state["trailers"] = dict(event.headers)
                elif isinstance(event, h2.events.DataReceived):
                    state["data"] += event.data
                    self.conn.acknowledge_received_data(event.flow_controlled_length, stream)
                elif isinstance(event, (h2.events.StreamEnded, h2.events.StreamReset)):
                    state["ended"] = True
            self.sock.sendall(self.conn.data_to_send())
        return state


def grpc_answer(state):
    status = (state["trailers"] or state["headers"]).get("grpc-status")
    if status != "0":
        detail = (state["trailers"] or state["headers"]).get("catalog-error-bin", "")
        return {"error": {"status": int(status), "reason": json.loads(base64.b64decode(detail + "=" * (-len(detail) % 4))).get("reason")}}
    return json.loads(envelopes(state["data"])[0][1])


CONNECT_CODES = {"not_found": 5, "unauthenticated": 16, "permission_denied": 7}


def connect_answer(status, body):
    parsed = json.loads(body)
    if status != 200:
        return {"error": {"status": CONNECT_CODES.get(parsed["code"], -1), "reason": parsed["details"][0]["debug"]["reason"]}}
    return parsed


parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
parser.add_argument("--reader-token", required=True)
parser.add_argument("--admin-token", required=True)
args = parser.parse_args()
admin = ("authorization", "Bearer " + args.admin_token)
report = {"reads": [], "auth": {}}

h2client = H2Client(args.port)
h1 = http.client.HTTPConnection("127.0.0.1", args.port, timeout=10)
for path, request in READS:
    body = json.dumps(request).encode()
    answers = {}
    answers["grpc"] = grpc_answer(h2client.call(path, envelope(body), "application/grpc+json", [admin]))
    state = h2client.call(path, body, "application/json", [admin])
    answers["connectH2"] = connect_answer(int(state["headers"][":status"]), state["data"])
    h1.request("POST", path, body=body, headers={"content-type": "application/json", "authorization": admin[1]})
    response = h1.getresponse()
    answers["connectH1"] = connect_answer(response.status, response.read())
    query = urllib.parse.urlencode({"encoding": "json", "message": body.decode()})
    h1.request("GET", path + "?" + query, headers={"authorization": admin[1]})
    response = h1.getresponse()
    answers["connectGET"] = connect_answer(response.status, response.read())
    h1.request("POST", path, body=envelope(body), headers={"content-type": "application/grpc-web+json", "authorization": admin[1]})
    response = h1.getresponse()
    frames = envelopes(response.read())
    trailer = dict(line.split(": ", 1) for line in frames[-1][1].decode().strip().split("\r\n"))
    if trailer["grpc-status"] == "0":
        answers["grpcWeb"] = json.loads(frames[0][1])
    else:
        detail = trailer["catalog-error-bin"]
        answers["grpcWeb"] = {"error": {"status": int(trailer["grpc-status"]), "reason": json.loads(base64.b64decode(detail + "=" * (-len(detail) % 4)))["reason"]}}
    report["reads"].append({"path": path, "answers": {k: stable(v) for k, v in answers.items()}})


def status_of(path, token, body=b"{}"):
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = "Bearer " + token
    h1.request("POST", path, body=body, headers=headers)
    response = h1.getresponse()
    answer = json.loads(response.read())
    return {"status": response.status, "code": answer.get("code") if response.status != 200 else None}


report["auth"]["anonymousList"] = status_of("/catalog.v1.Categories/List", None)
report["auth"]["anonymousHealth"] = status_of("/grpc.health.v1.Health/Check", None)
report["auth"]["readerList"] = status_of("/catalog.v1.Categories/List", args.reader_token)
report["auth"]["readerCreate"] = status_of("/catalog.v1.Categories/Create", args.reader_token, json.dumps({"name": "Books"}).encode())
report["auth"]["adminCreate"] = status_of("/catalog.v1.Categories/Create", args.admin_token, json.dumps({"name": "Books"}).encode())
report["auth"]["unknownToken"] = status_of("/catalog.v1.Categories/List", "nope")

# A Watch over Connect streaming on HTTP/1.1: the first event, then the client goes.
watch = http.client.HTTPConnection("127.0.0.1", args.port, timeout=10)
watch.request("POST", "/catalog.v1.Filters/Watch", body=envelope(json.dumps({"filterId": "categories"}).encode()),
              headers={"content-type": "application/connect+json", "authorization": "Bearer " + args.reader_token})
response = watch.getresponse()
prefix = response.read(5)
first = json.loads(response.read(struct.unpack(">I", prefix[1:5])[0]))
report["watch"] = {"status": response.status, "flag": prefix[0], "filterId": first.get("state", {}).get("filterId"), "keys": sorted(first.keys())}
# A Select made over gRPC reaches the Connect subscriber as a change.
selected = grpc_answer(h2client.call("/catalog.v1.Filters/Select", envelope(json.dumps({"filterId": "categories", "optionId": 3}).encode()),
                                     "application/grpc+json", [admin]))
kinds = []
while "change" not in kinds and len(kinds) < 10:
    prefix = response.read(5)
    event = json.loads(response.read(struct.unpack(">I", prefix[1:5])[0]))
    kinds.append(event.get("kind"))
    if event.get("kind") == "change":
        report["watch"]["changeSelected"] = event.get("state", {}).get("selectedId")
        report["watch"]["changeRevision"] = event.get("revision")
report["watch"]["selectRevision"] = selected.get("revision")
watch.close()
print(json.dumps(report))
