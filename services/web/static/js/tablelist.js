// The open public tables as the lobby keeps them (pure): the tables of GET /v1/tables read into one shape,
// the lobby stream's changes applied (`table_opened`, `table_changed`, `table_closed`), the lobby's
// filter, and each table in words.

import { has, t } from "./i18n.js";
import { levelName, seatName } from "./seating.js";

/** One table of GET /v1/tables (or of a stream change) in the shape the lobby draws. */
export function tableItem(raw) {
  const rules = raw.rules || {};
  return {
    gameId: raw.game_id,
    preset: rules.preset || "partnership",
    houseRules: rules.house_rules || [],
    clock: raw.clock || "none",
    freeSeats: (raw.free_seats || []).filter((s) => Number.isInteger(s)),
    levels: (raw.levels || []).filter(Boolean), // per seat, null where no computer sits
    people: Number(raw.people) || 0,
    names: (raw.players || []).map((p) => (p && p.name ? p.name : null)).filter(Boolean), // seat order: the host first
    winScore: Number.isInteger(raw.win_score) ? raw.win_score : null, // null: listed by an older server
    created: raw.created_ms || 0,
  };
}

/** "Ada's table · to 500 points": who hosts it (the first named person, in seat order) and what it plays to. */
export function tableTitle(item) {
  const host = item.names.length ? t("lobby.tables.host", { name: item.names[0] }) : t("lobby.tables.someone");
  return item.winScore === null ? host : `${host} · ${t("lobby.tables.target", { count: item.winScore })}`;
}

/** A page of GET /v1/tables ({tables, next_cursor, last_seq}): {items, cursor} (the next page's, or null). */
export function tablePage(body) {
  return { items: (body.tables || []).map(tableItem), cursor: body.next_cursor ?? null };
}

/** Whether a table passes the lobby's filter {preset, clock} (empty: any). */
export function passes(item, filter = {}) {
  if (filter.preset && item.preset !== filter.preset) return false;
  if (filter.clock && item.clock !== filter.clock) return false;
  return item.freeSeats.length > 0;
}

/**
 * A change of the lobby stream applied to the list (a Map game id -> item, changed in place): `name`
 * is the SSE event (`table_opened`, `table_changed`, `table_closed`), `data` the change {seq, type,
 * game_id, at_ms, table} (`table` null once closed). Returns true when the list changed.
 */
export function applyTableChange(tables, name, data, filter = {}) {
  const type = name && name !== "message" ? name : data.type;
  if (!data || !data.game_id) return false;
  if (type === "table_closed" || !data.table) return tables.delete(data.game_id);
  if (type !== "table_opened" && type !== "table_changed") return false;
  const item = tableItem(data.table);
  if (!passes(item, filter)) return tables.delete(item.gameId);
  tables.set(item.gameId, item);
  return true;
}

/** Newest first, at most `limit`. */
export function listed(tables, limit = 30) {
  return [...tables.values()].sort((a, b) => b.created - a.created).slice(0, limit);
}

/** "Partnership · normal clock · 1 person, computers: easy · 1 house rule". */
export function tableWords(item, presetName = (p) => p) {
  const clock = clockPhrase(item.clock);
  const people = t("lobby.tables.people", { count: item.people });
  const parts = [presetName(item.preset), clock, item.levels.length ? t("lobby.tables.computers", { people, levels: [...new Set(item.levels)].map(levelName).join(", ") }) : people];
  if (item.houseRules.length) parts.push(t("lobby.tables.houseRules", { count: item.houseRules.length }));
  return parts.join(" · ");
}

/** "fast clock", "no clock" (a clock the catalogue lacks: its code). */
export function clockPhrase(clock) {
  return has(`lobby.tables.clock.${clock}`) ? t(`lobby.tables.clock.${clock}`) : String(clock);
}

/** "Free: West, North". */
export function freeWords(item) {
  return t("lobby.tables.free", { seats: item.freeSeats.map(seatName).join(", ") });
}
