// Calls the service by Connect from the page: unary calls as JSON POSTs, server streams as
// enveloped JSON (application/connect+json), with the signed-in user's bearer token.

/** A call's failure: a Connect code ("not_found", "unavailable"…), the server's message, and
 *  the ErrorInfo it sent (reason, field, details). */
export class RpcError extends Error {
  constructor(code, message, info = {}) {
    super(message);
    this.code = code;
    this.reason = info.reason;
    this.field = info.field;
    this.details = info.details ?? {};
  }
}

let token = sessionStorage.getItem("catalog.token") ?? "";

/** The bearer token sent with every call; empty for none. Kept for this tab's session only. */
export function setToken(value) {
  token = value;
  if (value) sessionStorage.setItem("catalog.token", value);
  else sessionStorage.removeItem("catalog.token");
}

export function currentToken() {
  return token;
}

function headers(contentType) {
  const fields = { "content-type": contentType, "connect-protocol-version": "1" };
  if (token) fields.authorization = `Bearer ${token}`;
  return fields;
}

function errorFrom(json, fallbackCode) {
  const detail = (json?.details ?? []).find((d) => d.type === "catalog.v1.ErrorInfo");
  return new RpcError(json?.code ?? fallbackCode, json?.message ?? "the server answered without a message", detail?.debug ?? {});
}

function unreachable(error) {
  if (error.name === "AbortError") return error;
  return new RpcError("unavailable", "cannot reach the server");
}

/** Calls `service/method` (e.g. "catalog.v1.Catalog", "ListItems") with `request`; resolves
 *  with the response message or rejects with an RpcError. */
export async function call(service, method, request = {}, { signal } = {}) {
  let response;
  try {
    response = await fetch(`/${service}/${method}`, {
      method: "POST", headers: headers("application/json"), body: JSON.stringify(request), signal,
    });
  } catch (error) {
    throw unreachable(error);
  }
  let json;
  try {
    json = await response.json();
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new RpcError("unavailable", `the server answered ${response.status} without a message`);
  }
  if (!response.ok) throw errorFrom(json, "unknown");
  return json;
}

function envelope(message) {
  const body = new TextEncoder().encode(JSON.stringify(message));
  const framed = new Uint8Array(5 + body.length);
  new DataView(framed.buffer).setUint32(1, body.length);
  framed.set(body, 5);
  return framed;
}

/** Opens the server stream `service/method` with `request` and calls `onMessage` with each
 *  message. Resolves when the stream ends cleanly; rejects with an RpcError when the server
 *  ends it with an error or the connection is lost, or with an AbortError through `signal`. */
export async function stream(service, method, request, onMessage, { signal } = {}) {
  let response;
  try {
    response = await fetch(`/${service}/${method}`, {
      method: "POST", headers: headers("application/connect+json"), body: envelope(request), signal,
    });
  } catch (error) {
    throw unreachable(error);
  }
  if (!response.ok) {
    let json = null;
    try { json = await response.json(); } catch { /* no body */ }
    throw errorFrom(json, "unknown");
  }
  const reader = response.body.getReader();
  let buffer = new Uint8Array(0);
  for (;;) {
    let chunk;
    try {
      chunk = await reader.read();
    } catch (error) {
      throw unreachable(error);
    }
    if (chunk.done) throw new RpcError("unavailable", "the stream ended without its end message");
    const joined = new Uint8Array(buffer.length + chunk.value.length);
    joined.set(buffer);
    joined.set(chunk.value, buffer.length);
    buffer = joined;
    while (buffer.length >= 5) {
      const view = new DataView(buffer.buffer, buffer.byteOffset);
      const flags = view.getUint8(0);
      const length = view.getUint32(1);
      if (buffer.length < 5 + length) break;
      const json = JSON.parse(new TextDecoder().decode(buffer.subarray(5, 5 + length)));
      buffer = buffer.subarray(5 + length);
      if (flags & 0x02) {
        if (json.error) throw errorFrom(json.error, "unknown");
        return;
      }
      onMessage(json);
    }
  }
}
