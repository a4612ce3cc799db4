// The public /v1 contract (openapi.yaml), and nothing else: every server call the client makes
// goes through `request` here. A seat's token travels only in the Authorization header.

export class ApiProblem extends Error {
  /** An application/problem+json answer (or a network failure: status 0, code "network"). */
  constructor(status, body, retryAfter = null) {
    super(body.detail || body.title || `HTTP ${status}`);
    this.status = status;
    this.code = body.code || (status === 0 ? "network" : "http_error");
    this.title = body.title || "";
    this.detail = body.detail || "";
    this.reason = body.reason || null;
    this.errors = body.errors || [];
    this.retryAfter = retryAfter;
  }
}

function newKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** One call. Resolves to {body, etag, status}; rejects with ApiProblem. */
export async function request(method, path, { token = null, body, headers = {}, signal } = {}) {
  const sent = { Accept: "application/json, application/problem+json", ...headers };
  if (token) sent.Authorization = `Bearer ${token}`;
  if (body !== undefined) sent["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: sent,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
      credentials: "omit",
      signal,
    });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiProblem(0, { title: "No connection", detail: "The server could not be reached." });
  }
  const type = response.headers.get("Content-Type") || "";
  const parsed = type.includes("json") ? await response.json().catch(() => ({})) : {};
  if (!response.ok) {
    throw new ApiProblem(response.status, parsed, response.headers.get("Retry-After"));
  }
  return { body: parsed, etag: response.headers.get("ETag"), status: response.status };
}

const game = (id) => `/v1/games/${encodeURIComponent(id)}`;

export const api = {
  rules: () => request("GET", "/v1/rules").then((r) => r.body),
  levels: () => request("GET", "/v1/levels").then((r) => r.body),
  createGame: (spec) => request("POST", "/v1/games", { body: spec }).then((r) => r.body),
  getGame: (id, token) => request("GET", game(id), { token }).then((r) => r.body),
  claimSeat: (id, seat) => request("POST", `${game(id)}/seats/${seat}/claim`, { body: {} }).then((r) => r.body),
  leaveSeat: (id, seat, token) =>
    request("POST", `${game(id)}/seats/${seat}/leave`, { token, body: {} }).then((r) => r.body),
  /** A bid or a card, pinned to the version the player saw (If-Match) and safe to retry (Idempotency-Key). */
  move: (id, token, version, move) => {
    const kind = "bid" in move ? "bids" : "plays";
    const headers = { "If-Match": `"${version}"`, "Idempotency-Key": newKey() };
    return request("POST", `${game(id)}/${kind}`, { token, body: move, headers }).then((r) => r.body);
  },
  events: (id, token, after, wait, signal) =>
    request("GET", `${game(id)}/events?after=${after}&wait=${wait}`, { token, signal }).then((r) => r.body),
};
