// A recorded game stepped through move by move (#/replay/<game>[?seat=n]): the deal, every bid, the
// nil exchange's passes, every card, each round's score. The table is drawn with the game's own
// modules (scoreboard.js, felt.js) from the state replaysteps.js computes; it shows the game as one
// seat saw it (its hand, the others face down) or every hand (the game is over, its deals public).
// Previous and Next (and the arrow keys), a trick at a time (Page Up / Page Down), a slider over
// the whole game and a round picker move through it.

import { api } from "./api.js";
import { cardName, sortHand } from "./cards.js";
import { openDialog } from "./dialog.js";
import { fill, h } from "./dom.js";
import { cardFace, seatPanel, trickArea } from "./felt.js";
import { formatDate, formatNumber, t } from "./i18n.js";
import { currentPlayer } from "./identity.js";
import { describeProblem } from "./messages.js";
import { computerName, formatChange, ratingMark, tParts } from "./playertext.js";
import { recordView } from "./record.js";
import { replaySteps, roundStarts, stepWords, tableAt, trickBounds } from "./replaysteps.js";
import { followLink, gameUrl, lobbyUrl, profileUrl } from "./router.js";
import { scoreboard } from "./scoreboard.js";
import { seatName } from "./seating.js";
import { renderRoundSummary, winnerText } from "./summary.js";
import { contractOf } from "./tracking.js";

/** The seats as the table modules read them, with each one's player (names at read time: `record.players`). */
function recordSeats(record) {
  return record.seats.map((s) => ({ seat: s.seat, type: s.type, level: s.level, player: (record.players || [])[s.seat] || null }));
}

/** Who sat there: "Ada" (a named person or bot), "Computer · hard", "Player" (a person without a name). */
function playerName(record, seat) {
  const player = (record.players || [])[seat];
  if (player && player.name && player.kind !== "computer") return player.name;
  const info = record.seats[seat];
  if (info.type === "ai") return computerName(info.level || (player && player.name) || "");
  return t(info.type === "human" ? "players.seat.player" : "players.seat.open");
}

/** A seat in the moves' words: a named person or bot by name, anyone else by the compass. */
function moverName(record, seat) {
  const player = (record.players || [])[seat];
  return player && player.name && player.kind !== "computer" ? player.name : seatName(seat);
}

/** The view scoreboard.js and felt.js draw, for the table after a step. */
export function replayView(record, table, viewer) {
  const view = {
    phase: { dealt: "bidding", scored: "playing" }[table.phase] || table.phase,
    you: viewer,
    rules: record.rules,
    seats: recordSeats(record),
    round: table.roundNo,
    dealer: table.dealer,
    bids: table.bids,
    blind: table.blind,
    tricks_won: table.tricksWon,
    hand_sizes: viewer === null ? [0, 0, 0, 0] : table.handSizes, // every hand is drawn below the felt instead
    trick: table.trick,
    scores: table.scores,
    bags: table.bags,
    turn: table.turn,
    // the seat shown at the bottom is "you" only when it is this browser's player
    notYou: viewer !== null && !(currentPlayer() && ((record.players || [])[viewer] || {}).id === currentPlayer().id),
  };
  if (table.phase === "scored") {
    // the scoreboard adds this round's overtricks to `bags`: give it the bags before them, so it shows the round's
    view.bags = table.bags.map((b, side) => b - contractOf(view, side).overtricks);
  }
  return view;
}

function seatLabel(record, seat) {
  return `${seatName(seat)} · ${playerName(record, seat)}`;
}

