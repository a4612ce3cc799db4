// The computer levels a game can seat. The contract's AiLevel enum lists which ones the server
// accepts (tests/web checks this list stays within it). When GET /v1/levels exists, fetch the
// list from there instead and keep this as the fallback.

export const LEVELS = [
  { name: "easy", description: "Random: bids 1 to 4 at random and plays a random legal card." },
  { name: "standard", description: "Bids by simulating 100 deals; plays high to reach its bid, low once it is made." },
  { name: "pro", description: "Bids as standard; plays the card most (or least) likely to take the trick." },
];
export const DEFAULT_LEVEL = "standard";

export function levelDescription(name) {
  const level = LEVELS.find((l) => l.name === name);
  return level ? level.description : "";
}
