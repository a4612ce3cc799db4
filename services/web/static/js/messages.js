// Every problem+json the server answers, as a sentence a player can read; shown in one live region.

import { fill, h } from "./dom.js";

const REASONS = {
  must_follow_suit: "You must follow the suit that was led.",
  spades_not_broken: "Spades can't be led until they have been broken (unless you hold only spades).",
  card_not_in_hand: "That card is not in your hand.",
  bid_out_of_range: "Bids go from 0 (nil) to 13.",
  team_bid_too_low: "Your team's bids together must reach the table's minimum (or bid nil).",
  team_bid_too_high: "Your team's bids together would exceed the table's maximum.",
  nil_not_allowed: "Nil bids are not allowed at this table.",
  wrong_phase: "That move doesn't fit this part of the round.",
  game_over: "The game is over.",
  not_your_turn: "It's not your turn.",
};

const CODES = {
  network: "The server can't be reached. Check your connection.",
  not_your_turn: "It isn't your turn any more — the table has been refreshed.",
  version_conflict: "The table changed before your move arrived — here is the latest.",
  seat_taken: "Someone else has already taken that seat.",
  waiting_for_players: "Waiting for every seat to be filled before play can start.",
  game_over: "This game is over; its seats can no longer be claimed.",
  not_found: "That game doesn't exist (games expire after a week without moves).",
  unauthorized: "This browser's seat in the game is no longer valid; you are watching as a spectator.",
  forbidden: "That seat belongs to someone else.",
  rate_limited: "Too many requests — slow down a moment.",
  create_rate_limited: "Too many new games from here just now: try again in a minute.",
  too_many_games: "You have as many games in play as one player may: finish or leave one first.",
  too_many_computer_games: "You have as many computer-only games running as one player may: let one finish first.",
  too_many_waiting: "Too many tables are open from here at once: close one and this one reconnects.",
  unavailable: "The game service is briefly unavailable. Trying again shortly.",
  hints_disabled: "Hints are turned off for this game.",
  hint_unavailable: "No hint right now: the computer players are busy. Try again in a moment.",
  review_unavailable: "The review isn't ready: the computer players are busy. Try again in a moment.",
  round_not_finished: "That round is still being played; it can be reviewed once it is over.",
  internal_error: "The server had a problem. Please try again.",
  too_many_messages: "One quick message at a time: wait a moment before the next.",
  too_many_matches: "You already have quick match requests waiting: cancel one first.",
  already_seated: "The quick match has already found your seat.",
  seat_reserved: "That seat is kept for a player of the last game for a few more seconds.",
  invalid_rejoin_code: "That rejoin code doesn't work: it may be mistyped, used, or replaced by a newer one.",
  rejoin_rate_limited: "Too many wrong rejoin codes from here: wait a minute and try again.",
  game_in_play: "The game isn't over yet.",
  player_seated: "Your name already holds a seat at this table: one seat per player.",
  player_token_invalid: "This browser's name is no longer known to the server.",
  player_not_found: "No such player: the name may have been deleted.",
  name_taken: "Someone already plays under that name: try another.",
  player_create_rate_limited: "Too many new names from here just now: try again in a minute.",
};

/** A readable sentence for an ApiProblem (or any error). */
export function describeProblem(problem) {
  if (problem.code === "illegal_move" && REASONS[problem.reason]) return REASONS[problem.reason];
  if (problem.code === "invalid_request" && problem.errors && problem.errors.length) {
    return `That wasn't accepted: ${problem.errors[0].message.replace(/^./, (c) => c.toLowerCase())}`;
  }
  return CODES[problem.code] || problem.detail || problem.message || "Something went wrong.";
}

let region = null;
let timer = null;
let toastTimer = null;

/**
 * A short note, read out politely: over the hand (why a card can't be played, a link copied), or at
 * the top (`place` "top": what happened at the table), clear of the seats and their clocks.
 */
export function showToast(text, place = "hand") {
  const toast = document.getElementById("toast");
  clearTimeout(toastTimer);
  toast.dataset.place = place;
  fill(toast, text);
  toast.hidden = false;
  toastTimer = setTimeout(() => {
    toast.hidden = true;
  }, 4000);
}

/** Show a message in the page's alert line (role=alert): tone "error" | "info". */
export function showMessage(text, tone = "error") {
  region = region || document.getElementById("message");
  clearTimeout(timer);
  region.dataset.tone = tone;
  fill(region, h("span.message-text", {}, text), h("button.message-close", {
    type: "button", "aria-label": "Dismiss message", onclick: clearMessage,
  }, "×"));
  region.hidden = false;
  if (tone === "info") timer = setTimeout(clearMessage, 6000);
}

export function showProblem(problem) {
  showMessage(describeProblem(problem), "error");
}

export function clearMessage() {
  region = region || document.getElementById("message");
  region.hidden = true;
  region.replaceChildren();
}
