// An event's page (#/events/<id>): its status and settings; what you can do (join with a partner picked from
// whom you follow or by a pasted player id, accept an invitation, withdraw, start it as its creator); your
// table in the current round ("Play": your seat taken with your player's credential, then the game); how far
// the round is (its tables finished, from the round's last board) and what starts the next one; the standings
// (rank, the pair's names, matchpoints, percent) and a link to each board's scoresheet. Kept up to date by the
// event's push stream (eventfeed.js: a body each time the event changes); where the stream cannot be had, read
// again every few seconds while the page is in sight (a read moves the event on: docs/events.md); and read at
// once when the page comes back into sight.

import { api } from "./api.js";
import { openDialog } from "./dialog.js";
import { fill, h } from "./dom.js";
import { renderArena } from "./arenapage.js";
import { followEvent, readInSight } from "./eventfeed.js";
import { crumbs, dealsWords, eventHeader, pairByNumber, pairNames, startWords } from "./eventlist.js";
import { formatNumber, t } from "./i18n.js";
import { currentPlayer, playerToken } from "./identity.js";
import { describeProblem, showMessage, showProblem } from "./messages.js";
import { eventsUrl, followLink, gameUrl, navigate } from "./router.js";
import { takeSeatHere } from "./seatfollow.js";
import { heldSeat } from "./seats.js";

export { POLL_MS } from "./eventlist.js";

/** The pair `playerId` is in or invited to (pure). */
export function pairOf(event, playerId) {
  if (!playerId) return null;
  return event.pairs.find((p) => p.invited === playerId || p.players.some((m) => m.player_id === playerId)) || null;
}

/** Your table in the current round: {table, side: "ns" | "ew", against} or null (pure). */
export function yourTable(event, pair) {
  const round = event.current_round;
  if (!round || !pair || !pair.number || event.status !== "running") return null;
  const table = round.tables.find((tb) => tb.ns === pair.number || tb.ew === pair.number);
  if (!table) return null;
  const side = table.ns === pair.number ? "ns" : "ew";
  return { table, side, against: side === "ns" ? table.ew : table.ns };
}

/** How far the current round is: {finished, tables} from the round's `tables_finished` (pure). */
export function progressOf(event) {
  const round = event.current_round;
  if (event.status !== "running" || !round) return null;
  return { finished: round.tables_finished.length, tables: round.tables_finished };
}

/** A percentage as the standings show it: "62.5 %" in the page's language (pure but for the language). */
export function percentText(value) {
  return formatNumber(value / 100, { style: "percent", maximumFractionDigits: 1 });
}

export function matchpointsText(value) {
  return formatNumber(value, { maximumFractionDigits: 2 });
}

function standingsTable(event, mine) {
  if (!event.standings.some((s) => s.top > 0)) return h("p.note", { dataset: { testid: "standings-empty" } }, t(event.status === "open" ? "events.standingsAfterStart" : "events.standingsNone"));
  return h(
    "table.standings",
    { dataset: { testid: "standings" } },
    h("caption.visually-hidden", {}, t("events.standings")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("events.pair")), h("th.num", { scope: "col" }, h("span.st-head-long", {}, t("events.matchpoints")), h("span.st-head-short", { "aria-hidden": "true" }, t("events.mpShort"))), h("th.num", { scope: "col" }, "%"))),
    h(
      "tbody",
      {},
      event.standings.map((s, row) =>
        h(
          "tr",
          { class: mine && mine.number === s.pair ? "mine" : null, dataset: { testid: `standing-${row + 1}`, pair: String(s.pair) } },
          h("td.st-rank", {}, h("span", { class: `rank-badge${s.rank <= 3 ? ` medal-${s.rank}` : ""}` }, formatNumber(s.rank))),
          h("th.st-pair", { scope: "row" }, h("span.pair-no", {}, formatNumber(s.pair)), " ", pairNames(pairByNumber(event, s.pair), event)),
          h("td.num", {}, t("events.outOf", { mp: matchpointsText(s.matchpoints), top: formatNumber(s.top) })),
          h("td.num.st-percent", {}, percentText(s.percent)),
        ),
      ),
    ),
  );
}

function pairsList(event, mine) {
  return h(
    "ul.ev-pairs",
    { dataset: { testid: "event-pairs" } },
    event.pairs.map((p) =>
      h(
        "li",
        { class: p === mine ? "mine" : null, dataset: { testid: `pair-${p.pair_id}` } },
        p.number ? h("span.pair-no", {}, formatNumber(p.number)) : null,
        " ",
        pairNames(p, event),
        p.invited ? h("span.ev-invited", {}, ` ${t("events.invitedMark")}`) : null,
        p.withdrawn ? h("span.ev-withdrawn", {}, ` ${t("events.withdrawnMark")}`) : null,
      ),
    ),
  );
}

