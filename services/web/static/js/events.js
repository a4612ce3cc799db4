// One event of the game's log applied to a copy of the seat's view (pure: no DOM, no server), so
// the page can show each computer move as it lands. A replayed view has no `legal` moves: only a
// view read from the server enables moves (game.js reads it again once the feed is quiet).
//
// step(view, event) → {view, say, needsView}: the next view, a sentence for screen readers, and
// whether only the server's view can show what changed (seats claimed or left, a round dealt to a
// spectator's copy without a hand, a type with no step here: the view read again is right for any).

import { cardName, suitOf } from "./cards.js";
import { mergeClock } from "./clock.js";
import { t } from "./i18n.js";
import { personAt, seatName } from "./seating.js";

/** "South bid 3.", "South bid blind nil." */
function bidSaid(data) {
  const key = data.blind ? (data.bid === 0 ? "table.said.bidBlindNil" : "table.said.bidBlind") : data.bid === 0 ? "table.said.bidNil" : "table.said.bid";
  return t(key, { seat: seatName(data.seat), bid: data.bid });
}

export function step(before, event) {
  const data = event.data;
  const view = structuredClone(before);
  view.legal = [];
  view.version = event.version;
  if (event.clock !== undefined) view.clock = event.clock && mergeClock(view.clock, event.clock);
  switch (event.type) {
    case "bid":
      view.bids[data.seat] = data.bid;
      if (data.blind && view.blind) view.blind[data.seat] = true;
      if (view.bids.every((b) => b !== null) && view.pass_count) {
        // a nil exchange may follow (or not): only the server's view knows who passes
        return { view, say: bidSaid(data), needsView: true };
      }
      if (view.bids.every((b) => b !== null)) {
        view.phase = "playing";
        view.turn = view.leader = (view.dealer + 1) % 4;
      } else {
        view.turn = (data.seat + 1) % 4;
      }
      return { view, say: bidSaid(data) };
    case "card_played":
      view.trick.push({ seat: data.seat, card: data.card });
      view.hand_sizes[data.seat] -= 1;
      if (view.hand && data.seat === view.you) view.hand = view.hand.filter((c) => c !== data.card);
      view.turn = view.trick.length === 4 ? null : (data.seat + 1) % 4;
      return { view, say: t("table.said.played", { seat: seatName(data.seat), card: cardName(data.card) }) };
    case "trick_won":
      view.trick = [];
      view.last_trick = data.trick;
      view.tricks.push(data.trick);
      view.tricks_won[data.seat] += 1;
      if (data.trick.cards.some((c) => suitOf(c.card) === "S")) view.spades_broken = true;
      view.turn = view.leader = data.seat;
      return { view, say: t("table.said.won", { seat: seatName(data.seat) }) };
    case "round_scored":
      view.history.push(data);
      view.scores = data.scores;
      view.bags = data.bags;
      view.turn = null;
      return { view, say: t("table.said.roundOver", { round: data.round }) };
    case "round_started":
      // a hidden hand (a blind decision to come) or none: only the server's view shows the seat's state
      if (view.you !== null && (!data.hand || (data.hidden || []).length)) return { view: before, say: "", needsView: true };
      Object.assign(view, {
        phase: "bidding", round: data.round, dealer: data.dealer, turn: data.turn, leader: null,
        bids: [null, null, null, null], tricks_won: [0, 0, 0, 0], hand_sizes: [13, 13, 13, 13],
        trick: [], tricks: [], spades_broken: false, // last_trick stays: the previous round's last, until this round has one
        hand: view.you === null ? null : data.hand,
      });
      return { view, say: t("table.said.dealt", { round: data.round, seat: seatName(data.turn) }) };
    case "hand_shown":
      return { view: before, say: "", needsView: true };
    case "cards_passed":
      return { view: before, say: t("table.said.passed", { seat: seatName(data.seat), count: data.count, to: seatName(data.to) }), needsView: true };
    case "exchange_done":
      return { view: before, say: t("table.said.exchanged"), needsView: true };
    case "game_over":
      view.phase = "game_over";
      view.turn = null;
      view.winner = data.winner;
      view.scores = data.scores;
      return { view, say: t("table.said.over"), needsView: true };
    case "clock_credited": // the service's outage given back: turn_clock with the later deadline follows
      return { view, say: t("table.said.clockCredited", { seat: seatName(data.seat), count: Math.round(data.given_ms / 1000) }) };
    case "turn_timed_out": // the move the computer made for the seat follows in the same commit
      return { view, say: t("table.said.timedOut", { seat: seatName(data.seat) }) };
    case "seat_away":
    case "seat_back": {
      const away = event.type === "seat_away";
      if (view.clock && view.clock.away) view.clock.away[data.seat] = away;
      return { view, say: t(away ? "table.said.away" : "table.said.back", { seat: seatName(data.seat) }) };
    }
    case "turn_clock": {
      const { server_time_ms: _time, ...update } = data;
      view.clock = mergeClock(view.clock, update);
      return { view, say: "" };
    }
    case "rematch_offered":
      view.rematch = { game_id: data.game_id };
      return { view, say: Number.isInteger(data.seat) ? t("table.said.rematch", { seat: personAt(view, data.seat) }) : t("table.said.rematchAnyone") };
    default: // the seats changed (event_types.py: seats), or a type with no step here: read the view again
      return { view: before, say: "", needsView: true };
  }
}
