// The leaderboards (#/leaderboards[/<board>][?kind=…]): per board (partnership, individual) the top 50
// people, bots or computer levels (GET /v1/leaderboards/{board}?kind=&limit=50), and — with this
// browser's player token — the viewer's own rank, even far below the top.

import { api } from "./api.js";
import { fill, h } from "./dom.js";
import { askName, currentPlayer, withPlayer } from "./identity.js";
import { describeProblem } from "./messages.js";
import { BOARDS } from "./profile.js";
import { followLink, leaderboardsUrl, lobbyUrl, profileUrl } from "./router.js";

const KINDS = { person: "People", bot: "Bots", computer: "Computer levels" };
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
    return h("p.lb-me.none", { dataset: { testid: "lb-me" } }, "Choose a name and play a rated game to get a rank. ", h("button.small.primary", { type: "button", onclick: () => askName() }, "Choose a name"));
  }
  if (player.kind && player.kind !== kind) return null;
  const me = answer.me;
  return h(
    "p.lb-me",
    { dataset: { testid: "lb-me" } },
    me && me.rank
      ? ["You are ", h("strong", {}, `#${me.rank}`), ` on the ${BOARDS[board].toLowerCase()} board with `, h("strong", {}, String(me.rating)), "."]
      : `You have no ${BOARDS[board].toLowerCase()} rating yet: play a rated game.`,
  );
}

function table(answer, kind) {
  const mine = currentPlayer() ? currentPlayer().id : null;
  if (!answer.top.length) return h("p.note", { dataset: { testid: "lb-empty" } }, "Nobody is rated here yet.");
  return h(
    "table.leaderboard",
    { dataset: { testid: "leaderboard" } },
    h("caption.visually-hidden", {}, `Top ${answer.top.length} ${KINDS[kind].toLowerCase()}, ${BOARDS[answer.board].toLowerCase()} board`),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Rank"), h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Rating"), h("th", { scope: "col" }, "Games"))),
    h(
      "tbody",
      {},
      answer.top.map((row) =>
        h(
          "tr",
          { class: `${row.player.id === mine ? "mine" : ""}${row.rank <= 3 ? ` podium podium-${row.rank}` : ""}`.trim() || null, dataset: { testid: `lb-row-${row.rank}`, player: row.player.id } },
          h("td.lb-rank", {}, h("span", { class: `rank-badge${row.rank <= 3 ? ` medal-${row.rank}` : ""}` }, String(row.rank))),
          h("th.lb-name", { scope: "row" }, h("a", { href: profileUrl(row.player.id), onclick: followLink }, row.player.name), row.player.id === mine ? h("span.lb-you", {}, " (you)") : null),
          h("td.lb-rating", {}, String(row.rating)),
          h("td.lb-games", {}, String(row.games)),
        ),
      ),
    ),
  );
}

/** The leaderboards page; {stop()}. */
export function renderLeaderboards(root, board = null, kind = null) {
  const page = { stopped: false, stop: () => (page.stopped = true) };
  const chosenBoard = board in BOARDS ? board : "partnership";
  const chosenKind = kind || "person";
  const body = h("div.lb-body", { "aria-live": "polite", "aria-busy": "true" }, h("p.loading-note", {}, "Loading the leaderboard…"));
  fill(
    root,
    h(
      "div.lb-page",
      { dataset: { testid: "leaderboards", board: chosenBoard, kind: chosenKind } },
      h("nav.crumbs", { "aria-label": "Pages" }, h("a", { href: lobbyUrl(), onclick: followLink }, "Lobby"), currentPlayer() ? h("a", { href: profileUrl(currentPlayer().id), onclick: followLink }, "Your profile") : null),
      h(
        "section.panel.lb-panel",
        { "aria-labelledby": "lb-title" },
        h("h1", { id: "lb-title" }, "Leaderboards"),
        tabs("Board", Object.entries(BOARDS), chosenBoard, (b) => leaderboardsUrl(b, chosenKind), "lb-board"),
        tabs("Players", Object.entries(KINDS), chosenKind, (k) => leaderboardsUrl(chosenBoard, k), "lb-kind"),
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
