// What each of your moves in a round's review cost (pure: no DOM, no words): the points it gave away
// against the hint level's best move, in whole points as a score counts them, the round's total and
// its biggest mistakes. The figures are the API's (`given_away`, `accurate`, each candidate's `value`,
// docs/api.md "Accuracy"); a person reads a move's cost, not the expected worth of the round behind it,
// which also counts winning or losing the game and so can be far from the round's score.

const BIGGEST = 3; // the mistakes the review's summary lists

/** A move as a comparable key: "KS", "4", "blind 0", "look", "pass 2C 3D". */
export function moveKey(move) {
  if ("card" in move) return move.card;
  if ("look" in move) return "look";
  if ("pass" in move) return `pass ${[...move.pass].sort().join(" ")}`;
  return `${move.blind ? "blind " : ""}${move.bid}`;
}

export const sameMove = (a, b) => moveKey(a) === moveKey(b);

/** Points in whole numbers, as a score counts them (figures come to two decimals: 2.4999999 is 2.5). */
export function wholePoints(x) {
  return Math.round(Math.round(x * 100) / 100);
}

/** The step of the review a decision is shown at: 0 for the bidding (a blind decision and the nil
 * exchange's pass too), else its trick. */
export function stepOf(decision) {
  return "trick" in decision ? decision.trick : 0;
}

/**
 * What a decision cost: {kind, points, mistake}. kind is "only" (one legal move: not scored), "unscored"
 * (a nil exchange's set the hint level did not weigh), "best" (the level's move), "asGood" (another move
 * it valued the same, to the whole point) or "gave" (`points` given away, at least 1); a mistake is a move
 * the API does not count as accurate (more than a few points away, the margin one analysis can't tell apart).
 */
export function costOf(decision) {
  if (!decision.candidates.some((c) => typeof c.value === "number")) return { kind: "only", points: null, mistake: false };
  if (typeof decision.given_away !== "number") return { kind: "unscored", points: null, mistake: false };
  const points = sameMove(decision.made, decision.best) ? 0 : wholePoints(decision.given_away);
  if (points === 0) return { kind: sameMove(decision.made, decision.best) ? "best" : "asGood", points: 0, mistake: false };
  return { kind: "gave", points, mistake: decision.accurate === false };
}

/** Each valued candidate's points against the best one (whole points; the made move's is its cost, so the
 * table and the verdict agree), in `candidates`' order; null for a candidate without a value. */
export function candidateCosts(decision) {
  const values = decision.candidates.map((c) => (typeof c.value === "number" ? c.value : null));
  const top = Math.max(...values.filter((v) => v !== null));
  const made = costOf(decision);
  return decision.candidates.map((c, i) => {
    if (values[i] === null) return null;
    if (sameMove(c, decision.made) && made.points !== null) return made.points;
    return wholePoints(top - values[i]);
  });
}

/** The cost of a step (its decisions added up): {points, mistake, scored}; scored false when none of its
 * decisions was scored (nothing to show on the step). */
export function stepCost(decisions) {
  const costs = decisions.map(costOf).filter((c) => c.points !== null);
  return {
    points: costs.reduce((sum, c) => sum + c.points, 0),
    mistake: costs.some((c) => c.mistake),
    scored: costs.length > 0,
  };
}

/**
 * The round's figures for the review's summary: `points` given away in all (the sum of the figures each
 * move shows), `scored` moves, `close` ones (accurate), and the `mistakes` that gave most away, biggest
 * first (at most three; a decision each, with its cost and step).
 */
export function roundCost(decisions) {
  const each = decisions.map((decision) => ({ decision, cost: costOf(decision), step: stepOf(decision) }));
  const scored = each.filter((e) => e.cost.points !== null);
  const mistakes = scored
    .filter((e) => e.cost.mistake)
    .sort((a, b) => b.decision.given_away - a.decision.given_away || a.step - b.step)
    .slice(0, BIGGEST);
  return {
    points: scored.reduce((sum, e) => sum + e.cost.points, 0),
    scored: scored.length,
    close: scored.filter((e) => e.decision.accurate !== false).length,
    mistakes,
  };
}
