// A game in the browser: the seat's view from GET /v1/games/{id}, kept current from the event
// feed (transport.js). Computer moves are replayed one at a time at the chosen pace on a copy of
// the view; once the feed is quiet the view is read again, and only that authoritative view
// enables moves. Every change to what is shown goes through one queue (`serial`), in order.

import { api } from "./api.js";
import { cardName } from "./cards.js";
import { openDialog } from "./dialog.js";
import { fill, h, pause } from "./dom.js";
import { describeHint, fetchHint, hintsAllowed } from "./hint.js";
import { clearMessage, describeProblem, showMessage, showProblem } from "./messages.js";
import { navigate } from "./router.js";
import { forgetSeat, heldSeat } from "./seats.js";
import { seatName } from "./seating.js";
import { loadSettings, paceMs } from "./settings.js";
import { renderGameOver, renderRoundSummary, renderScoreHistory } from "./summary.js";
import { renderTable } from "./table.js";
import { follow } from "./transport.js";

const RACE_CODES = new Set(["not_your_turn", "version_conflict"]);

export class Game {
  constructor(root, gameId) {
    this.root = root;
    this.gameId = gameId;
    const held = heldSeat(gameId);
    this.token = held ? held.token : null;
    this.view = null;
    this.baseVersion = 0; // version of the last view read from the server
    this.appliedSeq = 0; // last event replayed onto the view
    this.derived = false; // the view has events replayed onto it: show it, but read it again before a move
    this.queue = [];
    this.serial = Promise.resolve();
    this.pending = false; // a move is in flight
    this.shownTrick = null; // a finished trick held on the table for a moment
    this.summarised = new Set(); // rounds whose summary was shown
    this.lastTrickOpen = false;
    this.hint = null;
    this.feed = null;
    this.stopped = false;
  }

  /** Leave this page's game (the address changed): no more events, no more drawing. */
  stop() {
    this.stopped = true;
    if (this.feed) this.feed.stop();
  }

  get pace() {
    return paceMs(loadSettings());
  }

  async start() {
    fill(this.root, h("p.loading", {}, "Loading the table…"));
    let view;
    try {
      view = await this.read();
    } catch (problem) {
      fill(this.root, h("section.panel", {}, h("h1", {}, "Can't open this game"), h("p", {}, describeProblem(problem)), h("a.button", { href: "/play" }, "Back to the lobby")));
      return;
    }
    if (this.stopped) return;
    view.history.forEach((round) => this.summarised.add(round.round));
    this.accept(view);
    this.appliedSeq = view.last_seq ?? 0; // the view includes every event up to its last_seq
    this.follow(this.appliedSeq, (problem) => this.lostSeat(problem));
  }

  /** Follow the game's events after `seq` with the current token (or as a spectator). */
  follow(seq, onFatal) {
    this.feed = follow(this.gameId, this.token, seq, {
      onEvents: (events) => {
        this.queue.push(...events);
        this.run(() => this.replay());
      },
      onStatus: (status) => this.connection(status),
      onFatal,
      onTooFarBehind: (problem) => this.catchUp(problem),
    });
  }

  /**
   * The feed fell behind the kept event log (410 too_far_behind): read the view now and queue it
   * behind the events already queued, so it is shown in order; following goes on after the view's
   * last_seq (or, from a server whose views have none, after the log's first kept event: replay
   * skips what the view already includes).
   */
  async catchUp(problem) {
    const view = await this.read();
    this.queue.push({ view });
    this.run(() => this.replay());
    return view.last_seq ?? Math.max(0, (problem.firstSeq ?? 1) - 1);
  }

  /** GET the view; a dead token (the seat was left elsewhere) falls back to watching. */
  async read() {
    try {
      return await api.getGame(this.gameId, this.token);
    } catch (problem) {
      if (problem.status !== 401 || !this.token) throw problem;
      this.dropToken();
      return api.getGame(this.gameId, null);
    }
  }

  dropToken() {
    forgetSeat(this.gameId);
    this.token = null;
    showMessage(describeProblem({ code: "unauthorized" }));
  }

  run(step) {
    this.serial = this.serial.then(step).catch((error) => {
      if (error && error.status !== undefined) showProblem(error);
      else console.error(error);
    });
    return this.serial;
  }

  /** Show a view read from the server. */
  accept(view) {
    if (this.view && view.version < this.baseVersion) return;
    this.view = view;
    this.baseVersion = view.version;
    this.derived = false;
    this.render();
  }

