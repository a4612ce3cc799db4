// English: the reference catalogue. Every other catalogue has exactly these keys (tests/web/test_i18n.py).
// A value is a string with {name} placeholders, or plural forms {one, other} chosen by {count}.
export default {
  // ── app: the page, Settings, the connection, languages ──
  "app.name": "Spades",
  "app.settings": "Settings",
  "app.language": "Language",

  // ── problem: a sentence for each problem code of openapi.yaml; reason: each engine reason ──

  // ── lobby: the lobby, new game, rules and house rules, levels, quick match, tables of people ──

  // ── table: the game, the seats, the hand, bidding, passing, blind bids, clocks, motion ──

  // ── round: scores, the round summary, the review, hints, game over ──

  // ── players: names, profiles, leaderboards, replays, ratings ──

  // ── offline: the installed app, reconnecting ──
  "offline.reconnecting": "No connection — reconnecting…",
};
