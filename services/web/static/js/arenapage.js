// An arena's page (#/events/<id> of an event whose format is arena): its status, seating, length and the time
// left; what you can do (join, withdraw, start it as its creator); where you are (waiting to be paired, or your
// game with a "Play" button: your seat taken with your player's credential, then the game); the standings
// (rank, name, points with the fire, games, performance). The event's body comes by its push stream
// (eventfeed.js); your own entrant is read every few seconds while the page is in sight: that read scores
// finished games and pairs the pool (docs/events.md), so "Play" comes up as soon as a table is found. Where the
// stream cannot be had, the event is read with your entrant.

import { api } from "./api.js";
import { fill, h } from "./dom.js";
import { followEvent, readInSight } from "./eventfeed.js";
import { crumbs, eventHeader, startWords } from "./eventlist.js";
import { formatNumber, t } from "./i18n.js";
import { currentPlayer, playerToken } from "./identity.js";
import { describeProblem, showProblem } from "./messages.js";
import { eventsUrl, followLink, gameUrl, navigate } from "./router.js";
import { takeSeatHere } from "./seatfollow.js";
import { heldSeat } from "./seats.js";

/** "12:05" minutes and seconds from `ms` (pure; never below zero). */
export function timeLeftText(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** The entrant's line (pure but for the language). */
export function entrantLine(entrant, event) {
  if (!entrant) return event.status === "finished" ? t("arena.over") : t("arena.notIn");
  return t(`arena.you.${entrant.status}`, { rank: formatNumber(entrant.rank || 0), points: formatNumber(entrant.points) });
}

function standingsTable(arena, me) {
  if (!arena.standings.length) return h("p.note", { dataset: { testid: "standings-empty" } }, t("arena.nobody"));
  return h(
    "table.standings.arena-standings",
    { dataset: { testid: "standings" } },
    h("caption.visually-hidden", {}, t("events.standings")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("arena.player")), h("th.num", { scope: "col" }, t("arena.points")), h("th.num", { scope: "col" }, t("arena.games")), h("th.num.ar-perf", { scope: "col" }, t("arena.performance")))),
    h(
      "tbody",
      {},
      arena.standings.map((s, row) =>
        h(
          "tr",
          { class: me && me.id === s.player_id ? "mine" : null, dataset: { testid: `standing-${row + 1}`, player: s.player_id } },
          h("td.st-rank", {}, h("span", { class: `rank-badge${s.rank <= 3 && s.games ? ` medal-${s.rank}` : ""}` }, formatNumber(s.rank))), // a medal once it has played
          h("th.st-pair", { scope: "row" }, s.kind === "bot" ? t("events.bot", { name: s.name }) : s.name, s.on_fire ? h("span.ar-fire", { title: t("arena.onFire"), "aria-label": t("arena.onFire"), dataset: { testid: "on-fire" } }, " 🔥") : null),
          h("td.num", { dataset: { testid: "points" } }, formatNumber(s.points)),
          h("td.num", {}, formatNumber(s.games)),
          h("td.num.ar-perf", {}, s.games ? formatNumber(s.performance) : "–"),
        ),
      ),
    ),
  );
}