/** Every hand (the viewer null), in rows of small cards; the card played next ringed. */
function allHands(record, table, next) {
  const upcoming = next && next.round === table.step.round && next.kind === "card" ? next.card : null;
  return h(
    "div.replay-hands",
    { dataset: { testid: "replay-hands" } },
    [0, 1, 2, 3].map((seat) =>
      h(
        "div",
        { class: `replay-hand${table.turn === seat ? " is-turn" : ""}`, role: "group", "aria-label": t("players.replay.handLabel", { seat: seatLabel(record, seat), count: table.hands[seat].length }), dataset: { testid: `replay-hand-${seat}`, count: String(table.hands[seat].length) } },
        h("div.replay-hand-name", {}, h("strong", {}, seatName(seat)), ` · ${playerName(record, seat)}`),
        h(
          "div.replay-hand-cards",
          {},
          table.hands[seat].length
            ? sortHand(table.hands[seat], record.rules).map((c) => cardFace(c, { extraClass: `mini${c === upcoming ? " upcoming" : ""}`, highDeuce: record.rules.deuces_high, label: c === upcoming ? t("players.replay.playedNext", { card: cardName(c) }) : cardName(c) }))
            : h("span.replay-empty", {}, t("players.replay.noCards")),
        ),
      ),
    ),
  );
}

/** One seat's hand, face up at the bottom as at the table (not playable). */
function seatHand(record, table, seat) {
  const cards = sortHand(table.hands[seat], record.rules);
  return h(
    "div.hand.replay-own",
    { role: "group", "aria-label": t("players.replay.ownHandLabel", { seat: seatName(seat), count: cards.length }), dataset: { testid: "replay-own-hand", count: String(cards.length) } },
    cards.map((c) => h("div.slot", {}, cardFace(c, { highDeuce: record.rules.deuces_high }))),
  );
}

/** The round's points over the felt at its end, with the whole summary a click away. */
function scoredPanel(record, table, viewer) {
  const view = recordView(record, viewer);
  const sides = table.round.points.map((points, side) => {
    const names = record.rules.scoring === "partnership" ? t("players.replay.team", { a: seatName(side), b: seatName(side + 2) }) : seatName(side);
    return h("li", {}, h("span.rs-side", {}, names), " ", h("strong", {}, formatChange(points)), h("span.rs-total", {}, ` → ${formatNumber(table.round.scores[side])}`));
  });
  return h(
    "section.overlay-panel.replay-scored",
    { "aria-labelledby": "replay-scored-title", dataset: { testid: "replay-scored" } },
    h("h2.panel-title", { id: "replay-scored-title" }, t("players.replay.scored", { round: table.roundNo })),
    h("ul.rs-list", {}, sides),
    h("button.small", { type: "button", dataset: { testid: "replay-summary" }, onclick: () => openDialog(renderRoundSummary(view, table.round), { testid: "summary", label: t("players.replay.summaryOf", { round: table.roundNo }), wide: true }) }, t("players.replay.summary")),
  );
}

function drawTable(host, record, steps, index, viewer) {
  const table = tableAt(record, steps, index);
  const view = replayView(record, table, viewer);
  const shown = { cards: table.trick, winner: table.trickWinner };
  const words = stepWords(table.step, { name: (s) => moverName(record, s), cardName, viewer });
  fill(
    host,
    h(
      "div",
      { class: `replay-table${viewer === null ? " all-hands" : ""}`, dataset: { testid: "replay-table", step: String(index), round: String(table.roundNo), phase: table.phase } },
      scoreboard(view),
      h("div.status-row", {}, h("div.turn-banner.replay-move", { dataset: { testid: "replay-move" } }, t("players.replay.move", { round: table.roundNo, move: words }))),
      h(
        "div.felt",
        { dataset: { testid: "felt" } },
        [0, 1, 2, 3].map((seat) => seatPanel(view, seat, table.turn, null)),
        trickArea(view, shown),
        table.phase === "scored" ? scoredPanel(record, table, viewer) : null,
      ),
      viewer === null ? allHands(record, table, steps[index + 1]) : seatHand(record, table, viewer),
    ),
  );
  return words;
}

function choice(id, label, options, value, onchange) {
  return h(
    "div.replay-choice",
    {},
    h("label", { for: id }, label),
    h("select", { id, dataset: { testid: id }, onchange: (e) => onchange(e.currentTarget.value) }, options.map(([v, text]) => h("option", { value: String(v), selected: String(v) === String(value) }, text))),
  );
}

