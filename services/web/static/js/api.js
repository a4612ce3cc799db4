// The public /v1 contract (openapi.yaml), and nothing else: every server call the client makes
// goes through `request` here. A seat's token travels only in the Authorization header, a player's
// token (identity.js) only in the Player-Token header.

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
    this.firstSeq = body.first_seq ?? null; // 410 too_far_behind: the oldest event the log still keeps
    this.endsAt = body.ends_at ?? null; // 409 pairing_banned: when the ban ends
  }
}

function newKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

const networkListeners = new Set();

/**
 * Calls listener({reachable, stream}) after each call: reachable false when the server could not be
 * reached at all (no network, a refused connection), true when any answer came back (network.js shows
 * the page's reconnecting state from these); `stream` for an event stream being opened. Returns a
 * function that stops the calls.
 */
export function onNetwork(listener) {
  networkListeners.add(listener);
  return () => networkListeners.delete(listener);
}

function tell(reachable, stream) {
  for (const listener of networkListeners) listener({ reachable, stream });
}

const refusedListeners = new Set();
const DEAD_CREDENTIAL = new Set(["session_revoked", "player_token_invalid"]);

/**
 * Calls listener({playerToken, code}) whenever the server refuses a Player-Token sent with a call (401
 * `session_revoked`, or `player_token_invalid`: revoked, rotated, deleted), whichever module made the call
 * (identity.js forgets the credential, once). Returns a function that stops the calls.
 */
export function onCredentialRefused(listener) {
  refusedListeners.add(listener);
  return () => refusedListeners.delete(listener);
}

/** fetch, with a network failure as an ApiProblem (status 0); an abort stays an AbortError. */
async function send(path, init, stream = false) {
  let response;
  try {
    response = await fetch(path, { cache: "no-store", credentials: "omit", ...init });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    tell(false, stream);
    throw new ApiProblem(0, { title: "No connection", detail: "The server could not be reached." });
  }
  tell(true, stream);
  return response;
}

async function problemOf(response) {
  const type = response.headers.get("Content-Type") || "";
  const parsed = type.includes("json") ? await response.json().catch(() => ({})) : {};
  return new ApiProblem(response.status, parsed, response.headers.get("Retry-After"));
}

