// The server's public API (docs/server.md); the token travels in the HttpOnly cookie.

/** A refusal of the server: its typed error {code, message, rule, values}. */
export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.message) || `the server answered ${status}`);
    this.status = status;
    this.code = body && body.code;
    this.rule = body && body.rule;
    this.values = (body && body.values) || {};
  }
}

/** Call the API: METHOD /api + path with a JSON body; answers the parsed JSON. A `signal`
 * (an AbortController's) cancels it. */
export async function api(method, path, body, signal) {
  return answer(await send(method, path, body, signal));
}

/** Call the API with a JSON document as its body, sent as written (a file's own text: parsed
 * and written again by JavaScript, a number could lose digits and the file its checksum; and
 * a file that is no JSON is the server's to refuse, in its own words). */
export async function apiDocument(method, path, text) {
  return answer(await fetch("/api" + path, { method, credentials: "same-origin",
    headers: { "content-type": "application/json" }, body: text }));
}

async function answer(response) {
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { message: text };
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

/** Call the API and answer the body as a Blob (an SVG picture). */
export async function apiBlob(method, path, body) {
  const response = await send(method, path, body);
  if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => null));
  return response.blob();
}

function send(method, path, body, signal) {
  const init = { method, credentials: "same-origin", headers: {}, signal };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  return fetch("/api" + path, init);
}
