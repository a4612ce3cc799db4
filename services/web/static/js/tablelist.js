// The open public tables as the lobby keeps them (pure): items of GET /v1/tables read into one shape,
// the lobby stream's changes applied (`table_opened`, `table_changed`, `table_closed`), the lobby's
// filter, and each table in words.

import { seatName } from "./seating.js";

/** One table of GET /v1/tables (or of a stream change) in the shape the lobby draws. */
export function tableItem(raw) {
  const rules = raw.rules && typeof raw.rules === "object" ? raw.rules : {};
  const people = Array.isArray(raw.people) ? raw.people.length : Number(raw.people) || 0;
  return {
    gameId: raw.game_id,
    preset: raw.preset || rules.preset || "partnership",
    houseRules: raw.house_rules || rules.house_rules || [],
    clock: (raw.clock && typeof raw.clock === "object" ? raw.clock.control || raw.clock.name : raw.clock) || "none",
    freeSeats: (raw.free_seats || []).filter((s) => Number.isInteger(s)),
    levels: (raw.levels || []).filter(Boolean),
    people,
    created: raw.created_ms || 0,
  };
}

/** A page of GET /v1/tables: {items, cursor} (cursor: the next page's, or null). */
export function tablePage(body) {
  const items = body.items || body.tables || [];
  return { items: items.map(tableItem), cursor: body.next_cursor ?? body.cursor ?? null };
}

/** Whether a table passes the lobby's filter {preset, clock} (empty: any). */
export function passes(item, filter = {}) {
  if (filter.preset && item.preset !== filter.preset) return false;
  if (filter.clock && item.clock !== filter.clock) return false;
  return item.freeSeats.length > 0;
}

/**
 * A stream change applied to the list (a Map game id -> item, changed in place). `name` is the SSE
 * event name; `data` the table (or {game_id} when it closed), possibly inside an event's `data`.
 * Returns true when the list changed.
 */
export function applyTableChange(tables, name, data, filter = {}) {
  const payload = data && data.data && data.data.game_id ? data.data : data;
  const type = name && name !== "message" ? name : data.type;
  if (!payload || !payload.game_id) return false;
  if (type === "table_closed") return tables.delete(payload.game_id);
  if (type !== "table_opened" && type !== "table_changed") return false;
  const item = tableItem(payload);
  if (!passes(item, filter)) return tables.delete(item.gameId);
  tables.set(item.gameId, item);
  return true;
}

/** Newest first, at most `limit`. */
export function listed(tables, limit = 30) {
  return [...tables.values()].sort((a, b) => b.created - a.created).slice(0, limit);
}

/** "Partnership · normal clock · 1 person, 2 computers (easy)". */
export function tableWords(item, presetName = (p) => p) {
  const clock = item.clock === "none" ? "no clock" : `${item.clock} clock`;
  const people = item.people === 1 ? "1 person" : `${item.people} people`;
  const computers = item.levels.length ? `, computers: ${[...new Set(item.levels)].join(", ")}` : "";
  const house = item.houseRules.length ? ` · ${item.houseRules.length} house rule${item.houseRules.length > 1 ? "s" : ""}` : "";
  return `${presetName(item.preset)} · ${clock} · ${people}${computers}${house}`;
}

/** "Free: West, North". */
export function freeWords(item) {
  return `Free: ${item.freeSeats.map(seatName).join(", ")}`;
}
