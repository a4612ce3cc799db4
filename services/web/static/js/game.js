// A game in the browser: the seat's view from GET /v1/games/{id}, kept current from the event
// feed (transport.js). Each event is replayed onto a copy of the view (events.js) and shown with its
// motion (motion.js) at the chosen pace; once the feed is quiet the view is read again, and only that
// authoritative view enables moves. Every change to what is shown goes through one queue (`serial`),
// in order, each animation awaited: moves that land faster than they can be shown wait their turn.

import { api } from "./api.js";
import { openDialog } from "./dialog.js";
import { fill, h, pause } from "./dom.js";
import { step } from "./events.js";
import { confirmLeave, drawGameBar } from "./gamebar.js";
import { describeHint, fetchHint } from "./hint.js";
import { clearMessage, describeProblem, showMessage, showProblem } from "./messages.js";
import { fetchRecord, renderRecord } from "./record.js";
import { openReview } from "./review.js";
import { navigate } from "./router.js";
import { forgetSeat, heldSeat, markFinished } from "./seats.js";
import { loadSettings, paceMs } from "./settings.js";
import { renderRoundSummary } from "./summary.js";
import { Stage } from "./stage.js";
import { announce, sayTurn, showConnection } from "./status.js";
import { drawGame } from "./board.js";
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
    this.origin = null; // where your last card left your hand: {card, rect}
    this.summarised = new Set(); // rounds whose summary was shown
    this.lastTrickOpen = false;
    this.passPick = new Set(); // the cards chosen for the nil exchange, not yet sent
    this.hint = null;
    this.hintPending = false;
    this.focusNext = null; // a focus key to move the focus to at the next draw (the hinted move)
    this.stage = new Stage(root, () => this.pace, () => this.dirty && this.draw());
    this.dirty = false; // a draw waits for the running animations
    sayTurn(""); // a new page says its first turn again
    this.feed = null;
    this.stopped = false;
  }

  /** Leave this page's game (the address changed): no more events, no more drawing. */
  stop() {
    this.stopped = true;
    if (this.feed) this.feed.stop();
    drawGameBar(null);
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
      const record = problem.status === 404 ? await fetchRecord(this.gameId).catch(() => null) : null;
      if (this.stopped) return;
      if (record) fill(this.root, renderRecord(record, heldSeat(this.gameId)?.seat ?? null));
      else fill(this.root, h("section.panel", {}, h("h1", {}, "Can't open this game"), h("p", {}, describeProblem(problem)), h("a.button", { href: "/play" }, "Back to the lobby")));
      return;
    }
    if (this.stopped) return;
    view.history.forEach((round) => this.summarised.add(round.round));
    this.accept(view);
    const fresh = view.phase === "bidding" && view.you !== null && view.bids[view.you] === null && view.hand && view.hand.length === 13;
    if (fresh) this.run(() => this.dealHand());
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

  /** 410 too_far_behind: read the view now and queue it behind the events already queued. */
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

  run(task) {
    this.serial = this.serial
      .then(() => (this.stopped ? undefined : task()))
      .catch((error) => {
        if (error && error.status !== undefined) showProblem(error);
        else console.error(error);
      });
    return this.serial;
  }

  /** Show a view read from the server. */
  accept(view) {
    if (this.view && view.version < this.baseVersion) return;
    if (view.phase !== "passing" || view.turn !== view.you) this.passPick.clear();
    this.view = view;
    this.baseVersion = view.version;
    this.derived = false;
    if (view.phase === "game_over") markFinished(this.gameId);
    this.draw();
  }

  /** Read the view again and show it, with the finished trick and round summary it may bring. */
  async sync() {
    const before = this.view;
    const view = await this.read();
    await this.arrive(before, view);
  }

  /** A newer server view replaces `before`: your card travels in, a trick it finished is held and swept, a finished round summarised. */
  async arrive(before, view) {
    if (view.version < this.baseVersion || this.stopped) return;
    if (before && this.derived && view.version < before.version) return; // older than the events already shown (read again once they are)
    const origin = this.origin;
    this.origin = null;
    const sameRound = before && before.round === view.round;
    const finished = sameRound && view.last_trick && view.tricks.length > before.tricks.length ? view.last_trick : null;
    const mine = (trick) => trick.find((c) => c.seat === view.you && !before.trick.some((b) => b.card === c.card));
    const played = sameRound && view.you !== null ? mine(finished ? finished.cards : view.trick) : null;
    this.shownTrick = finished;
    this.accept(view);
    if (played) await this.travelIn(played.seat, played.card, origin && origin.card === played.card ? origin.rect : null);
    if (finished) await this.holdTrick(finished);
    const round = view.history[view.history.length - 1];
    if (round && !this.summarised.has(round.round)) await this.summarise(view, round);
  }

  /** Replay queued events (and views read after a gap) one at a time, then read the view again. */
  async replay() {
    while (this.queue.length && !this.stopped) {
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
    const { view, say, needsView } = step(this.view, event);
    announce(say);
    if (needsView) {
      if (event.type === "game_over") this.show(view);
      return this.sync();
    }
    const data = event.data;
    switch (event.type) {
      case "card_played": {
        const rect = data.seat === view.you ? this.stage.handCardRect(data.card) : null;
        this.show(view);
        await this.travelIn(data.seat, data.card, rect);
        const computer = view.seats[data.seat].type === "ai" && data.seat !== view.you;
        if (computer && view.trick.length < 4) await pause(this.pace - this.stage.durations.travel);
        return;
      }
      case "trick_won":
        this.shownTrick = data.trick;
        this.show(view);
        await this.holdTrick(data.trick);
        return;
      case "round_scored":
        this.show(view);
        await this.summarise(view, data);
        return;
      case "round_started":
        this.show(view);
        await this.dealHand();
        return;
      default: {
        this.show(view);
        const computer = data.seat !== undefined && view.seats[data.seat].type === "ai" && data.seat !== view.you;
        if (computer) await pause(this.pace);
      }
    }
  }

  show(view) {
    this.view = view;
    this.derived = true;
    this.hint = null;
    this.draw();
  }

  // ---- motion -------------------------------------------------------------------

  travelIn(seat, card, from) {
    return this.stage.travelIn(seat, card, from);
  }

  /** A finished trick (already drawn as `shownTrick`) stays for a moment, then sweeps to its winner. */
  async holdTrick(trick) {
    this.shownTrick = trick;
    this.draw();
    await pause(this.pace);
    await this.stage.sweepTrick(trick);
    this.shownTrick = null;
    this.draw();
  }

  /** Your new hand dealt from the dealer's seat. */
  dealHand() {
    return this.stage.dealHand(this.view.dealer);
  }

  // ---- rounds, moves, hints -------------------------------------------------------

  async summarise(view, round) {
    this.summarised.add(round.round);
    const last = view.phase === "game_over" || (view.winner && view.winner.length);
    const buttons = [{ label: last ? "See the result" : "Next round", value: "next", primary: true }];
    if (this.token) buttons.unshift({ label: "Review this round", value: "review" });
    const choice = await openDialog(renderRoundSummary(view, round), { testid: "summary", label: `Round ${round.round} summary`, buttons });
    if (choice === "review") await this.review(round.round);
  }

  async review(round) {
    await openReview(this.gameId, round, this.token);
  }

  /** A bid or a card from this seat: sent against the version shown; a lost race just refreshes. */
  async move(move, el = null) {
    if (this.pending || this.derived || !this.token) return;
    this.pending = true;
    this.hint = null;
    if (move.card && el) this.origin = { card: move.card, rect: el.getBoundingClientRect() };
    clearMessage();
    this.draw(); // at once, even over an animation: the move is on its way, nothing else can be chosen
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

  /** Choose or put back a card for the nil exchange. */
  togglePass(card) {
    if (this.passPick.has(card)) this.passPick.delete(card);
    else if (this.passPick.size < (this.view.pass_count || 0)) this.passPick.add(card);
    this.focusNext = `card-${card}`;
    this.render();
  }

  async askHint() {
    this.hintPending = true;
    this.render();
    try {
      this.hint = describeHint(await fetchHint(this.gameId, this.token));
      this.focusNext = this.hint.focus;
    } catch (problem) {
      showProblem(problem);
    } finally {
      this.hintPending = false;
      this.render();
    }
  }

  async leave() {
    if (!(await confirmLeave())) return;
    const seat = this.view.you;
    this.stop(); // no request with this token after it dies
    try {
      await api.leaveSeat(this.gameId, seat, this.token);
    } catch (problem) {
      if (problem.status !== 401) showProblem(problem);
    }
    forgetSeat(this.gameId);
    navigate(location.pathname + location.search); // the same game, now watched
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
    if (showConnection(status) && this.view) this.run(() => this.sync());
  }

  /** Draw unless an animation is running (then once it ends). */
  render() {
    if (this.stage.busy) this.dirty = true;
    else this.draw();
  }

  draw() {
    if (!this.view || this.stopped) return;
    this.dirty = false;
    drawGame(this);
  }
}
