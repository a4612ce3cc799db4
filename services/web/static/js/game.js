// A game in the browser: the seat's view from GET /v1/games/{id}, kept current from the event
// feed (transport.js). Each event is replayed onto a copy of the view (events.js) and shown with its
// motion (motion.js) at the chosen pace; once the feed is quiet the view is read again, and only that
// authoritative view enables moves. Every change to what is shown goes through one queue (`serial`),
// in order, each animation awaited: moves that land faster than they can be shown wait their turn.
// With no network at the start, the table shows the seat's last view this device kept (lastview.js), no
// move allowed, until the server answers again (network.js `whenBack`): then the game starts as online.
// While the server is out of reach mid-game (network.js `onOffline`), no move is sent either: the move
// controls stay, disabled, with why, until it answers again and the view has been read again.

import { api } from "./api.js";
import { forgetTurn } from "./attention.js";
import { fill, h, pause } from "./dom.js";
import { t } from "./i18n.js";
import { step } from "./events.js";
import { actions } from "./gameactions.js";
import { drawGameBar } from "./gamebar.js";
import { describeProblem, showMessage, showProblem, showToast } from "./messages.js";
import { messageText, seatNews } from "./news.js";
import { keepView, lastView } from "./lastview.js";
import { isOffline, onOffline, whenBack } from "./network.js";
import { People } from "./people.js";
import { fetchRecord, renderRecord } from "./record.js";
import { forgetSeat, heldSeat, markFinished } from "./seats.js";
import { seatName } from "./seating.js";
import { handOff, playersSeat, seatLostKey } from "./seatfollow.js";
import { loadSettings, paceMs } from "./settings.js";
import { Stage } from "./stage.js";
import { announce, sayTurn, showConnection } from "./status.js";
import { drawGame } from "./board.js";
import { stopLife } from "./tablelife.js";
import { follow } from "./transport.js";

/** Your card (`you`: your seat, null watching) among `cards` that `before`'s trick did not show yet: it
 * travels in from your hand. */