  /** Read the view again and show it, with the finished trick and round summary it may bring. */
  async sync() {
    const before = this.view;
    const view = await this.read();
    await this.arrive(before, view);
  }

  /** A newer server view replaces `before`: show a trick it finished, then a round it finished. */
  async arrive(before, view) {
    if (view.version < this.baseVersion) return;
    const sameRound = before && before.round === view.round;
    if (sameRound && view.last_trick && view.tricks.length > before.tricks.length) {
      await this.holdTrick(view.last_trick);
    }
    this.accept(view);
    const finished = view.history[view.history.length - 1];
    if (finished && !this.summarised.has(finished.round)) await this.summarise(view, finished);
  }

  /** Replay queued events (and views read after a gap) one at a time, then read the view again. */
  async replay() {
    while (this.queue.length) {
      const event = this.queue.shift();
      if (event.view) {
        await this.arrive(this.view, event.view);
        continue;
      }
      if (event.seq <= this.appliedSeq || event.version <= this.baseVersion) continue;
      this.appliedSeq = event.seq;
      await this.apply(event);
    }
    if (this.derived) await this.sync();
  }

  async apply(event) {
    const data = event.data;
    const view = structuredClone(this.view);
    view.legal = [];
    view.version = event.version;
    const computer = data.seat !== undefined && view.seats[data.seat].type === "ai" && data.seat !== view.you;
    switch (event.type) {
      case "bid":
        view.bids[data.seat] = data.bid;
        this.announce(`${seatName(data.seat)} bid ${data.bid === 0 ? "nil" : data.bid}.`);
        if (view.bids.every((b) => b !== null)) {
          view.phase = "playing";
          view.turn = view.leader = (view.dealer + 1) % 4;
        } else {
          view.turn = (data.seat + 1) % 4;
        }
        break;
      case "card_played":
        view.trick.push({ seat: data.seat, card: data.card });
        view.hand_sizes[data.seat] -= 1;
        if (view.hand && data.seat === view.you) view.hand = view.hand.filter((c) => c !== data.card);
        if (data.card[1] === "S") view.spades_broken = true;
        view.turn = view.trick.length === 4 ? null : (data.seat + 1) % 4;
        this.announce(`${seatName(data.seat)} played the ${cardName(data.card)}.`);
        break;
      case "trick_won":
        view.trick = [];
        view.last_trick = data.trick;
        view.tricks.push(data.trick);
        view.tricks_won[data.seat] += 1;
        view.turn = view.leader = data.seat;
        this.announce(`${seatName(data.seat)} won the trick.`);
        this.show(view);
        await this.holdTrick(data.trick);
        this.render();
        return;
      case "round_scored":
        view.history.push(data);
        view.scores = data.scores;
        view.bags = data.bags;
        view.turn = null;
        this.show(view);
        await this.summarise(view, data);
        return;
      case "round_started":
        if (view.you !== null && !data.hand) return this.sync();
        Object.assign(view, {
          phase: "bidding", round: data.round, dealer: data.dealer, turn: data.turn, leader: null,
          bids: [null, null, null, null], tricks_won: [0, 0, 0, 0], hand_sizes: [13, 13, 13, 13],
          trick: [], tricks: [], last_trick: null, spades_broken: false,
          hand: view.you === null ? null : data.hand,
        });
        this.announce(`Round ${data.round}: cards dealt.`);
        break;
      case "game_over":
        view.phase = "game_over";
        view.turn = null;
        view.winner = data.winner;
        view.scores = data.scores;
        this.show(view);
        return this.sync();
      default: // game_created, seat_claimed, seat_left: read the seats again
        return this.sync();
    }
    this.show(view);
    if (computer && event.type !== "round_started") await pause(this.pace);
  }

  show(view) {
    this.view = view;
    this.derived = true;
    this.hint = null;
    this.render();
  }

  async holdTrick(trick) {
    this.shownTrick = trick;
    this.render();
    await pause(this.pace * 1.5);
    this.shownTrick = null;
  }

  async summarise(view, round) {
    this.summarised.add(round.round);
    const last = view.phase === "game_over" || (view.winner && view.winner.length);
    await openDialog(renderRoundSummary(view, round), {
      testid: "summary",
      label: `Round ${round.round} summary`,
      buttons: [{ label: last ? "See the result" : "Next round", value: "next", primary: true }],
    });
  }

