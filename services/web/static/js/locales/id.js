// Bahasa Indonesia: the keys of en.js (tests/web/test_i18n.py). Plural forms: Indonesian has only "other".
// Words of the rules follow seed 002 (sekop, trik, tawaran, kontrak, bag, nil, ronde, pengocok).
export default {
  // ── app: the page, Settings, the connection, languages ──
  "app.name": "Spades",
  "app.settings": "Pengaturan",
  "app.language": "Bahasa",

  // ── problem: a sentence for each problem code of openapi.yaml; reason: each engine reason ──

  // ── lobby: the lobby, new game, rules and house rules, levels, quick match, tables of people ──

  // ── table: the game, the seats, the hand, bidding, passing, blind bids, clocks, motion ──

  // ── round: scores, the round summary, the review, hints, game over ──

  // ── players: names, profiles, leaderboards, replays, ratings ──

  // ── offline: the installed app, reconnecting ──
  "offline.reconnecting": "Koneksi terputus — menyambung ulang…",
};
