// The leaderboards (#/leaderboards[/<board>][?kind=…]): per board (partnership, individual) the top 50
// people, bots or computer levels (GET /v1/leaderboards/{board}?kind=&limit=50), and — with this
// browser's player token — the viewer's own rank, even far below the top, or that their rating is still
// provisional (on no board: "1522?").

import { api } from "./api.js";
import { fill, h } from "./dom.js";
import { askName, currentPlayer, withPlayer } from "./identity.js";
import { formatNumber, t } from "./i18n.js";
import { describeProblem } from "./messages.js";
import { BOARD_CODES, PROVISIONAL_GAMES, boardName, formatRating, levelName, ratingMark, tParts } from "./playertext.js";
import { followLink, leaderboardsUrl, lobbyUrl, profileUrl } from "./router.js";

const KINDS = ["person", "bot", "computer"]; // the tabs of who is ranked (players.who.<kind> names them)
const TOP = 50;

function tabs(label, entries, current, href, testid) {
  return h(
    "nav.lb-tabs",
    { "aria-label": label },
    entries.map(([key, text]) =>
      h("a.lb-tab", { href: href(key), onclick: followLink, "aria-current": key === current ? "page" : null, dataset: { testid: `${testid}-${key}` } }, text),
    ),
  );
}

function meBox(board, kind, answer) {
  const player = currentPlayer();
  if (kind === "computer") return null;
  if (!player) {
    return h("p.lb-me.none", { dataset: { testid: "lb-me" } }, `${t("players.lb.noName")} `, h("button.small.primary", { type: "button", onclick: () => askName() }, t("players.name.choose")));
  }
  if (player.kind && player.kind !== kind) return null;
  const me = answer.me;
  let said;
  if (answer.me_hold) {
    said = t(`players.profile.hold.${answer.me_hold}`);
  } else if (me && me.provisional) {
    said = tParts(`players.lb.provisional.${board}`, { games: PROVISIONAL_GAMES }, { rating: ratingMark(me.rating, true, "strong") });
  } else if (me && me.rank) {
    said = tParts(`players.lb.me.${board}`, {}, { rank: h("strong", {}, t("players.rank", { rank: me.rank })), rating: h("strong", {}, formatRating(me.rating)) });
  } else {
    said = t(`players.lb.unrated.${board}`);
  }
  return h("p.lb-me", { class: me && me.provisional ? "provisional-note" : null, dataset: { testid: "lb-me" } }, said);
}

function table(answer, kind) {
  const mine = currentPlayer() ? currentPlayer().id : null;
  if (!answer.top.length) return h("p.note", { dataset: { testid: "lb-empty" } }, t("players.lb.empty"));
  return h(
    "table.leaderboard",
    { dataset: { testid: "leaderboard" } },
    h("caption.visually-hidden", {}, t(`players.lb.caption.${kind}`, { count: answer.top.length, board: boardName(answer.board) })),
    h("thead", {}, h("tr", {}, h("th.lb-rank-head", { scope: "col" }, h("span.lb-head-long", {}, t("players.lb.rank")), h("span.lb-head-short", { "aria-hidden": "true" }, "#")), h("th", { scope: "col" }, t("players.player")), h("th", { scope: "col" }, t("players.rating")), h("th", { scope: "col" }, t("players.lb.games")))),
    h(
      "tbody",
      {},
      answer.top.map((row) =>
        h(
          "tr",
          { class: `${row.player.id === mine ? "mine" : ""}${row.rank <= 3 ? ` podium podium-${row.rank}` : ""}`.trim() || null, dataset: { testid: `lb-row-${row.rank}`, player: row.player.id } },
          h("td.lb-rank", {}, h("span", { class: `rank-badge${row.rank <= 3 ? ` medal-${row.rank}` : ""}` }, formatNumber(row.rank))),
          h("th.lb-name", { scope: "row" }, h("a", { href: profileUrl(row.player.id), onclick: followLink }, kind === "computer" ? levelName(row.player.name) : row.player.name), row.player.id === mine ? h("span.lb-you", {}, ` ${t("players.you")}`) : null),
          h("td.lb-rating", {}, formatRating(row.rating)),
          h("td.lb-games", {}, formatNumber(row.games)),
        ),
      ),
    ),
  );
}

/** The leaderboards page; {stop()}. */
export function renderLeaderboards(root, board = null, kind = null) {
  const page = { stopped: false, stop: () => (page.stopped = true) };
  const chosenBoard = BOARD_CODES.includes(board) ? board : "partnership";
  const chosenKind = kind || "person";
  const body = h("div.lb-body", { "aria-live": "polite", "aria-busy": "true" }, h("p.loading-note", {}, t("players.lb.loading")));
  fill(
    root,
    h(
      "div.lb-page",
      { dataset: { testid: "leaderboards", board: chosenBoard, kind: chosenKind } },
      h("nav.crumbs", { "aria-label": t("players.pages") }, h("a", { href: lobbyUrl(), onclick: followLink }, t("players.lobby")), currentPlayer() ? h("a", { href: profileUrl(currentPlayer().id), onclick: followLink }, t("players.identity.profile")) : null),
      h(
        "section.panel.lb-panel",
        { "aria-labelledby": "lb-title" },
        h("h1", { id: "lb-title" }, t("players.leaderboards")),
        tabs(t("players.board"), BOARD_CODES.map((b) => [b, boardName(b)]), chosenBoard, (b) => leaderboardsUrl(b, chosenKind), "lb-board"),
        tabs(t("players.lb.who"), KINDS.map((k) => [k, t(`players.who.${k}`)]), chosenKind, (k) => leaderboardsUrl(chosenBoard, k), "lb-kind"),
        body,
      ),
    ),
  );
  withPlayer((token) => api.leaderboard(chosenBoard, { kind: chosenKind, limit: TOP }, chosenKind === "computer" ? null : token)).then(
    (answer) => {
      if (page.stopped) return;
      body.removeAttribute("aria-busy");
      fill(body, meBox(chosenBoard, chosenKind, answer), table(answer, chosenKind));
    },
    (problem) => {
      if (page.stopped) return;
      body.removeAttribute("aria-busy");
      fill(body, h("p.error-note", { role: "alert" }, describeProblem(problem)));
    },
  );
  return page;
}
