// What a person at the table does besides watching (methods of game.js's Game, mixed in): a round's
// summary and review, a move, the nil exchange's choice, a hint, leaving (back to the lobby), coming
// back from away, a quick message, a rematch at the end; watching, your own seat taken to this device. Each
// request goes with the seat's token; a dead token (401) drops it.

import { api } from "./api.js";
import { h } from "./dom.js";
import { openDialog } from "./dialog.js";
import { confirmLeave } from "./gamebar.js";
import { leaveCost, ratedInPlay } from "./fairplay.js";
import { describeHint, fetchHint } from "./hint.js";
import { withPlayer } from "./identity.js";
import { clearMessage, describeProblem, showMessage, showProblem, showToast } from "./messages.js";
import { messageCodes } from "./news.js";
import { pickMessage } from "./quickmsg.js";
import { openReview } from "./review.js";
import { t } from "./i18n.js";
import { gameUrl, lobbyUrl, navigate, refresh } from "./router.js";
import { playersSeat, takeSeatHere } from "./seatfollow.js";
import { forgetSeat, keepSeat } from "./seats.js";
import { checkForUpdate, takeUpdate, updateWaiting } from "./release.js";
import { renderRoundSummary } from "./summary.js";
import { gameEnds } from "./tracking.js";

const RACE_CODES = new Set(["not_your_turn", "version_conflict"]);

/** Whether `round` ends the game: known from its scores before the game_over event arrives. */
function endsTheGame(view, round) {
  return view.phase === "game_over" || Boolean(view.winner && view.winner.length) || gameEnds(view.rules, round.scores);
}