  /** A bid or a card from this seat: sent against the version shown; a lost race just refreshes. */
  async move(move) {
    if (this.pending || this.derived || !this.token) return;
    this.pending = true;
    this.hint = null;
    clearMessage();
    this.render();
    try {
      const view = await api.move(this.gameId, this.token, this.baseVersion, move);
      await this.run(() => this.arrive(this.view, view));
    } catch (problem) {
      if (RACE_CODES.has(problem.code)) showMessage(describeProblem(problem), "info");
      else if (problem.status === 401) this.dropToken();
      else showProblem(problem);
      await this.run(() => this.sync());
    } finally {
      this.pending = false;
      this.render();
    }
  }

  async askHint() {
    try {
      this.hint = describeHint(await fetchHint(this.gameId, this.token));
    } catch (problem) {
      showProblem(problem);
    }
    this.render();
  }

  async leave() {
    const choice = await openDialog(h("p", {}, "Leave this table? A computer player takes over your seat, and your seat's link stops working in this browser."), {
      testid: "leave",
      buttons: [{ label: "Stay", value: "stay" }, { label: "Leave", value: "leave", primary: true }],
    });
    if (choice !== "leave") return;
    try {
      await api.leaveSeat(this.gameId, this.view.you, this.token);
    } catch (problem) {
      if (problem.status !== 401) return showProblem(problem);
    }
    forgetSeat(this.gameId);
    location.reload();
  }

  lostSeat(problem) {
    if (problem.status === 401) {
      this.dropToken();
      this.follow(this.appliedSeq, (p) => showProblem(p));
      this.run(() => this.sync());
    } else {
      showProblem(problem);
    }
  }

  connection(status) {
    const el = document.getElementById("connection");
    el.dataset.state = status.state;
    if (status.state === "reconnecting") {
      const seconds = Math.max(1, Math.round(status.retryInMs / 1000));
      fill(el, `Connection lost — reconnecting (try ${status.attempt}, in ${seconds} s)`);
    } else if (status.state === "live") {
      const wasDown = el.dataset.wasDown === "yes";
      fill(el, "Live");
      if (wasDown && this.view) this.run(() => this.sync());
    } else {
      fill(el, "");
    }
    el.dataset.wasDown = status.state === "reconnecting" ? "yes" : "no";
  }

  announce(text) {
    const log = document.getElementById("announcer");
    if (log) fill(log, text);
  }

  async showScores() {
    await openDialog(renderScoreHistory(this.view), { testid: "scores", label: "Score history" });
  }

  render() {
    const view = this.view;
    if (!view || this.stopped) return;
    const focusKey = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.focusKey : null;
    const canMove = !this.derived && !this.pending && Boolean(this.token);
    const table = renderTable(view, {
      gameId: this.gameId,
      turn: view.turn,
      shownTrick: this.shownTrick,
      canMove,
      onPlay: (card) => this.move({ card }),
      onBid: (bid) => this.move({ bid }),
      hint: this.hint,
      hintsAllowed: hintsAllowed(view),
      onHint: () => this.askHint(),
      lastTrickOpen: this.lastTrickOpen,
      onToggleLastTrick: () => {
        this.lastTrickOpen = !this.lastTrickOpen;
        this.render();
      },
      onShowScores: () => this.showScores(),
      onLeave: () => this.leave(),
      gameOver: view.phase === "game_over" && !this.derived ? renderGameOver(view, { onNewGame: () => navigate(lobbyUrl()) }) : null,
    });
    fill(this.root, table);
    this.restoreFocus(focusKey, canMove && view.turn === view.you);
  }

  /** Keep keyboard focus across a re-render; on your turn, put it on a move if it was nowhere. */
  restoreFocus(focusKey, myTurn) {
    const again = focusKey && this.root.querySelector(`[data-focus-key="${focusKey}"]:not([disabled])`);
    if (again) return again.focus();
    const nowhere = document.activeElement === document.body || document.activeElement === null;
    if (myTurn && nowhere && !document.querySelector("dialog[open]")) {
      const first = this.root.querySelector(".bid-buttons button, .hand button:not([disabled])");
      if (first) first.focus({ preventScroll: true });
    }
  }
}

/** The lobby's address, keeping a ?pace= override. */
export function lobbyUrl() {
  const pace = new URLSearchParams(location.search).get("pace");
  return pace === null ? "/play" : `/play?pace=${encodeURIComponent(pace)}`;
}