/** The round line: "Round 1 · 1 of 2 tables finished", and what starts the next round. */
function roundBox(event, progress) {
  if (event.status === "open") return h("p.ev-round", { dataset: { testid: "event-round" } }, t("events.startsAt", { when: startWords(event) }));
  if (event.status === "finished") return h("p.ev-round", { dataset: { testid: "event-round" } }, t("events.finishedLine"));
  const round = event.current_round;
  const done = progress ? progress.finished : null;
  return h(
    "div.ev-round",
    { dataset: { testid: "event-round", round: String(round.number), finished: done === null ? "" : String(done) } },
    h("p", {}, h("strong", {}, t("events.roundOf", { round: formatNumber(round.number), rounds: formatNumber(event.rounds) })), done === null ? null : ` · ${t("events.tablesDone", { done: formatNumber(done), count: round.tables.length })}`),
    h("p.help", {}, t(round.number >= event.rounds ? "events.lastRound" : "events.nextRound", { next: formatNumber(round.number + 1) })),
  );
}

export function renderEvent(root, eventId) {
  const page = { stopped: false, timer: null };
  const me = currentPlayer();
  const head = h("header.ev-head");
  const actions = h("section.ev-actions", { "aria-live": "polite", dataset: { testid: "event-actions" } });
  const round = h("section.ev-roundbox", { "aria-live": "polite" });
  const standings = h("section.ev-standings", { "aria-labelledby": "ev-standings-title" });
  const boards = h("nav.ev-boards", { "aria-label": t("events.boards"), dataset: { testid: "event-boards" } });
  const error = h("p.error-note", { role: "alert" });
  fill(
    root,
    h(
      "div.ev-page.ev-detail",
      { dataset: { testid: "event" } },
      crumbs(h("a", { href: eventsUrl(), onclick: followLink }, t("events.title"))),
      h("section.panel.ev-panel", { "aria-labelledby": "ev-title" }, head, error, actions, round, h("div.ev-columns", {}, standings, boards)),
    ),
  );
  let shown = null; // the event last drawn
  let actionsKey = ""; // what the actions were drawn for: drawn again only when it changes (a typed id stays)
  const names = new Map(); // player id -> name, for an invitation's partner

  async function act(button, call) {
    button.disabled = true;
    try {
      draw(await call());
      await read();
    } catch (problem) {
      showProblem(problem);
    } finally {
      button.disabled = false;
    }
  }

  function joinForm() {
    const select = h("select", { id: "ev-partner-pick", dataset: { testid: "partner-pick" } }, h("option", { value: "" }, t("events.partnerPick")));
    const typed = h("input", { id: "ev-partner-id", type: "text", autocomplete: "off", spellcheck: "false", placeholder: t("events.partnerIdHint"), dataset: { testid: "partner-id" } });
    api.following(playerToken()).then(
      (answer) => select.append(...answer.following.map((f) => h("option", { value: f.id }, f.name))),
      () => {},
    );
    const button = h("button.primary", { type: "submit", dataset: { testid: "join-event" } }, t("events.join"));
    const form = h(
      "form.ev-join",
      { dataset: { testid: "join-form" } },
      h("p", {}, t("events.joinLead")),
      h("div.ev-join-fields", {}, h("label.visually-hidden", { for: "ev-partner-pick" }, t("events.partnerPick")), select, h("span.ev-or", {}, t("events.or")), h("label.visually-hidden", { for: "ev-partner-id" }, t("events.partnerId")), typed, button),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const partner = typed.value.trim() || select.value;
      if (!partner) return showMessage(t("events.partnerMissing"));
      return act(button, async () => {
        await api.joinEvent(playerToken(), eventId, partner);
        return api.getEvent(eventId);
      });
    });
    return form;
  }

  function partnerName(id) {
    if (!names.has(id)) {
      names.set(id, id);
      api.getPlayer(id).then((p) => {
        names.set(id, p.name);
        actionsKey = "";
        if (shown) draw(shown);
      }, () => {});
    }
    return names.get(id);
  }

  function drawActions(event, progress) {
    const mine = pairOf(event, me && me.id);
    const where = yourTable(event, mine);
    const played = Boolean(where && progress && progress.tables.includes(where.table.table)); // your table has finished
    const key = JSON.stringify([event.status, event.current_round && event.current_round.number, mine && mine.pair_id, mine && mine.invited, mine && mine.withdrawn, me && me.id, played]);
    if (key === actionsKey) return;
    actionsKey = key;
    const parts = [];
    if (!me) parts.push(h("p.note", {}, t("events.needNameToJoin")));
    else if (!mine && event.status === "open") parts.push(joinForm());
    else if (mine && mine.invited === me.id) {
      const from = mine.players[0] ? mine.players[0].name : "";
      parts.push(
        h("p", { dataset: { testid: "invitation" } }, t("events.invitedYou", { name: from })),
        h("button.primary", { type: "button", dataset: { testid: "accept-pair" }, onclick: (e) => act(e.currentTarget, async () => (await api.acceptPair(playerToken(), eventId, mine.pair_id), api.getEvent(eventId))) }, t("events.accept")),
      );
    } else if (mine) {
      const partner = mine.invited ? t("events.waitingFor", { name: partnerName(mine.invited) }) : t("events.yourPair", { names: pairNames(mine, event), number: mine.number ? formatNumber(mine.number) : "" });
      parts.push(h("p", { dataset: { testid: "your-pair" } }, partner));
      if (mine.withdrawn) parts.push(h("p.note", {}, t("events.youWithdrew")));
    }
    const buttons = [];
    if (where && !mine.withdrawn && !played) buttons.push(playButton(event, where));
    if (me && event.creator === me.id && event.status === "open") {
      buttons.push(h("button.primary", { type: "button", dataset: { testid: "start-event" }, onclick: (e) => act(e.currentTarget, () => api.startEvent(playerToken(), eventId)) }, t("events.start")));
    }
    if (mine && mine.invited !== me.id && !mine.withdrawn && event.status !== "finished") {
      buttons.push(h("button.quiet", { type: "button", dataset: { testid: "withdraw" }, onclick: (e) => withdraw(e.currentTarget, mine) }, t("events.withdraw")));
    }
    const line = where && !mine.withdrawn ? (played ? h("p.ev-your-table", { dataset: { testid: "your-table-done" } }, t("events.yourTableDone")) : tableLine(event, where)) : null;
    fill(actions, parts, line, buttons.length ? h("div.ev-buttons", {}, buttons) : null);
  }

  async function withdraw(button, mine) {
    const said = h("p", {}, t(shown.status === "open" ? "events.withdrawOpen" : "events.withdrawRunning"));
    const chosen = await openDialog(said, { testid: "withdraw-dialog", label: t("events.withdraw"), buttons: [{ label: t("events.stay"), value: "stay" }, { label: t("events.withdraw"), value: "withdraw", primary: true }] });
    if (chosen === "withdraw") await act(button, () => api.withdrawPair(playerToken(), eventId, mine.pair_id));
  }

  function tableLine(event, where) {
    return h(
      "p.ev-your-table",
      { dataset: { testid: "your-table", game: where.table.game_id } },
      t(where.side === "ns" ? "events.yourTableNs" : "events.yourTableEw", { table: formatNumber(where.table.table), names: pairNames(pairByNumber(event, where.against), event) }),
    );
  }

  function playButton(event, where) {
    const gameId = where.table.game_id;
    return h(
      "button.primary",
      {
        type: "button",
        dataset: { testid: "play-table" },
        onclick: async (e) => {
          const button = e.currentTarget;
          button.disabled = true;
          try {
            if (!heldSeat(gameId)) {
              const view = await api.getGame(gameId, null);
              const seat = view.seats.find((s) => s.player && s.player.id === me.id);
              if (seat) await takeSeatHere(gameId, seat.seat);
            }
            navigate(gameUrl(gameId));
          } catch (problem) {
            button.disabled = false;
            showProblem(problem);
          }
        },
      },
      t("events.play"),
    );
  }

  function draw(event, progress = null) {
    if (page.stopped) return;
    shown = event;
    const mine = pairOf(event, me && me.id);
    root.querySelector("[data-testid=event]").dataset.status = event.status;
    fill(head, eventHeader(event, dealsWords(event)));
    drawActions(event, progress);
    fill(round, roundBox(event, progress), event.status === "open" ? pairsList(event, mine) : null);
    fill(standings, h("h2.panel-title", { id: "ev-standings-title" }, t(event.status === "finished" ? "events.finalStandings" : "events.standings")), standingsTable(event, mine));
    fill(
      boards,
      event.boards.length ? h("h2.panel-title", {}, t("events.boards")) : null,
      event.boards.map((b) => h("a.ev-board", { href: eventsUrl(eventId, b), onclick: followLink, dataset: { testid: `board-link-${b}` } }, t("events.board", { board: formatNumber(b) }))),
    );
  }

  /** The event, read now. */
  async function read() {
    try {
      const event = await api.getEvent(eventId);
      if (event.format === "arena") return handOver(event);
      error.textContent = "";
      draw(event, progressOf(event));
    } catch (problem) {
      if (!page.stopped) error.textContent = describeProblem(problem);
    }
  }

  /** The pushed bodies drawn as they come; where the stream cannot be had, the page reads on its own clock. */
  function follow() {
    if (page.stopped || (shown && shown.format === "arena")) return;
    page.feed = followEvent(
      eventId,
      (event) => {
        error.textContent = "";
        draw(event, progressOf(event));
      },
      () => (!shown || shown.status !== "finished") && reads.tick(),
    );
  }

  /** An arena has a page of its own: this one stops and the arena's draws from what it read. */
  function handOver(event) {
    page.stop();
    const arena = renderArena(root, eventId, event);
    page.stop = () => arena.stop();
  }

  const reads = readInSight(page, read);
  page.stop = () => {
    page.stopped = true;
    reads.stop();
    if (page.feed) page.feed.close();
  };
  read().then(follow);
  return page;
}
