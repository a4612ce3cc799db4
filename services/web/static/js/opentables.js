// The lobby's open tables: public games with a free seat (GET /v1/tables, kept current by the lobby
// stream: tablefeed.js), each with its rules, clock, people and computers, and a button per free seat
// that claims it (POST …/seats/{n}/claim, the invite's call): a seat just taken tries the next one.

import { api } from "./api.js";
import { fill, h } from "./dom.js";
import { describeProblem, showProblem } from "./messages.js";
import { t } from "./i18n.js";
import { presetShort } from "./rulewords.js";
import { gameUrl, navigate } from "./router.js";
import { withPlayer } from "./identity.js";
import { keepSeat } from "./seats.js";
import { seatName } from "./seating.js";
import { followTables } from "./tablefeed.js";
import { clockName } from "./tableopts.js";
import { applyTableChange, freeWords, listed, passes, tablePage, tableTitle, tableWords } from "./tablelist.js";

const PAGE = 30;

/** The section and its live list; {element, stop()}. */
export function openTables() {
  const tables = new Map();
  const list = h("ul.open-tables", { dataset: { testid: "open-tables" }, "aria-live": "off" });
  const state = h("small.tables-state", { dataset: { testid: "tables-state" } });
  const filter = {};
  const draw = () => {
    const shown = listed(tables, PAGE);
    fill(list, shown.length ? shown.map(row) : h("li.empty", { dataset: { testid: "no-tables" } }, t("lobby.tables.none")));
  };
  const onList = (body) => {
    tables.clear();
    for (const item of tablePage(body).items) if (passes(item, filter)) tables.set(item.gameId, item);
    draw();
  };
  let feed = null;
  const restart = () => {
    if (feed) feed.stop();
    feed = followTables({ limit: PAGE, clock: filter.clock || undefined, preset: filter.preset || undefined }, {
      onList,
      onChange: (name, data) => applyTableChange(tables, name, data, filter) && draw(),
      onState: (s) => fill(state, t(s === "live" ? "lobby.tables.live" : "lobby.tables.paused")),
    });
  };
  const clockFilter = h(
    "select",
    { id: "tables-clock", dataset: { testid: "tables-clock" }, onchange: (e) => {
      filter.clock = e.currentTarget.value;
      restart();
    } },
    [["", t("lobby.tables.anyClock")], ...["fast", "normal", "relaxed"].map((c) => [c, clockName(c)]), ["none", t("lobby.clock.none")]].map(([v, text]) => h("option", { value: v }, text)),
  );
  const element = h(
    "section.tables-panel",
    { "aria-labelledby": "open-tables-title" },
    h("div.tables-head", {}, h("h2", { id: "open-tables-title" }, t("lobby.tables.title")), h("label.visually-hidden", { for: "tables-clock" }, t("lobby.match.clock")), clockFilter),
    list,
    state,
  );
  draw();
  restart();
  return { element, stop: () => feed && feed.stop() };
}

function row(item) {
  return h(
    "li.open-table",
    { dataset: { testid: `table-${item.gameId}`, game: item.gameId } },
    h("span.table-title", { dataset: { testid: `table-title-${item.gameId}` } }, tableTitle(item)),
    h("span.table-words", {}, tableWords(item, presetShort)),
    h(
      "span.table-seats",
      { role: "group", "aria-label": freeWords(item) },
      item.freeSeats.map((seat) =>
        h("button.small", { type: "button", dataset: { testid: `sit-${item.gameId}-${seat}` }, onclick: (e) => sit(e.currentTarget, item, seat) }, t("lobby.tables.sit", { seat: seatName(seat) })),
      ),
    ),
  );
}

/** Claim the seat; when someone was quicker, the table's next free seat. */
async function sit(button, item, seat) {
  button.disabled = true;
  const order = [seat, ...item.freeSeats.filter((s) => s !== seat)];
  for (const s of order) {
    try {
      const claimed = await withPlayer((playerToken) => api.claimSeat(item.gameId, s, playerToken));
      keepSeat(item.gameId, claimed.seat, claimed.token);
      navigate(gameUrl(item.gameId));
      return;
    } catch (problem) {
      if (problem.code !== "seat_taken") {
        showProblem(problem);
        button.disabled = false;
        return;
      }
    }
  }
  button.disabled = false;
  showProblem({ code: "seat_taken", detail: describeProblem({ code: "seat_taken" }) });
}