function playersList(record) {
  const ratings = new Map((record.ratings || []).map((r) => [r.seat, r]));
  return h(
    "ul.replay-players",
    { dataset: { testid: "replay-players" } },
    [0, 1, 2, 3].map((seat) => {
      const player = (record.players || [])[seat];
      const rating = ratings.get(seat);
      const won = record.seats[seat].won;
      return h(
        "li",
        { class: won ? "won" : null, dataset: { testid: `replay-player-${seat}` } },
        h("span.rp-seat", {}, seatName(seat)),
        player && player.id ? h("a.rp-name", { href: profileUrl(player.id), onclick: followLink }, playerName(record, seat)) : h("span.rp-name", {}, playerName(record, seat)),
        rating || won
          ? h(
              "span.rp-detail",
              {},
              rating ? [...tParts("players.replay.ratingAfter", {}, { rating: ratingMark(rating.after, rating.provisional, "strong") }), " ", h("span", { class: `rp-change ${rating.change > 0 ? "up" : rating.change < 0 ? "down" : "same"}` }, formatChange(rating.change))] : null,
              rating && won ? " · " : null,
              won ? h("span.rp-won", {}, t("players.replay.won")) : null,
            )
          : null,
      );
    }),
  );
}

/** The replay page; {stop()}. */
export function renderReplay(root, gameId, seat = null) {
  const page = {
    stopped: false,
    keys: null, // the keys' listener on the document while the page is shown
    stop() {
      page.stopped = true;
      if (page.keys) document.removeEventListener("keydown", page.keys);
    },
  };
  fill(root, h("p.loading", {}, t("players.replay.loading")));
  api.getRecord(gameId).then(
    (record) => page.stopped || build(root, record, seat, page),
    (problem) => {
      if (page.stopped) return;
      const live = problem.status === 409;
      fill(
        root,
        h(
          "section.panel.replay-missing",
          { dataset: { testid: "replay-missing" } },
          h("h1", {}, t(live ? "players.replay.live" : "players.replay.failed")),
          h("p", {}, live ? t("players.replay.liveHelp") : describeProblem(problem)),
          live ? h("a.button.primary", { href: gameUrl(gameId), onclick: followLink }, t("players.replay.watch")) : null,
          " ",
          h("a.button", { href: lobbyUrl(), onclick: followLink }, t("players.backToLobby")),
        ),
      );
    },
  );
  return page;
}

