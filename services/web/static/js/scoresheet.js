// A board's scoresheet (#/events/<id>/boards/<n>): every table of the board, two lines each (North-South and
// East-West): the pair's names, its two bids and tricks, its score on the deal, its matchpoints (once every
// table has finished the board) and the expert's par ("—" while the server has none), with a replay link per
// table (#/replay/<game>) or, while it is played, a link to watch it. Links to the boards before and after.

import { api } from "./api.js";
import { fill, h } from "./dom.js";
import { crumbs, pairByNumber, pairNames } from "./eventlist.js";
import { matchpointsText, POLL_MS } from "./eventpage.js";
import { formatNumber, t } from "./i18n.js";
import { currentPlayer } from "./identity.js";
import { describeProblem } from "./messages.js";
import { eventsUrl, followLink, gameUrl, replayUrl } from "./router.js";

const SIDES = { ns: [0, 2], ew: [1, 3] }; // North-South sit at seats 0 and 2, East-West at 1 and 3

/** A side's par as the sheet shows it: "—" while there is none; a number is North-South's (pure). */
export function parText(par, side) {
  if (par === null || par === undefined) return "—";
  if (typeof par === "number") return formatNumber(side === "ns" ? par : -par);
  const value = par[side] ?? par.score;
  return value === undefined || value === null ? "—" : formatNumber(value);
}

/** "3 + nil" (pure but for the language). */
function seatsText(values, side, nil = false) {
  if (!values) return "";
  return SIDES[side].map((s) => (nil && values[s] === 0 ? t("events.nil") : formatNumber(values[s]))).join("\u2009+\u2009"); // thin spaces: a phone's narrow columns
}

function sideRow(event, sheet, row, side, first) {
  const number = row[side];
  const pair = pairByNumber(event, number);
  const me = currentPlayer();
  const mine = me && pair && pair.players.some((m) => m.player_id === me.id);
  const mp = row.matchpoints ? row.matchpoints[side] : null;
  return h(
    "tr",
    { class: `${first ? "sheet-first" : "sheet-second"}${mine ? " mine" : ""}`, dataset: { testid: `sheet-${row.table}-${side}` } },
    first ? h("th.sheet-table", { scope: "rowgroup", rowspan: "2" }, formatNumber(row.table)) : null,
    h("td.sheet-side", {}, t(`events.side.${side}`)),
    h(
      "td.sheet-pair",
      {},
      h("span.pair-no", {}, formatNumber(number)),
      h("span.sheet-names", {}, " ", pairNames(pair, event)),
      row.no_show.includes(number) ? h("span.ev-noshow", {}, ` ${t("events.noShow")}`) : null,
    ),
    h("td.num.sheet-bids", { dataset: { testid: "bids" } }, seatsText(row.bids, side, true)),
    h("td.num.sheet-tricks", { dataset: { testid: "tricks" } }, seatsText(row.tricks, side)),
    h("td.num.sheet-score", { dataset: { testid: "score" } }, row.score ? formatNumber(row.score[side]) : "…"),
    h("td.num.sheet-mp", { dataset: { testid: "matchpoints" } }, mp === null ? "…" : matchpointsText(mp)),
    h("td.num.sheet-par", { dataset: { testid: "par" } }, parText(sheet.par, side)),
    first
      ? h(
          "td.sheet-replay",
          { rowspan: "2" },
          row.finished
            ? h("a.button.small", { href: replayUrl(row.game_id), onclick: followLink, dataset: { testid: `replay-${row.table}` } }, h("span.sheet-replay-word", {}, t("players.replay")), h("span.sheet-replay-icon", { "aria-hidden": "true" }, "▶"))
            : h("a.button.small.quiet", { href: gameUrl(row.game_id), dataset: { testid: `watch-${row.table}` } }, t("events.watch")),
        )
      : null,
  );
}

function sheetTable(event, sheet) {
  return h(
    "table.scoresheet",
    { dataset: { testid: "scoresheet" } },
    h("caption.visually-hidden", {}, t("events.board", { board: formatNumber(sheet.board) })),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, h("span.visually-hidden", {}, t("events.table")), "#"),
        h("th", { scope: "col" }, h("span.visually-hidden", {}, t("events.sideHead"))),
        h("th", { scope: "col" }, h("span.sheet-pair-word", {}, t("events.pair"))),
        h("th.num", { scope: "col" }, t("events.bids")),
        h("th.num", { scope: "col" }, t("events.tricks")),
        h("th.num", { scope: "col" }, t("events.score")),
        h("th.num", { scope: "col", title: t("events.matchpoints") }, t("events.mpShort")),
        h("th.num", { scope: "col", title: t("events.parLong"), dataset: { testid: "par-head" } }, t("events.par")),
        h("th", { scope: "col" }, h("span.visually-hidden", {}, t("players.replay"))),
      ),
    ),
    sheet.tables.map((row) => h("tbody", {}, sideRow(event, sheet, row, "ns", true), sideRow(event, sheet, row, "ew", false))),
  );
}