/** The arena's page, drawn from `first` (the event as the events page read it); {stop()}. */
export function renderArena(root, eventId, first) {
  const page = { stopped: false, timer: null, clock: null };
  const me = currentPlayer();
  const head = h("header.ev-head");
  const actions = h("section.ev-actions", { "aria-live": "polite", dataset: { testid: "event-actions" } });
  const clockLine = h("p.ev-round.ar-clock", { dataset: { testid: "arena-clock" } });
  const standings = h("section.ev-standings", { "aria-labelledby": "ev-standings-title" });
  const error = h("p.error-note", { role: "alert" });
  fill(
    root,
    h(
      "div.ev-page.ev-detail",
      { dataset: { testid: "event", format: "arena" } },
      crumbs(h("a", { href: eventsUrl(), onclick: followLink }, t("events.title"))),
      h("section.panel.ev-panel", { "aria-labelledby": "ev-title" }, head, error, clockLine, actions, standings),
    ),
  );
  let shown = first;
  let entrant; // undefined until your entrant is read: then null (not in the arena) or the entrant
  let actionsKey = "";

  async function act(button, call) {
    button.disabled = true;
    try {
      await call();
      await read();
    } catch (problem) {
      showProblem(problem);
    } finally {
      button.disabled = false;
    }
  }

  function playButton(gameId, seat) {
    return h(
      "button.primary",
      {
        type: "button",
        dataset: { testid: "play-table", game: gameId },
        onclick: async (e) => {
          const button = e.currentTarget;
          button.disabled = true;
          try {
            if (!heldSeat(gameId)) await takeSeatHere(gameId, seat);
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

  function drawActions(event) {
    const key = JSON.stringify([event.status, me && me.id, entrant === undefined, entrant && entrant.status, entrant && entrant.game_id, entrant && entrant.points, entrant && entrant.rank]);
    if (key === actionsKey) return;
    actionsKey = key;
    if (me && entrant === undefined) return fill(actions, h("p.loading-note", { dataset: { testid: "your-entrant", status: "reading" } }, t("events.loading")));
    const buttons = [];
    if (me && (!entrant || entrant.status === "withdrawn") && event.status !== "finished") {
      buttons.push(h("button.primary", { type: "button", dataset: { testid: "join-arena" }, onclick: (e) => act(e.currentTarget, async () => (entrant = await api.joinArena(playerToken(), eventId))) }, t(entrant ? "arena.rejoin" : "arena.join")));
    }
    if (entrant && entrant.status === "playing") buttons.push(playButton(entrant.game_id, entrant.seat));
    if (me && event.creator === me.id && event.status === "open") {
      buttons.push(h("button.primary", { type: "button", dataset: { testid: "start-event" }, onclick: (e) => act(e.currentTarget, () => api.startEvent(playerToken(), eventId)) }, t("events.start")));
    }
    if (entrant && entrant.status === "waiting") {
      buttons.push(h("button.quiet", { type: "button", dataset: { testid: "withdraw" }, onclick: (e) => act(e.currentTarget, async () => (entrant = await api.withdrawArena(playerToken(), eventId, me.id))) }, t("events.withdraw")));
    }
    fill(
      actions,
      me ? h("p", { dataset: { testid: "your-entrant", status: entrant ? entrant.status : "out" } }, entrantLine(entrant, event)) : h("p.note", {}, t("events.needNameToJoin")),
      buttons.length ? h("div.ev-buttons", {}, buttons) : null,
    );
  }

  function drawClock(event) {
    const arena = event.arena;
    if (event.status === "open") clockLine.textContent = t("events.startsAt", { when: startWords(event) });
    else if (event.status === "finished") clockLine.textContent = t("arena.finishedLine");
    else if (arena.ends_ms - Date.now() > 0) clockLine.textContent = t("arena.timeLeft", { left: timeLeftText(arena.ends_ms - Date.now()), playing: formatNumber(arena.games_in_play), waiting: formatNumber(arena.waiting) });
    else clockLine.textContent = t("arena.lastGames", { playing: formatNumber(arena.games_in_play) });
  }

  function draw(event) {
    if (page.stopped) return;
    shown = event;
    const arena = event.arena;
    root.querySelector("[data-testid=event]").dataset.status = event.status;
    fill(head, eventHeader(event, `${t(`arena.seating.${arena.seating}`)} · ${t("arena.minutes", { count: arena.minutes })} · ${t("events.deals", { count: event.deals_per_round })}`));
    drawClock(event);
    drawActions(event);
    fill(standings, h("h2.panel-title", { id: "ev-standings-title" }, t(event.status === "finished" ? "events.finalStandings" : "events.standings")), standingsTable(arena, me));
  }

  /** Your entrant first (its read pairs and scores), then the event unless its stream brings it. */
  async function read() {
    try {
      if (me) entrant = await api.arenaEntrant(eventId, me.id).catch((problem) => (problem && problem.code === "entrant_not_found" ? null : Promise.reject(problem)));
      const event = page.streaming ? shown : await api.getEvent(eventId);
      error.textContent = "";
      draw(event);
    } catch (problem) {
      if (!page.stopped) error.textContent = describeProblem(problem);
    }
  }

  const reads = readInSight(page, read);
  page.clock = setInterval(() => shown && !page.stopped && drawClock(shown), 1000); // the time left, by the second
  page.streaming = true;
  const feed = followEvent(eventId, draw, () => (page.streaming = false));
  page.stop = () => {
    page.stopped = true;
    reads.stop();
    clearInterval(page.clock);
    feed.close();
  };
  draw(first);
  read().then(reads.tick);
  return page;
}
