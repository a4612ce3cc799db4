// What a player tracks, computed from the view alone (pure: no DOM): each side's contract and the
// tricks it has taken toward it, bags toward the penalty, each nil alive or set, and a finished
// round's score taken apart into its scoring parts. The rules are the view's `rules` (the engine's
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
 * A finished round's points per side, part by part (`round`: a history entry; `bagsBefore`: the
 * side's bags before the round): [{contract: {bid, taken, points}, bags: {count, points},
 * penalty, nils: [{seat, made, points}], total}] — contract + bags + penalty + nil = total, and
 * total is the round's `points` for that side.
 */
export function roundParts(rules, round, bagsBefore) {
  return round.points.map((total, side) => {
    const seats = seatsOfSide(rules, side);
    const blind = round.blind || [];
    const bid = seats.reduce((sum, s) => sum + (round.bids[s] > 0 ? round.bids[s] : 0), 0);
    // house rules: blind bids count twice; a contract of 10 or more is worth the 10-for-200 bonus
    const blindBid = seats.reduce((sum, s) => sum + (round.bids[s] > 0 && blind[s] ? round.bids[s] : 0), 0);
    const tenFor200 = Boolean(rules.ten_for_200) && bid >= 10;
    const value = tenFor200 ? rules.ten_for_200_value : 10 * (bid + blindBid);
    const taken = countedTricks(rules, seats, round.bids, round.tricks_won);
    let contract = 0;
    let bags = 0;
    if (taken >= bid) {
      contract = value;
      bags = taken - bid;
    } else if (rules.set_penalty === "negative") {
      contract = -value;
    }
    const nils = seats
      .filter((s) => round.bids[s] === 0)
      .map((seat) => {
        const made = round.tricks_won[seat] === 0;
        const worth = blind[seat] ? rules.blind_nil_value : rules.nil_value;
        return { seat, made, blind: Boolean(blind[seat]), points: made ? worth : -worth };
      });
    const penalty = -round.bag_penalties[side] * rules.bag_penalty;
    const sum = contract + bags + penalty + nils.reduce((a, n) => a + n.points, 0);
    return {
      side,
      contract: { bid, taken, points: contract, blind: blindBid, tenFor200 },
      bags: { count: bags, points: bags, before: bagsBefore[side] ?? 0, after: round.bags[side] },
      penalty,
      nils,
      total,
      consistent: sum === total,
    };
  });
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