function build(root, record, seat, page) {
  if (!record.rounds.length) {
    fill(root, h("section.panel.replay-missing", { dataset: { testid: "replay-missing" } }, h("h1", {}, t("players.replay.nothing")), h("p", {}, t("players.replay.nothingHelp")), h("a.button", { href: lobbyUrl(), onclick: followLink }, t("players.backToLobby"))));
    return;
  }
  const steps = replaySteps(record);
  const starts = roundStarts(steps);
  let index = 0;
  let viewer = seat;
  const host = h("div.replay-host");
  const said = h("p.visually-hidden", { "aria-live": "polite", dataset: { testid: "replay-said" } });
  const slider = h("input.replay-slider", {
    id: "replay-slider", type: "range", min: "0", max: String(steps.length - 1), value: "0", step: "1", dataset: { testid: "replay-slider" },
    oninput: (e) => go(Number(e.currentTarget.value), false),
  });
  const position = h("span.replay-position", { dataset: { testid: "replay-position" } });
  // a trick's buttons show "Trick" and are named "Previous trick", "Next trick" (the name holds what shows)
  const button = (testid, text, label, onclick, extra = "") => h(`button.replay-step${extra}`, { type: "button", "aria-label": label, dataset: { testid }, onclick }, text);
  const prevTrick = button("replay-prev-trick", t("players.replay.trick"), t("players.replay.prevTrick"), () => go(trickBounds(steps, index)[0]));
  const prev = button("replay-prev", t("players.replay.back"), null, () => go(index - 1));
  const next = button("replay-next", t("players.replay.next"), null, () => go(index + 1), ".primary");
  const nextTrick = button("replay-next-trick", t("players.replay.trick"), t("players.replay.nextTrick"), () => go(trickBounds(steps, index)[1]));
  prevTrick.prepend(h("span.step-icon", { "aria-hidden": "true" }, "« "));
  prev.prepend(h("span.step-icon", { "aria-hidden": "true" }, "◀ "));
  next.append(h("span.step-icon", { "aria-hidden": "true" }, " ▶"));
  nextTrick.append(h("span.step-icon", { "aria-hidden": "true" }, " »"));
  const roundPick = choice("replay-round", t("players.replay.round"), record.rounds.map((r, i) => [starts[i], t("players.replay.roundNo", { round: r.round })]), 0, (v) => go(Number(v)));
  const seatPick = choice(
    "replay-seat",
    t("players.replay.show"),
    [["all", t("players.replay.everyHand")], ...[0, 1, 2, 3].map((s) => [s, t("players.replay.asSeat", { seat: seatLabel(record, s) })])],
    viewer === null ? "all" : viewer,
    (v) => {
      viewer = v === "all" ? null : Number(v);
      history.replaceState(null, "", `${location.pathname}${location.search}#/replay/${encodeURIComponent(record.game_id)}${viewer === null ? "" : `?seat=${viewer}`}`);
      go(index, false);
    },
  );
  const view = recordView(record, null);
  const result = record.outcome === "finished" ? winnerText(view) : t("players.replay.abandoned");
  const side = h(
    "aside.panel.replay-side",
    { "aria-label": t("players.replay.theGame") },
    h("h1", {}, t("players.replay")),
    h("p.replay-result", { dataset: { testid: "replay-result" } }, result.replace(/^./, (c) => c.toUpperCase())),
    h(
      "p.note",
      {},
      [
        t(`players.replay.to.${record.rules.scoring === "partnership" ? "partnership" : "individual"}`, { score: record.rules.win_score }),
        record.rules.deals ? t("lobby.house.deals", { count: record.rules.deals }) : null, // an event's table: its deals
        formatDate(record.ended_at, { dateStyle: "medium", timeStyle: "short" }),
        record.rated ? t("players.replay.rated") : null,
      ].filter(Boolean).join(" · "),
    ),
    playersList(record),
  );
  const picks = h("section.panel.replay-picks", { "aria-label": t("players.replay.picks") }, seatPick, roundPick);
  const controls = h(
    "section.panel.replay-controls",
    { "aria-label": t("players.replay.controls"), dataset: { testid: "replay-controls" } },
    h("div.replay-slide", {}, h("label.visually-hidden", { for: "replay-slider" }, t("players.replay.slider")), slider, position),
    h("div.replay-buttons", {}, prevTrick, prev, next, nextTrick),
    h("p.replay-keys", {}, t("players.replay.keys")),
    said,
  );
  const go = (k, focusSlider = false) => {
    index = Math.max(0, Math.min(steps.length - 1, k));
    const words = drawTable(host, record, steps, index, viewer);
    slider.value = String(index);
    slider.setAttribute("aria-valuetext", t("players.replay.position", { n: index + 1, total: steps.length, round: tableAt(record, steps, index).roundNo, move: words }));
    position.textContent = `${formatNumber(index + 1)} / ${formatNumber(steps.length)}`;
    said.textContent = words;
    roundPick.querySelector("select").value = String(starts[steps[index].round]);
    prev.disabled = prevTrick.disabled = index === 0;
    next.disabled = nextTrick.disabled = index === steps.length - 1;
    if (focusSlider) slider.focus();
  };
  // the keys anywhere on the page (a redraw may have taken the focused button away), except in the
  // controls with keys of their own and in a dialog over the page
  page.keys = (event) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target instanceof Element && event.target.closest("select, input, textarea, dialog")) return;
    if (document.querySelector("dialog[open]")) return;
    const keys = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: steps.length - 1, PageUp: trickBounds(steps, index)[0], PageDown: trickBounds(steps, index)[1] };
    if (!(event.key in keys)) return;
    event.preventDefault();
    go(keys[event.key]);
  };
  document.addEventListener("keydown", page.keys);
  const pageEl = h(
    "div.replay-page",
    { dataset: { testid: "replay" } },
    picks,
    host,
    controls,
    side,
  );
  fill(root, pageEl);
  go(0);
  next.focus({ preventScroll: true }); // the arrow keys work from the start
}