export const actions = {
  /**
   * A round's summary (and its review from there). The table waits for it to be closed, unless the
   * tab is hidden: then the next round goes on under it, so a turn there is still announced. Going on
   * from it to the next round is where a newer client is taken (release.js); the summary says so.
   */
  async summarise(view, round) {
    this.summarised.add(round.round);
    const last = endsTheGame(view, round);
    const note = h("p.update-note", { hidden: true, dataset: { testid: "update-note" } }, t("update.atNextRound"));
    if (!last) checkForUpdate().then((waiting) => (note.hidden = !waiting));
    const closed = this.showSummary(view, round, last, note);
    if (document.hidden) return;
    await closed;
    if (!last && !this.stopped && updateWaiting()) takeUpdate();
  },

  /** The summary dialog; its review opens over it and, closed, leads back to it. The round that ends
   * the game leads to the result. */
  async showSummary(view, round, last, note) {
    const buttons = [{ label: last ? t("round.summary.result") : t("round.summary.next"), value: "next", primary: true }];
    if (this.token && (last || !ratedInPlay(view))) buttons.unshift({ label: t("round.summary.review"), value: "review" }); // none while rated
    for (;;) {
      const choice = await openDialog([note, renderRoundSummary(view, round)], { testid: "summary", label: t("round.summary.title", { round: round.round }), buttons });
      if (choice !== "review" || this.stopped) return;
      await this.review(round.round);
      if (this.stopped) return;
    }
  },

  async review(round) {
    await openReview(this.gameId, round, this.token, this.view ? this.view.rules : null);
  },

  /** A bid or a card from this seat: sent against the version shown, never while the server is out of reach
   * or the view not read again since (`unreachable`, `unread`); a lost race just refreshes. */
  async move(move, el = null) {
    if (this.pending || this.derived || !this.token || this.unreachable || this.unread) return;
    this.pending = true;
    this.hint = null;
    if (move.card && el) this.origin = { card: move.card, rect: el.getBoundingClientRect() };
    clearMessage();
    this.draw(); // at once, even over an animation: the move is on its way, nothing else can be chosen
    try {
      const view = this.received(await api.move(this.gameId, this.token, this.baseVersion, move));
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
  },

  /** Choose or put back a card for the nil exchange. */
  togglePass(card) {
    if (this.passPick.has(card)) this.passPick.delete(card);
    else if (this.passPick.size < (this.view.pass_count || 0)) this.passPick.add(card);
    this.focusNext = `card-${card}`;
    this.render();
  },

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
  },

  /** Leave the seat (a computer takes it over) and go back to the lobby. */
  async leave() {
    if (!(await confirmLeave(leaveCost(this.view)))) return;
    const seat = this.view.you;
    this.stop(); // no request with this token after it dies
    try {
      await api.leaveSeat(this.gameId, seat, this.token);
    } catch (problem) {
      if (problem.status !== 401) showProblem(problem);
    }
    forgetSeat(this.gameId);
    navigate(lobbyUrl());
  },

  /** "Take my seat here": your player's seat, played elsewhere, with a new token on this device; the page again. */
  async takeHere(button) {
    const seat = playersSeat(this.view);
    if (this.token || seat === null) return;
    button.disabled = true;
    try {
      await takeSeatHere(this.gameId, seat);
      refresh();
    } catch (problem) {
      showProblem(problem);
      button.disabled = false;
    }
  },

  lostSeat(problem) {
    if (problem.status === 401) {
      this.dropToken();
      this.follow(this.appliedSeq, (p) => showProblem(p));
      this.run(() => this.sync());
    } else {
      showProblem(problem);
    }
  },

  /** "I'm back": the seat is played by its person again. */
  async back() {
    if (!this.token || this.view.you === null) return;
    this.backPending = true;
    this.render();
    try {
      await api.backToSeat(this.gameId, this.view.you, this.token);
      showToast(t("round.back"), "top");
    } catch (problem) {
      if (problem.status === 401) this.dropToken();
      else showProblem(problem);
    } finally {
      this.backPending = false;
      await this.run(() => this.sync());
    }
  },

  /** A quick message, chosen from the picker, shown by your seat and to the table. */
  async say() {
    const code = await pickMessage(messageCodes());
    if (!code || !this.token || this.stopped) return;
    try {
      const sent = await api.sendMessage(this.gameId, this.token, code);
      const at = sent && Number.isFinite(sent.at_ms) ? sent.at_ms : `sent-${code}`;
      if (this.people.bubbles.add({ seat: this.view.you, code, at_ms: at }, performance.now())) this.render();
    } catch (problem) {
      if (problem.code === "too_many_messages" || problem.status === 429) showToast(describeProblem(problem), "top");
      else if (problem.status === 401) this.dropToken();
      else showProblem(problem);
    }
  },

  /**
   * At the end, "New game": another game with this game's rules (house rules included), you in your
   * seat, each computer at its level, the other people's seats open (the rematch keeps them). A
   * spectator goes to the lobby.
   */
  async newGame() {
    const view = this.view;
    if (view.you === null || !this.token) return navigate(lobbyUrl());
    if (this.newGamePending) return;
    this.newGamePending = true;
    this.render();
    try {
      const options = { hints: Boolean(view.options && view.options.hints) };
      for (const key of ["ai_takeover", "public", "clock"]) if (view.options && view.options[key] !== undefined) options[key] = view.options[key];
      const created = await withPlayer((playerToken) => {
        const seats = view.seats.map((seat, i) =>
          i === view.you ? { type: "human", ...(playerToken ? { player: true } : {}) } : seat.type === "ai" ? { type: "ai", level: seat.level } : { type: "open" },
        );
        return api.createGame({ rules: { ...view.rules, preset: view.rules.scoring }, seats, options }, playerToken);
      });
      keepSeat(created.game_id, view.you, created.seats[view.you].token);
      navigate(gameUrl(created.game_id));
    } catch (problem) {
      showProblem(problem);
      this.newGamePending = false;
      this.render();
    }
  },

  /** At the end: opt in to the next game with the same table, and go there. */
  async rematch() {
    if (!this.token || this.rematchPending) return;
    this.rematchPending = true;
    this.render();
    try {
      const next = await withPlayer((playerToken) => api.rematch(this.gameId, this.token, playerToken));
      keepSeat(next.game_id, next.seat, next.token);
      navigate(gameUrl(next.game_id));
    } catch (problem) {
      if (problem.status === 401) this.dropToken();
      else showProblem(problem);
      this.rematchPending = false;
      this.render();
    }
  },
};
