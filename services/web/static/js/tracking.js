// What a player tracks, computed from the view alone (pure: no DOM): each side's contract and the
// tricks it has taken toward it, bags toward the penalty, each nil alive or set, and a finished
// round's score as the server took it apart (its `parts`). The rules are the view's `rules` (the engine's
// scoring: services/engine/scoring.py), so every variant the lobby offers is followed.

/** The seats that score together for `side`: partners in partnership play, else the seat alone. */
export function seatsOfSide(rules, side) {
  return rules.scoring === "partnership" ? [side, side + 2] : [side];
}

/** Tricks that count toward a side's contract (a nil bidder's only when the rules say so). */
function countedTricks(rules, seats, bids, tricks) {
  return seats.reduce((sum, s) => sum + (bids[s] !== 0 || rules.nil_tricks_count_for_team ? tricks[s] : 0), 0);
}

/**
 * A side's contract this round: {bid, taken, complete, made, set} — bid is the sum of its non-nil
 * bids (null until they are all in), taken the tricks that count toward it so far, made once taken
 * reaches bid, set once it can no longer be reached (13 tricks minus those already gone elsewhere).
 */
export function contractOf(view, side) {
  const seats = seatsOfSide(view.rules, side);
  const bids = seats.map((s) => view.bids[s]);
  const complete = bids.every((b) => b !== null);
  const bid = complete ? bids.reduce((sum, b) => sum + b, 0) : null;
  const taken = countedTricks(view.rules, seats, view.bids.map((b) => b ?? -1), view.tricks_won);
  const played = view.tricks_won.reduce((a, b) => a + b, 0);
  const left = 13 - played;
  return {
    bid,
    taken,
    complete,
    made: bid !== null && bid > 0 && taken >= bid,
    set: bid !== null && bid > 0 && taken + left < bid,
    overtricks: bid !== null && taken > bid ? taken - bid : 0,
  };
}

/** Each nil bid this round: [{seat, alive}] — alive while the bidder has taken no trick. */
export function nilsOf(view) {
  return [0, 1, 2, 3].filter((s) => view.bids[s] === 0).map((seat) => ({ seat, alive: view.tricks_won[seat] === 0 }));
}

/** Whether the view's round is scored already: its history entry is in (the view's `bags` and
 * `scores` include the round, while its bids and tricks still show), until the next round is dealt. */
export function roundScored(view) {
  return view.phase === "game_over" || (view.history || []).some((round) => round.round === view.round);
}

/** "7 of 10": a side's bags toward the penalty, counting this round's overtricks so far (once the
 * round is scored, `view.bags` holds them already: they are not counted twice). */
export function bagsToward(view, side) {
  const limit = view.rules.bag_limit;
  const now = view.bags[side] + (roundScored(view) ? 0 : contractOf(view, side).overtricks);
  return { bags: now, limit, penalty: view.rules.bag_penalty, close: view.rules.bag_penalty > 0 && now >= limit - 2 };
}

/**
 * A finished round's points per side, part by part, as the server's scoring rule counted them (`round.parts`:
 * every house rule is already in them), with the side's bags before and after the round (`bagsBefore`: the
 * side's bags before it): [{side, contract: {bid, taken, points, blind, bonus}, bags: {count, points, before,
 * after}, penalty, nils: [{seat, made, blind, points}], total}] — contract + bags + penalty + nils = total.
 */
export function roundParts(round, bagsBefore) {
  return round.parts.map((part) => ({
    ...part,
    bags: { count: part.bags, points: part.bags, before: bagsBefore[part.side] ?? 0, after: round.bags[part.side] },
  }));
}

/** Does the game end after a round with these `scores` (the engine's game_winner: a side at the
 * winning score, at the losing score, or trailing by the mercy margin; a tie for the lead plays on)? */
export function gameEnds(rules, scores) {
  const high = Math.max(...scores);
  const ended =
    high >= rules.win_score ||
    (rules.lose_score !== null && rules.lose_score !== undefined && Math.min(...scores) <= rules.lose_score) ||
    (rules.mercy_margin !== null && rules.mercy_margin !== undefined && high - Math.min(...scores) >= rules.mercy_margin);
  return ended && scores.filter((s) => s === high).length === 1;
}

/** Did the mercy rule end the game after a round with these `scores` (a side trailing the leader by
 * `mercy_margin`, nobody at the winning or losing score)? */
export function mercyEnded(rules, scores) {
  const margin = rules.mercy_margin;
  if (margin === null || margin === undefined) return false;
  const high = Math.max(...scores);
  const low = Math.min(...scores);
  const lose = rules.lose_score;
  return high - low >= margin && high < rules.win_score && (lose === null || low > lose);
}

/** The bags each side held before `round` (a history entry), from the round before it. */
export function bagsBefore(history, round) {
  const previous = history.find((r) => r.round === round.round - 1);
  return previous ? previous.bags : round.bags.map(() => 0);
}

/** "+60", "−40", "0" (a true minus sign). */
export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${Math.abs(n)}` : "0";
}
