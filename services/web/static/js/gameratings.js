// The rating change of each player at the game's end. The server rates a finished game shortly after
// it ends (its record is written, then rated, within a second or two), so the final scores read the
// game's record (GET /v1/games/{id}/record) a few times until its `ratings` are there — or it says
// the game is not rated — and then show each player's rating before, after and the change.

import { api } from "./api.js";
import { h } from "./dom.js";
import { has, t } from "./i18n.js";
import { currentPlayer } from "./identity.js";
import { formatChange, formatRating, playerName, ratingMark } from "./playertext.js";
import { followLink, profileUrl } from "./router.js";
import { playerOf, seatName } from "./seating.js";

const POLL_MS = 800; // the record is read this often after the end…
const SLOW_POLL_MS = 3000; // …then this often, once a busy server has kept the ratings waiting FAST_MS…
const FAST_MS = 10_000;
const WATCH_MS = 120_000; // …for at most this long

/** Whether anyone at the table can be rated: a person or a bot with a name. */
function namedPeople(view) {
  return view.seats.some((s) => s.player && s.player.kind !== "computer");
}

/** The seats' rows (pure): [{seat, name, before, after, change, provisional, id, mine}] from the record's `ratings`. */
export function ratingRows(ratings, { players = [], view = null, you = null } = {}) {
  return [...ratings]
    .sort((a, b) => a.seat - b.seat)
    .map((r) => {
      const player = (players && players[r.seat]) || (view ? playerOf(view, r.seat) : null);
      return {
        seat: r.seat,
        id: r.player_id,
        name: player ? playerName(player) : seatName(r.seat),
        kind: player ? player.kind : null,
        before: r.before,
        after: r.after,
        change: r.change ?? r.after - r.before,
        provisional: Boolean(r.provisional),
        mine: r.seat === you,
      };
    });
}

/** "This game was not rated: …", with the record's `unrated_reason` in words (the bare sentence for a reason this
 * page does not know). */
export function unratedText(reason) {
  const key = `players.ratings.why.${reason}`;
  return reason && has(key) ? t("players.ratings.unratedBecause", { why: t(key) }) : t("players.ratings.unrated");
}

/** Start reading the record once the game is over (once per game page); `game.render()` shows what comes. */
export function watchRatings(game) {
  const view = game.view;
  if (game.ratings || view.phase !== "game_over" || game.derived) return;
  if (!namedPeople(view)) {
    game.ratings = { state: "unnamed" };
    return;
  }
  game.ratings = { state: "waiting" };
  const started = performance.now();
  const until = started + WATCH_MS;
  const look = async () => {
    if (game.stopped) return;
    let record = null;
    try {
      record = await api.getRecord(game.gameId);
    } catch {
      record = null; // not written yet (404) or a passing failure: look again
    }
    if (game.stopped) return;
    if (record && Array.isArray(record.ratings) && record.ratings.length) {
      game.ratings = { state: "done", rows: ratingRows(record.ratings, { players: record.players, view, you: view.you }) };
    } else if (record && record.rated === false) {
      game.ratings = { state: "unrated", reason: record.unrated_reason || null };
    } else if (performance.now() < until) {
      game.ratingsTimer = setTimeout(look, performance.now() - started < FAST_MS ? POLL_MS : SLOW_POLL_MS);
      return;
    } else {
      game.ratings = { state: "none" };
    }
    game.render();
  };
  look();
}

/** What the final scores say of ratings: the changes, "Updating ratings…", or nothing. */
export function ratingsBox(game) {
  const state = game.ratings ? game.ratings.state : null;
  if (state === "waiting") return h("p.ratings-wait", { role: "status", dataset: { testid: "ratings-wait" } }, t("players.ratings.waiting"));
  if (state === "unrated") return h("p.ratings-note", { dataset: { testid: "ratings-unrated", reason: game.ratings.reason || "" } }, unratedText(game.ratings.reason));
  if (state === "unnamed" && game.view.you !== null && !currentPlayer()) {
    return h("p.ratings-note", { dataset: { testid: "ratings-unnamed" } }, t("players.ratings.unnamed"));
  }
  if (state !== "done") return null;
  return h(
    "table.rating-changes",
    { dataset: { testid: "rating-changes" } },
    h("caption", {}, t("players.ratings.caption")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("players.player")), h("th", { scope: "col" }, t("players.rating")), h("th", { scope: "col" }, t("players.ratings.change")))),
    h(
      "tbody",
      {},
      game.ratings.rows.map((row) =>
        h(
          "tr",
          { class: row.mine ? "mine" : null, dataset: { testid: `rating-change-${row.seat}`, change: String(row.change) } },
          h(
            "th",
            { scope: "row" },
            h("span.rc-seat", {}, seatName(row.seat)),
            " ",
            row.id ? h("a", { href: profileUrl(row.id), onclick: followLink }, row.name) : row.name,
            row.mine ? h("span.rc-you", {}, ` ${t("players.you")}`) : null,
          ),
          h("td", {}, h("span.rc-before", {}, formatRating(row.before)), h("span.rc-arrow", { "aria-hidden": "true" }, " → "), h("span.visually-hidden", {}, ` ${t("players.ratings.to")} `), ratingMark(row.after, row.provisional, "strong")),
          h("td", { class: `rc-change ${row.change > 0 ? "up" : row.change < 0 ? "down" : "same"}` }, formatChange(row.change)),
        ),
      ),
    ),
  );
}