/** The pairs' names by number, under the table on a phone (whose table shows only the numbers). */
function legend(event, sheet) {
  const numbers = [...new Set(sheet.tables.flatMap((row) => [row.ns, row.ew]))].sort((a, b) => a - b);
  return h(
    "ul.sheet-legend",
    { "aria-hidden": "true" },
    numbers.map((n) => h("li", {}, h("span.pair-no", {}, formatNumber(n)), " ", pairNames(pairByNumber(event, n), event))),
  );
}

/** What the sheet says of the par: none for this event, not yet played, or each side's score with the experts'
 * replay. */
function parLine(event, sheet) {
  if (!event.par) return h("span", { dataset: { testid: "par-line" } }, t("events.parOff"));
  if (sheet.par === null || sheet.par === undefined) return h("span", { dataset: { testid: "par-line" } }, t("events.parNone"));
  return h(
    "span",
    { dataset: { testid: "par-line" } },
    t("events.parIs", { ns: parText(sheet.par, "ns"), ew: parText(sheet.par, "ew") }),
    sheet.par_game_id ? [" ", h("a", { href: replayUrl(sheet.par_game_id), onclick: followLink, dataset: { testid: "par-replay" } }, t("events.parReplay"))] : null,
  );
}

/** Whether the sheet may still change: a table still playing, or the experts' par still to come. */
export function sheetOpen(event, sheet) {
  return sheet.tables.some((row) => !row.finished || !row.matchpoints) || Boolean(event.par && (sheet.par === null || sheet.par === undefined));
}

export function renderScoresheet(root, eventId, board) {
  const page = { stopped: false, timer: null };
  const body = h("div.sheet-body", { "aria-live": "polite", "aria-busy": "true" }, h("p.loading-note", {}, t("events.loading")));
  const back = h("a", { href: eventsUrl(eventId), onclick: followLink, dataset: { testid: "event-link" } }, t("events.event"));
  fill(
    root,
    h(
      "div.ev-page.sheet-page",
      { dataset: { testid: "board-page", board: String(board) } },
      crumbs(h("a", { href: eventsUrl(), onclick: followLink }, t("events.title")), back),
      h("section.panel.ev-panel", { "aria-labelledby": "sheet-title" }, h("h1", { id: "sheet-title" }, t("events.board", { board: formatNumber(board) })), body),
    ),
  );
  const draw = (event, sheet) => {
    back.textContent = event.name;
    body.removeAttribute("aria-busy");
    const scored = sheet.tables.every((row) => row.matchpoints);
    const top = scored && sheet.tables.length ? sheet.tables[0].matchpoints.top : null;
    fill(
      body,
      h(
        "p.sheet-facts",
        {},
        t("events.roundDeal", { round: formatNumber(sheet.round), deal: formatNumber(sheet.deal) }),
        " · ",
        top === null ? t("events.notScored") : t("events.top", { top: formatNumber(top) }),
        " · ",
        parLine(event, sheet),
      ),
      sheetTable(event, sheet),
      legend(event, sheet),
      h(
        "nav.sheet-nav",
        { "aria-label": t("events.boards") },
        board > 1 ? h("a.button.small", { href: eventsUrl(eventId, board - 1), onclick: followLink, dataset: { testid: "board-previous" } }, t("events.boardBefore")) : null,
        event.boards.includes(board + 1) ? h("a.button.small", { href: eventsUrl(eventId, board + 1), onclick: followLink, dataset: { testid: "board-next" } }, t("events.boardAfter")) : null,
      ),
    );
  };
  // read again every few seconds in sight while a table plays or the par is to come (a read moves the event on)
  const read = () =>
    Promise.all([api.getEvent(eventId), api.eventBoard(eventId, board)]).then(
      ([event, sheet]) => {
        if (page.stopped) return;
        draw(event, sheet);
        if (sheetOpen(event, sheet)) page.timer = setTimeout(again, POLL_MS);
      },
      (problem) => {
        if (page.stopped) return;
        body.removeAttribute("aria-busy");
        fill(body, h("p.error-note", { role: "alert" }, describeProblem(problem)));
      },
    );
  const again = () => (page.stopped ? undefined : document.hidden ? (page.timer = setTimeout(again, POLL_MS)) : read());
  page.stop = () => {
    page.stopped = true;
    clearTimeout(page.timer);
  };
  read();
  return page;
}