function yourNewCard(before, you, cards) {
  if (you === null) return null;
  return cards.find((c) => c.seat === you && !before.trick.some((b) => b.card === c.card)) || null;
}

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
    this.kept = false; // the view shown is the one kept on this device, shown with no network
    this.untilBack = null; // takes back the start again that network.js makes once the server answers
    this.people = new People(); // clocks, presence, quick messages, a rematch offered (people.js)
    this.unreachable = isOffline(); // the server is out of reach (network.js): no move can be sent
    this.unread = this.unreachable; // it was out of reach since the last view read from it: read it before a move
    this.unhear = onOffline((offline) => this.network(offline));
    this.handedOff = null; // how this seat (or, watching, the player's seat) was last handed on (seatfollow.js)
  }

  /** Leave this page's game (the address changed): no more events, no more drawing. */
  stop() {
    this.stopped = true;
    if (this.feed) this.feed.stop();
    if (this.untilBack) this.untilBack();
    this.unhear();
    stopLife(this);
    forgetTurn();
    drawGameBar(null);
  }

  /** The pause between computer moves; none while the tab is hidden (nobody watches: your turn comes at once). */
  get pace() {
    return document.hidden ? 0 : paceMs(loadSettings());
  }

  async start() {
    if (!this.view) fill(this.root, h("p.loading", {}, t("round.game.loading")));
    let view;
    try {
      view = await this.read();
    } catch (problem) {
      if (problem.status === 0 && !this.stopped) return this.offline();
      const record = problem.status === 404 ? await fetchRecord(this.gameId).catch(() => null) : null;
      if (this.stopped) return;
      if (record) fill(this.root, renderRecord(record, heldSeat(this.gameId)?.seat ?? null));
      else fill(this.root, h("section.panel", {}, h("h1", {}, t("round.game.cantOpen")), h("p", {}, describeProblem(problem)), h("a.button", { href: "/play" }, t("round.game.backToLobby"))));
      return;
    }
    if (this.stopped) return;
    this.kept = false;
    view.history.forEach((round) => this.summarised.add(round.round));
    this.accept(view);
    const fresh = view.phase === "bidding" && view.you !== null && view.bids[view.you] === null && view.hand && view.hand.length === 13;
    if (fresh) this.run(() => this.dealHand());
    this.appliedSeq = view.last_seq ?? 0; // the view includes every event up to its last_seq
    this.follow(this.appliedSeq, (problem) => this.lostSeat(problem));
  }

  /** No network to start with: the seat's last view kept on this device (reconnecting, no move), else a
   * plain word that the game opens once the network is back; started again once the server answers. */
  offline() {
    this.untilBack = whenBack(() => this.start());
    const held = heldSeat(this.gameId);
    const kept = held && held.token === this.token ? lastView(this.gameId, held.seat) : null;
    if (this.view || kept) {
      this.kept = true;
      this.view ||= kept;
      this.derived = true; // shown, never moved from: the server's view comes first
      this.draw();
      return;
    }
    const words = [h("h1", {}, t("offline.gameTitle")), h("p", {}, t("offline.gameOpens")), h("a.button", { href: "/play" }, t("round.game.backToLobby"))];
    fill(this.root, h("section.panel", { dataset: { testid: "game-offline" } }, words));
  }

  /** Follow the game's events after `seq` with the current token (or as a spectator). */
  follow(seq, onFatal) {
    this.feed = follow(this.gameId, this.token, seq, {
      onEvents: (events) => {
        const seat = this.token && this.view ? this.view.you : playersSeat(this.view);
        for (const event of events) this.handedOff = handOff(event, seat) || this.handedOff; // said when the token drops
        this.people.fromEvents(events, performance.now());
        this.queue.push(...events);
        this.run(() => this.replay());
      },
      onStatus: (status) => this.connection(status),
      onFatal,
      onTooFarBehind: (problem) => this.catchUp(problem),
      onFrame: (name, data) => this.frame(name, data),
    });
  }

  /** A stream frame outside the log (presence, a quick message): shown at once, out of the queue. */
  frame(name, data) {
    if (!this.people.fromFrame(name, data, performance.now()) || this.stopped) return;
    if (name === "message") announce(`${seatName(data.seat)}: ${messageText(data.code)}`);
    this.render();
  }

  /** A view as it arrives from the server: its server time, clock, presence and messages noted. */
  received(view) {
    this.people.fromView(view, performance.now());
    return view;
  }

  /** 410 too_far_behind: read the view now and queue it behind the events already queued. */
  async catchUp(problem) {
    const view = await this.read();
    this.queue.push({ view });
    this.run(() => this.replay());
    return view.last_seq ?? Math.max(0, (problem.firstSeq ?? 1) - 1);
  }

  /** GET the view; a dead token (the seat was left, taken to another device, released) falls back to watching. */
  async read() {
    const token = this.token;
    try {
      return this.received(await api.getGame(this.gameId, token));
    } catch (problem) {
      if (problem.status !== 401 || !token) throw problem;
      const held = heldSeat(this.gameId);
      const view = this.received(await api.getGame(this.gameId, null));
      this.dropToken(Boolean(held) && playersSeat(view) === held.seat); // still your player's seat
      return view;
    }
  }

  /** The token died: watch, and say why, once (`ours`: the seat is still this device's player's: taken to
   * another device, or released when the credential that took it died, this device's maybe). */
  dropToken(ours = this.handedOff !== null) {
    if (!this.token) return; // dropped already, and said
    forgetSeat(this.gameId);
    this.token = null;
    if (!ours) return showMessage(describeProblem({ code: "unauthorized" }));
    return seatLostKey(this.handedOff).then((key) => {
      if (this.stopped) return;
      showMessage(t(key));
      this.render(); // the offer to take the seat here, as this device's player now is
    });
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
    this.unread = false;
    if (view.phase === "game_over") markFinished(this.gameId); // and its kept view forgotten (seats.js)
    else if (this.token && heldSeat(this.gameId)?.token === this.token) keepView(this.gameId, view.you, view);
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
    const endedFirst = before && view.round > before.round ? await this.endRound(before, view, origin) : false;
    const sameRound = before && before.round === view.round;
    const finished = sameRound && view.last_trick && view.tricks.length > before.tricks.length ? view.last_trick : null;
    const played = sameRound ? yourNewCard(before, view.you, finished ? finished.cards : view.trick) : null;
    this.shownTrick = finished;
    this.accept(view);
    if (played) await this.travelIn(played.seat, played.card, origin && origin.card === played.card ? origin.rect : null);
    if (finished) await this.holdTrick(finished);
    const round = view.history[view.history.length - 1];
    if (round && !this.summarised.has(round.round)) await this.summarise(view, round);
    if (endedFirst && view.phase === "bidding" && view.hand && view.hand.length === 13 && view.trick.length === 0) await this.dealHand();
  }

  /**
   * `view` is of a later round than `before` (read after a gap in the events, or after they ran ahead): the
   * round `before` showed ends first as its events would have shown it — its last trick when `before` was
   * in it, the emptied hand, its summary — before the next deal. True if it was shown.
   */
  async endRound(before, view, origin) {
    const round = view.history.find((r) => r.round === before.round);
    if (!round || this.summarised.has(round.round)) return false;
    const total = round.tricks_won.reduce((sum, won) => sum + won, 0);
    const last = view.round === before.round + 1 && view.tricks.length === 0 ? view.last_trick : null; // else not in the view
    const inIt = last && before.phase === "playing" && before.tricks.length === total - 1 && before.trick.every((c, i) => last.cards[i] && last.cards[i].card === c.card);
    const finished = inIt ? last : null; // the trick `before` was in, now complete
    const ended = structuredClone(before);
    Object.assign(ended, {
      turn: null, legal: [], trick: [], hand: before.hand && [], hand_sizes: [0, 0, 0, 0],
      bids: round.bids, tricks_won: round.tricks_won, scores: round.scores, bags: round.bags,
      history: view.history.filter((r) => r.round <= round.round),
    });
    if (finished) Object.assign(ended, { tricks: [...before.tricks, finished], last_trick: finished });
    const played = finished ? yourNewCard(before, view.you, finished.cards) : null;
    this.shownTrick = finished;
    this.show(ended);
    if (played) await this.travelIn(played.seat, played.card, origin && origin.card === played.card ? origin.rect : null);
    if (finished) await this.holdTrick(finished);
    await this.summarise(ended, round);
    return true;
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
    const news = seatNews(this.view, event);
    if (news) showToast(news, "top");
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
        // turn_clock's seat is null while nobody's clock runs; other entries name no seat at all
        const seat = view.seats[data.seat ?? -1];
        const computer = seat !== undefined && seat.type === "ai" && data.seat !== view.you;
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
    await this.stage.sweepTrick(trick); // held 1.5× the pace, then swept (stage.js)
    this.shownTrick = null;
    this.draw();
  }

  /** Your new hand dealt from the dealer's seat. */
  dealHand() {
    return this.stage.dealHand(this.view.dealer);
  }

  connection(status) {
    // the feed down while the browser has a network: the service is out of reach, and its outage is not the
    // player's time (the clock stands still until the service, back, says how much it gave back)
    const online = typeof navigator === "undefined" || navigator.onLine !== false;
    this.people.interrupted(status.state === "reconnecting" && online, performance.now());
    if (showConnection(status) && this.view) this.run(() => this.sync());
    else this.render();
  }

  /** network.js: the server out of reach (`offline`: the move controls wait, board.js), or answering again:
   * the view is read again before a move (a game started offline starts itself: `whenBack`). */
  network(offline) {
    this.unreachable = offline;
    this.unread ||= offline;
    if (!offline && this.unread && this.view && !this.kept) this.run(() => this.sync());
    else this.render();
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

Object.assign(Game.prototype, actions); // moves, leaving, back, quick messages, rematch (gameactions.js)