/** One call. Resolves to {body, etag, status}; rejects with ApiProblem. */
export async function request(method, path, { token = null, playerToken = null, body, headers = {}, signal } = {}) {
  const sent = { Accept: "application/json, application/problem+json", ...headers };
  if (token) sent.Authorization = `Bearer ${token}`;
  if (playerToken) sent["Player-Token"] = playerToken;
  if (body !== undefined) sent["Content-Type"] = "application/json";
  const response = await send(path, {
    method,
    headers: sent,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  if (!response.ok) {
    const problem = await problemOf(response);
    if (playerToken && problem.status === 401 && DEAD_CREDENTIAL.has(problem.code)) {
      for (const listener of refusedListeners) listener({ playerToken, code: problem.code });
    }
    throw problem;
  }
  const type = response.headers.get("Content-Type") || "";
  const parsed = type.includes("json") ? await response.json().catch(() => ({})) : {};
  return { body: parsed, etag: response.headers.get("ETag"), status: response.status, date: response.headers.get("Date") };
}

/**
 * How long from the answer until `at` (ms), by the server's clock when it sent its Date header (whole
 * seconds, so up to a second early: never later than the server's), else by this device's (pure).
 */
export function timeLeft(at, date, now = Date.now()) {
  const sent = Date.parse(date || "");
  return Math.max(0, Date.parse(at) - (Number.isNaN(sent) ? now : sent + 1000));
}

/**
 * Open a game's event stream (SSE) after `after`: sent as `?after=` on a first connection, as the
 * `Last-Event-ID` header when it is an id the stream itself gave (`resumed`). Resolves to the
 * Response (200 with a body to read, or 204: nothing left to send); rejects with ApiProblem.
 */
async function openStream(path, { token, after, resumed, signal }) {
  const headers = { Accept: "text/event-stream, application/problem+json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (resumed) headers["Last-Event-ID"] = String(after);
  const url = resumed || after === undefined ? path : `${path}?after=${after}`;
  const response = await send(url, { method: "GET", headers, signal }, true);
  if (!response.ok) throw await problemOf(response);
  return response;
}

/** The route and body of a move (see `api.move`). */
export function moveRoute(move) {
  if ("blind" in move) return ["blind", { bid: move.blind }];
  if ("look" in move) return ["blind", { look: true }];
  if ("cards" in move) return ["passes", { cards: move.cards }];
  return "bid" in move ? ["bids", move] : ["plays", move];
}

const game = (id) => `/v1/games/${encodeURIComponent(id)}`;
const player = (id) => `/v1/players/${encodeURIComponent(id)}`;
const eventPath = (id) => `/v1/events/${encodeURIComponent(id)}`;

export const api = {
  rules: () => request("GET", "/v1/rules").then((r) => r.body),
  levels: () => request("GET", "/v1/levels").then((r) => r.body),
  /** A new game; with `playerToken` the seat marked `player: true` is that player's. */
  createGame: (spec, playerToken = null) => request("POST", "/v1/games", { body: spec, playerToken }).then((r) => r.body),
  getGame: (id, token) => request("GET", game(id), { token }).then((r) => r.body),
  /** A finished game's record, kept after the live game is gone (404 for none, 409 while it is played). */
  getRecord: (id) => request("GET", `${game(id)}/record`).then((r) => r.body),
  claimSeat: (id, seat, playerToken = null) => request("POST", `${game(id)}/seats/${seat}/claim`, { body: {}, playerToken }).then((r) => r.body),
  leaveSeat: (id, seat, token) =>
    request("POST", `${game(id)}/seats/${seat}/leave`, { token, body: {} }).then((r) => r.body),
  /**
   * A move, pinned to the version the player saw (If-Match) and safe to retry (Idempotency-Key):
   * {bid}, {card}; with house rules {blind: n} (a blind bid, 0 blind nil), {look: true} and
   * {cards: [...]} (the nil exchange).
   */
  move: (id, token, version, move) => {
    const [kind, body] = moveRoute(move);
    const headers = { "If-Match": `"${version}"`, "Idempotency-Key": newKey() };
    return request("POST", `${game(id)}/${kind}`, { token, body, headers }).then((r) => r.body);
  },
  /** The event stream; see `openStream`. */
  stream: (id, token, after, resumed, signal) => openStream(`${game(id)}/stream`, { token, after, resumed, signal }),

  // ---- tables with people: away and back, quick messages, rematch, rejoining from another device
  backToSeat: (id, seat, token) => request("POST", `${game(id)}/seats/${seat}/back`, { token, body: {} }).then((r) => r.body),
  sendMessage: (id, token, code) => request("POST", `${game(id)}/messages`, { token, body: { code } }).then((r) => r.body),
  /** At game over: {game_id, seat, token, state} of the next game (the first opt-in creates it). */
  rematch: (id, token, playerToken = null) => request("POST", `${game(id)}/rematch`, { token, playerToken, body: {} }).then((r) => r.body),
  rejoinCode: (id, seat, token) => request("POST", `${game(id)}/seats/${seat}/rejoin-code`, { token, body: {} }).then((r) => r.body),
  revokeRejoinCode: (id, seat, token) => request("DELETE", `${game(id)}/seats/${seat}/rejoin-code`, { token }).then((r) => r.body),
  /** A rejoin code redeemed: a new token for its seat ({seat, token, …}); the old token stops working. */
  rejoin: (id, code) => request("POST", `${game(id)}/rejoin`, { body: { code } }).then((r) => r.body),
  /** Your player's seat taken to this device ({seat, token, …}): the device that held it now watches. */
  takeSeat: (id, seat, playerToken) => request("POST", `${game(id)}/seats/${seat}/take`, { body: {}, playerToken }).then((r) => r.body),

  // ---- the lobby: public tables and quick match
  /** A page of public tables ({tables, next_cursor, last_seq}); `query`: {preset, clock, free_seats, level, cursor, limit}. */
  tables: (query = {}, signal) => request("GET", `/v1/tables${queryString(query)}`, { signal }).then((r) => r.body),
  /** The lobby stream (SSE) of table changes after `after` (see `openStream`): the Response, to read. */
  tablesStream: (after, resumed, signal) => openStream("/v1/tables/stream", { after, resumed, signal }),
  /** {rules, clock, max_wait_seconds, fill_level} -> 202 {match_id, secret, status, expires_ms, server_time_ms}. */
  startMatch: (body, playerToken = null) => request("POST", "/v1/matches", { body, playerToken }).then((r) => r.body),
  /** A match request's state, waiting up to `wait` s for it to end or its `found` to differ from `found` (bearer: its secret). */
  match: (id, secret, wait, signal, found) => {
    const query = new URLSearchParams(wait ? { wait, ...(Number.isInteger(found) ? { found } : {}) } : {}).toString();
    return request("GET", `/v1/matches/${encodeURIComponent(id)}${query ? `?${query}` : ""}`, { token: secret, signal }).then((r) => r.body);
  },
  cancelMatch: (id, secret) => request("DELETE", `/v1/matches/${encodeURIComponent(id)}`, { token: secret }).then((r) => r.body),

  // ---- players: a name that lasts, ratings, history, leaderboards
  /** {name, kind} -> 201 {player, token}: the token is shown once (identity.js keeps it). */
  createPlayer: (name, kind = "person") => request("POST", "/v1/players", { body: { name, kind } }).then((r) => r.body),
  /** The player the token belongs to (401 player_token_invalid once it is revoked or deleted). */
  me: (playerToken) => request("GET", "/v1/players/me", { playerToken }).then((r) => r.body),
  rename: (playerToken, name) => request("PATCH", "/v1/players/me", { playerToken, body: { name } }).then((r) => r.body),
  /** Your player's games in play on any device: {games: [{game_id, seat, stand_in, phase, round, turn, scores, seats, changed_ms}]}. */
  liveGames: (playerToken) => request("GET", "/v1/players/me/live-games", { playerToken }).then((r) => r.body),
  /** Anyone's public player: {id, kind, name, created_at, ratings, rating_hold, stats}; with your own player's
   * token for your own page (an open review's hold is told to you alone). */
  getPlayer: (id, playerToken = null) => request("GET", player(id), { playerToken }).then((r) => r.body),
  /** A page of a player's games, newest first: {games, next}. */
  playerGames: (id, query = {}) => request("GET", `${player(id)}/games${queryString(query)}`).then((r) => r.body),
  // ---- devices: a session per device (account.js, signin.js); every call but the sign-in with the
  // player token or this device's session
  /** 201 {code: "XXXX-XXXX", link: "/play#link=…", qr_svg, expires_at} and its `lifetime_ms` by the server's
   * clock: signs one other device in, once. */
  linkCode: (playerToken) =>
    request("POST", "/v1/players/me/link-codes", { playerToken, body: {} }).then((r) => ({ ...r.body, lifetime_ms: timeLeft(r.body.expires_at, r.date) })),
  /** {link_code | recovery_code, device_name} -> 201 {session, token, player}: the token is shown once. */
  signIn: (body) => request("POST", "/v1/sessions", { body }).then((r) => r.body),
  /** {sessions: [{id, name, via, created_at, last_seen_at, current}]}. */
  sessions: (playerToken) => request("GET", "/v1/players/me/sessions", { playerToken }).then((r) => r.body),
  revokeSession: (playerToken, id) => request("DELETE", `/v1/players/me/sessions/${encodeURIComponent(id)}`, { playerToken }).then((r) => r.body),
  /** Every session but the asking one (all of them with the player token): the sessions left. */
  revokeOtherSessions: (playerToken) => request("DELETE", "/v1/players/me/sessions", { playerToken }).then((r) => r.body),
  /** 201 {codes: [ten "XXXX-XXXX-XXXX-XXXX"], created_at}, shown once; the set made before stops working. */
  recoveryCodes: (playerToken) => request("POST", "/v1/players/me/recovery-codes", { playerToken, body: {} }).then((r) => r.body),

  /** {board, kind, top, me?}; `me` (the viewer's own rank) when a player token is sent. */
  leaderboard: (board, query = {}, playerToken = null) =>
    request("GET", `/v1/leaderboards/${encodeURIComponent(board)}${queryString(query)}`, { playerToken }).then((r) => r.body),

  // ---- friends: follows, blocks, invites to your table and the notices they leave
  /** {following: [{id, name, kind, since, online, last_seen_at, game_id, seat}], limit}. */
  following: (playerToken) => request("GET", "/v1/players/me/following", { playerToken }).then((r) => r.body),
  follow: (playerToken, id) => request("PUT", `/v1/players/me/following/${encodeURIComponent(id)}`, { playerToken, body: {} }).then((r) => r.body),
  unfollow: (playerToken, id) => request("DELETE", `/v1/players/me/following/${encodeURIComponent(id)}`, { playerToken }).then((r) => r.body),
  /** {blocks: [{id, name, kind, since}], limit}. */
  blocks: (playerToken) => request("GET", "/v1/players/me/blocks", { playerToken }).then((r) => r.body),
  block: (playerToken, id) => request("PUT", `/v1/players/me/blocks/${encodeURIComponent(id)}`, { playerToken, body: {} }).then((r) => r.body),
  unblock: (playerToken, id) => request("DELETE", `/v1/players/me/blocks/${encodeURIComponent(id)}`, { playerToken }).then((r) => r.body),
  /** Invite a player to your table: your seat's token and your player token. */
  invite: (id, token, playerToken, playerId) =>
    request("POST", `${game(id)}/invites`, { token, playerToken, body: { player_id: playerId } }).then((r) => r.body),
  /** {notices: [{id, kind, sender: {id, name}, game_id, seat, created_at, expires_at}]}. */
  notices: (playerToken) => request("GET", "/v1/players/me/notices", { playerToken }).then((r) => r.body),
  dismissNotice: (playerToken, id) => request("DELETE", `/v1/players/me/notices/${encodeURIComponent(id)}`, { playerToken }).then((r) => r.body),
  // ---- events: duplicate pairs and arenas (eventlist.js, eventpage.js, arenapage.js, scoresheet.js)
  /** {events: [summary]}, the newest first. */
  events: (query = {}) => request("GET", `/v1/events${queryString(query)}`).then((r) => r.body),
  createEvent: (playerToken, body) => request("POST", "/v1/events", { playerToken, body }).then((r) => r.body),
  /** The event, moved on first (its pairs, standings, current round, boards). */
  getEvent: (id) => request("GET", eventPath(id)).then((r) => r.body),
  joinEvent: (playerToken, id, partner) => request("POST", `${eventPath(id)}/pairs`, { playerToken, body: { partner } }).then((r) => r.body),
  acceptPair: (playerToken, id, pairId) =>
    request("POST", `${eventPath(id)}/pairs/${encodeURIComponent(pairId)}/accept`, { playerToken, body: {} }).then((r) => r.body),
  withdrawPair: (playerToken, id, pairId) => request("DELETE", `${eventPath(id)}/pairs/${encodeURIComponent(pairId)}`, { playerToken }).then((r) => r.body),
  startEvent: (playerToken, id) => request("POST", `${eventPath(id)}/start`, { playerToken, body: {} }).then((r) => r.body),
  /** An arena: your player in its pool → your entrant (rank, points, status, game_id and seat once paired). */
  joinArena: (playerToken, id) => request("POST", `${eventPath(id)}/entrants`, { playerToken, body: {} }).then((r) => r.body),
  /** An entrant, the arena moved on first (its game scored if finished, the pool paired). */
  arenaEntrant: (id, playerId) => request("GET", `${eventPath(id)}/entrants/${encodeURIComponent(playerId)}`).then((r) => r.body),
  withdrawArena: (playerToken, id, playerId) => request("DELETE", `${eventPath(id)}/entrants/${encodeURIComponent(playerId)}`, { playerToken }).then((r) => r.body),
  /** A board's scoresheet: every table's pairs, bids, tricks, scores, matchpoints, game id; `par`. */
  eventBoard: (id, board) => request("GET", `${eventPath(id)}/boards/${board}`).then((r) => r.body),
  /** The build id of the client the server has now (release.js); not part of /v1: the page's own files. */
  clientBuild: () => request("GET", "/play/version.json").then((r) => r.body.build),
};

function queryString(query) {
  const pairs = Object.entries(query).filter(([, v]) => v !== undefined && v !== null && v !== "");
  return pairs.length ? `?${new URLSearchParams(pairs).toString()}` : "";
}
